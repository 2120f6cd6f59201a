package com.shop.orders.expiry;

import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import com.shop.orders.order.OrderTransition;

/**
 * Orders that left PENDING_PAYMENT (paid or closed) lately, as announced by {@code OrderTransitions} from
 * this and every other instance, so that a check-back knows them without any I/O. A hint, never the truth:
 * an order missing here is checked as pending, and the consumer reads the database before it closes.
 */
@ApplicationScoped
public class DecidedOrders {

    private final Map<String, Boolean> decided;

    public DecidedOrders(ExpiryConfig config) {
        int remembered = config.decidedOrdersRemembered();
        this.decided = new LinkedHashMap<>(1024, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
                return size() > remembered;
            }
        };
    }

    void onTransition(@Observes OrderTransition transition) {
        synchronized (decided) {
            decided.put(transition.orderNo(), Boolean.TRUE);
        }
    }

    boolean isDecided(String orderNo) {
        synchronized (decided) {
            return decided.containsKey(orderNo);
        }
    }
}
