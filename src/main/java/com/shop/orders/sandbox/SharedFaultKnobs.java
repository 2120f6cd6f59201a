package com.shop.orders.sandbox;

import java.time.Duration;

/**
 * The fault knobs both wallets' sandboxes have, named alike in their /faults JSON: notifies lost, sent twice or
 * late, and answers late.
 */
public interface SharedFaultKnobs {

    void dropNotifies(boolean drop);

    void duplicateNotifies(boolean duplicate);

    void delayNotifies(Duration delay);

    void latency(Duration latency);

    /** Sets those a PUT body gave (null: unchanged), once the whole body was validated. */
    default void change(Boolean dropNotifies, Boolean duplicateNotifies, Duration notifyDelay, Duration latency) {
        if (dropNotifies != null) {
            dropNotifies(dropNotifies);
        }
        if (duplicateNotifies != null) {
            duplicateNotifies(duplicateNotifies);
        }
        if (notifyDelay != null) {
            delayNotifies(notifyDelay);
        }
        if (latency != null) {
            latency(latency);
        }
    }
}
