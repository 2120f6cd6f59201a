package com.shop.orders.resilience;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.opentelemetry.context.Context;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.mutiny.Uni;

/**
 * A bounded pool for one kind of blocking call (Alipay, RocketMQ sends), so that a slow dependency
 * occupies only its own threads: never the event loop, the default worker pool, health checks or the
 * other dependency. A full pool refuses at once instead of queueing without bound, and a caller that
 * gives up (timeout, cancellation) takes back work that has not started yet and interrupts work that has.
 */
public final class Bulkhead {

    private final String name;
    private final ThreadPoolExecutor executor;
    private final Counter abandoned;

    public Bulkhead(String name, int threads, int queue, MeterRegistry registry) {
        this.name = name;
        AtomicInteger count = new AtomicInteger();
        this.executor = new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS, new ArrayBlockingQueue<>(queue),
                runnable -> {
                    Thread thread = new Thread(runnable, name + "-" + count.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
        executor.allowCoreThreadTimeOut(true);
        Gauge.builder("bulkhead.active", executor, ThreadPoolExecutor::getActiveCount).tag("bulkhead", name)
                .description("Calls running in the bulkhead").register(registry);
        Gauge.builder("bulkhead.queued", executor, e -> e.getQueue().size()).tag("bulkhead", name)
                .description("Calls waiting for a thread of the bulkhead").register(registry);
        this.abandoned = Counter.builder("bulkhead.abandoned").tag("bulkhead", name)
                .description("Calls whose callers gave up first (a timeout): taken back if queued, else interrupted")
                .register(registry);
    }

    /**
     * Runs {@code call} on the bulkhead, in the caller's trace context (its spans are children of the caller's); the
     * item comes back on the caller's Vert.x context.
     */
    public <T> Uni<T> call(Supplier<T> call) {
        Uni<T> onPool = Uni.createFrom().emitter(emitter -> {
            AtomicBoolean answered = new AtomicBoolean();
            Future<?> task;
            try {
                task = executor.submit(Context.current().wrap(() -> {
                    T item;
                    try {
                        item = call.get();
                    } catch (Throwable failure) {
                        answered.set(true);
                        emitter.fail(failure);
                        return;
                    }
                    answered.set(true);
                    emitter.complete(item);
                }));
            } catch (RejectedExecutionException e) {
                emitter.fail(new BulkheadFullException(name));
                return;
            }
            // Only for a caller that gave up. The answer ends the emitter from inside the task, which is still running
            // then: cancelling it would interrupt its own thread, an InterruptedException (stack trace and all) at the
            // pool's next wait after every call.
            emitter.onTermination(() -> {
                if (!answered.get() && task.cancel(true)) {
                    abandoned.increment();
                }
            });
        });
        return MutinyBridge.backOnContext(onPool);
    }

    /** Stops taking calls and waits up to {@code timeoutMillis} for running ones. */
    public void shutdown(long timeoutMillis) {
        executor.shutdown();
        try {
            if (!executor.awaitTermination(timeoutMillis, TimeUnit.MILLISECONDS)) {
                executor.shutdownNow();
            }
        } catch (InterruptedException e) {
            executor.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    /** The bulkhead's threads and queue are all taken: the caller should try again later. */
    public static final class BulkheadFullException extends RuntimeException {
        BulkheadFullException(String name) {
            super("The " + name + " bulkhead is full", null, false, false);
        }
    }
}
