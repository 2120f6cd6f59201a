package com.shop.orders.payment;

/** The bill's link did not give the bill (expired, refused, unreachable): worth trying again with a new link. */
public class BillNotDownloadedException extends RuntimeException {

    public BillNotDownloadedException(String reason) {
        super(reason, null, false, false);
    }
}
