package com.shop.orders.payment;

import java.time.LocalDate;

/** The wallet has not made the day's bill yet: asked again later. */
public class BillNotPublishedException extends RuntimeException {

    public BillNotPublishedException(String wallet, LocalDate date) {
        super(wallet + " has not published the trade bill of " + date + " yet", null, false, false);
    }
}
