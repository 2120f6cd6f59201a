package com.shop.orders.sandbox.alipay;

import java.time.Duration;

/** What the gateway sends back and how long it holds it first. */
record GatewayReply(int httpStatus, String contentType, byte[] body, Duration delay) {
}
