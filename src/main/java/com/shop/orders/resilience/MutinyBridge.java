package com.shop.orders.resilience;

import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.quarkus.vertx.VertxContextSupport;
import io.quarkus.vertx.core.runtime.context.VertxContextSafetyToggle;
import io.smallrye.common.vertx.VertxContext;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * The crossings between blocking SDKs (Alipay, RocketMQ) and the reactive pipelines. Blocking work itself
 * runs on a {@link Bulkhead}; these methods bring its result back where the pipeline needs it.
 */
public final class MutinyBridge {

    private MutinyBridge() {
    }

    /**
     * Delivers the item on the subscriber's Vert.x context (when it has one), so that a pipeline can go on
     * with Hibernate Reactive or Redis after a call that completed on another thread.
     */
    public static <T> Uni<T> backOnContext(Uni<T> work) {
        return Uni.createFrom().deferred(() -> {
            Context context = Vertx.currentContext();
            return context == null ? work : work.emitOn(task -> context.runOnContext(ignored -> task.run()));
        });
    }

    /**
     * RocketMQ calls our listeners on its own threads and wants an answer before it returns: runs a
     * reactive pipeline on a Vert.x context and waits for it, bounded, on the calling thread, which is
     * never an event loop.
     */
    public static <T> T await(Supplier<Uni<T>> pipeline, Duration timeout) throws Throwable {
        io.opentelemetry.context.Context trace = io.opentelemetry.context.Context.current();
        return VertxContextSupport.subscribeAndAwait(() -> {
            carry(trace);
            return pipeline.get().ifNoItem().after(timeout).fail();
        });
    }

    /**
     * Starts a reactive pipeline on a Vert.x context of its own, without waiting for it. Works from any thread: a
     * RocketMQ callback (no context) or the event loop of a pipeline that just ended. The item and the failure
     * reach the consumers on that context.
     */
    public static <T> void start(Vertx vertx, Supplier<Uni<T>> pipeline, Consumer<T> onItem,
            Consumer<Throwable> onFailure) {
        Context current = Vertx.currentContext();
        io.opentelemetry.context.Context trace = io.opentelemetry.context.Context.current();
        ownContext(current == null ? vertx.getOrCreateContext() : current)
                .runOnContext(ignored -> {
                    carry(trace);
                    Uni.createFrom().<T>deferred(pipeline::get).subscribe().with(onItem, onFailure);
                });
    }

    /**
     * Runs a pipeline on a Vert.x context of its own. Hibernate Reactive keeps one session per context, and
     * a session runs one statement at a time: pipelines that run side by side (a sweep closing several
     * orders at once) each need their own context.
     */
    public static <T> Uni<T> onOwnContext(Supplier<Uni<T>> pipeline) {
        return Uni.createFrom().deferred(() -> onOwnContext(io.opentelemetry.context.Context.current(), pipeline));
    }

    /** {@link #onOwnContext(Supplier)} in the given trace context (a span of the pipeline's own, say). */
    public static <T> Uni<T> onOwnContext(io.opentelemetry.context.Context trace, Supplier<Uni<T>> pipeline) {
        return backOnContext(Uni.createFrom().emitter(emitter -> ownContext(Vertx.currentContext())
                .runOnContext(ignored -> {
                    carry(trace);
                    pipeline.get().subscribe().with(emitter::complete, emitter::fail);
                })));
    }

    /**
     * Makes the caller's trace context the current one of the new Vert.x context the pipeline runs on, so that its
     * spans (SQL, Redis, Alipay) are children of the caller's. Never closed on purpose: it lives and ends with that
     * duplicated context, which is the pipeline's alone.
     */
    @SuppressWarnings("resource")
    private static void carry(io.opentelemetry.context.Context trace) {
        if (trace != io.opentelemetry.context.Context.root()) {
            trace.makeCurrent();
        }
    }

    /** A new duplicated context beside {@code base}, marked safe for Hibernate Reactive. */
    private static Context ownContext(Context base) {
        Context own = VertxContext.createNewDuplicatedContext(base);
        VertxContextSafetyToggle.setContextSafe(own, true);
        return own;
    }
}
