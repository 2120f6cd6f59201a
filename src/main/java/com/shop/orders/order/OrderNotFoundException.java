package com.shop.orders.order;

import com.shop.orders.web.ProblemException;

/** Also answered for another member's order, so that order ids reveal nothing. */
public class OrderNotFoundException extends ProblemException {

    public OrderNotFoundException(long id) {
        super(404, "Order not found", "Order " + id + " does not exist");
    }
}
