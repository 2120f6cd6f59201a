package com.shop.orders.order;

import java.util.Collection;
import java.util.List;
import java.util.Map;

import io.smallrye.mutiny.Uni;

/** The refunds of orders as their members see them; implemented where refunds are made. */
public interface OrderRefunds {

    /** Each order's refunds, oldest first; orders without any are absent. In the caller's session. */
    Uni<Map<Long, List<OrderView.Refund>>> of(Collection<Long> orderIds);
}
