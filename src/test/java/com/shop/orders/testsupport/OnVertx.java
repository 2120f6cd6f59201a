package com.shop.orders.testsupport;

import java.time.Duration;
import java.util.function.Supplier;

import com.shop.orders.resilience.MutinyBridge;

import io.smallrye.mutiny.Uni;

/** Runs an application pipeline on a Vert.x context and waits for it, as RocketMQ threads and scheduled jobs do. */
public final class OnVertx {

    private OnVertx() {
    }

    public static <T> T await(Supplier<Uni<T>> pipeline) throws Exception {
        try {
            return MutinyBridge.await(pipeline, Duration.ofSeconds(30));
        } catch (Exception e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }
}
