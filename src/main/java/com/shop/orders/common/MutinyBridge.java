package com.shop.orders.common;

import java.time.Duration;
import java.util.function.Supplier;

import io.quarkus.vertx.VertxContextSupport;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * The two crossings between blocking SDKs (Alipay, RocketMQ) and the reactive pipelines.
 */
public final class MutinyBridge {

    private MutinyBridge() {
    }

    /**
     * Runs a blocking call on a worker thread and comes back on the caller's Vert.x context, so
     * that the pipeline can go on with Hibernate Reactive or Redis after it.
     */
    public static <T> Uni<T> blocking(Supplier<T> call) {
        return Uni.createFrom().deferred(() -> {
            Context context = Vertx.currentContext();
            Uni<T> onWorker = Uni.createFrom().item(call).runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
            return context == null ? onWorker : onWorker.emitOn(task -> context.runOnContext(ignored -> task.run()));
        });
    }

    /**
     * RocketMQ calls our listeners on its own threads and wants an answer before it returns:
     * runs a reactive pipeline on a Vert.x context and waits for it, bounded, on the calling
     * thread, which is never an event loop.
     */
    public static <T> T await(Supplier<Uni<T>> pipeline, Duration timeout) throws Throwable {
        return VertxContextSupport.subscribeAndAwait(() -> pipeline.get().ifNoItem().after(timeout).fail());
    }
}
