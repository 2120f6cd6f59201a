package com.shop.orders.order;

import java.util.Map;

import com.shop.orders.web.ProblemException;

/** An order over one of the member's purchase limits: refused as a whole, nothing reserved. */
public class PurchaseLimitReached extends ProblemException {

    static final String TITLE = "Purchase limit reached";

    private PurchaseLimitReached(String detail, Map<String, Object> extensions) {
        super(409, TITLE, detail, extensions);
    }

    static PurchaseLimitReached unpaidOrders(int max) {
        return new PurchaseLimitReached("This member already has " + max + " unpaid orders, the most one member may "
                + "hold: pay or cancel one first", Map.of("limit", "unpaid-orders", "max", max));
    }

    static PurchaseLimitReached perMember(long skuId, int max, int held) {
        return new PurchaseLimitReached("SKU " + skuId + " is limited to " + max + " per member, and this member's "
                + "pending and paid orders already hold " + held,
                Map.of("limit", "per-member", "skuId", skuId, "max", max, "held", held));
    }

    /** The cap refused the order, but a concurrent close gave the allowance back before it could be named. */
    static PurchaseLimitReached unnamed() {
        return new PurchaseLimitReached("One of this member's purchase limits was reached; try again",
                Map.of("limit", "unknown"));
    }
}
