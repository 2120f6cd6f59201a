package com.shop.orders.refund;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;

import com.shop.orders.order.OrderRefunds;
import com.shop.orders.order.OrderView;

import io.smallrye.mutiny.Uni;

/** A member sees each refund's amount, status and times; the reason and Alipay's codes are for admins. */
@ApplicationScoped
public class MemberRefunds implements OrderRefunds {

    private final RefundRepository refunds;

    public MemberRefunds(RefundRepository refunds) {
        this.refunds = refunds;
    }

    @Override
    public Uni<Map<Long, List<OrderView.Refund>>> of(Collection<Long> orderIds) {
        return refunds.ofOrders(orderIds).map(found -> found.stream().collect(Collectors.groupingBy(
                refund -> refund.orderId,
                Collectors.mapping(refund -> new OrderView.Refund(refund.amount, refund.status.name(),
                        refund.requestedAt, refund.completedAt), Collectors.toList()))));
    }
}
