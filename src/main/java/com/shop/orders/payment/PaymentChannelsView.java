package com.shop.orders.payment;

import java.util.List;

/** The channels this shop has configured, the ones a buyer may name in a payment request. */
public record PaymentChannelsView(List<String> channels) {
}
