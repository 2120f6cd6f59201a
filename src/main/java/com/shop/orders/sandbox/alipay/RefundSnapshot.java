package com.shop.orders.sandbox.alipay;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * One refund of a trade as Alipay recorded it.
 *
 * @param requestNo its out_request_no (empty for the refund a cancel makes, which has none)
 */
public record RefundSnapshot(String requestNo, BigDecimal amount, Instant at) {
}
