package com.shop.orders.payment;

import com.shop.orders.order.Order;

import io.smallrye.mutiny.Uni;

/** The refunds the payment paths make by themselves; implemented where every refund is made. */
public interface PaymentRefunds {

    /**
     * A wallet took money for an order that had been closed: records the refund of all of it (once per order, also
     * when the order has no payment row because its precreate answer was lost) and sends it. Completes once the
     * refund is recorded; the wallet's answer may settle it later.
     */
    Uni<Void> refundLatePayment(Order order, PaidTrade trade);

    /** The wallet's close (Alipay's cancel) refunded a trade that had been paid meanwhile: records that refund as made. */
    Uni<Void> recordCancelRefund(Payment payment);
}
