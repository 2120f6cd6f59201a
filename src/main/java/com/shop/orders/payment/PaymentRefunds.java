package com.shop.orders.payment;

import com.shop.orders.order.Order;

import io.smallrye.mutiny.Uni;

/** The refunds the payment paths make by themselves; implemented where every refund is made. */
public interface PaymentRefunds {

    /**
     * A wallet took money on a trade of an order that had been closed: records the refund of all of it (once per
     * trade; {@code trade} is null for an order of an earlier version whose precreate answer was lost, which has no
     * trade recorded) and sends it. Completes once the refund is recorded; the wallet's answer may settle it later.
     */
    Uni<Void> refundLatePayment(Order order, Payment trade, PaidTrade paid);

    /**
     * A wallet took money on a trade of an order that another of its trades had paid (the buyer paid both QR codes):
     * records the refund of all of it, once per trade, and sends it. The order stays paid.
     */
    Uni<Void> refundDuplicatePayment(Order order, Payment trade, PaidTrade paid);

    /** The wallet's close (Alipay's cancel) refunded a trade that had been paid meanwhile: records that refund as made. */
    Uni<Void> recordCancelRefund(Payment payment);
}
