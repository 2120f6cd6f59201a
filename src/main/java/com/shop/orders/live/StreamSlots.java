package com.shop.orders.live;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The open live-status streams of this instance, counted per order and per member, each within its cap
 * ({@link LiveStatusConfig}): every stream holds a connection and re-reads its order, so one member must not be able
 * to open them without end. A slot is taken before a stream starts and given back once when it ends, however it ends.
 */
@ApplicationScoped
public class StreamSlots {

    /** Which cap refused a stream. */
    enum Cap {
        ORDER, MEMBER
    }

    private final Map<Long, Integer> byOrder = new ConcurrentHashMap<>();
    private final Map<String, Integer> byMember = new ConcurrentHashMap<>();
    private final AtomicInteger open = new AtomicInteger();
    private final LiveStatusConfig config;
    private final Counter refusedByOrder;
    private final Counter refusedByMember;

    public StreamSlots(LiveStatusConfig config, MeterRegistry registry) {
        this.config = config;
        Gauge.builder("live.streams.open", open, AtomicInteger::get)
                .description("Live order-status streams open on this instance").register(registry);
        this.refusedByOrder = refused(registry, "order");
        this.refusedByMember = refused(registry, "member");
    }

    /** A slot for one more stream of this member's order, or the cap that refuses it. */
    Slot take(String memberId, long orderId) {
        if (!take(byMember, memberId, config.maxStreamsPerMember())) {
            refusedByMember.increment();
            return new Slot(Cap.MEMBER, null);
        }
        if (!take(byOrder, orderId, config.maxStreamsPerOrder())) {
            giveBack(byMember, memberId);
            refusedByOrder.increment();
            return new Slot(Cap.ORDER, null);
        }
        open.incrementAndGet();
        AtomicBoolean given = new AtomicBoolean();
        return new Slot(null, () -> {
            if (given.compareAndSet(false, true)) {
                giveBack(byOrder, orderId);
                giveBack(byMember, memberId);
                open.decrementAndGet();
            }
        });
    }

    /** Taken, with its release (idempotent), or refused by a cap (and no release). */
    record Slot(Cap refusedBy, Runnable release) {
    }

    private static <K> boolean take(Map<K, Integer> counts, K key, int max) {
        boolean[] taken = { false };
        counts.compute(key, (k, count) -> {
            int now = count == null ? 0 : count;
            if (now >= max) {
                return count;
            }
            taken[0] = true;
            return now + 1;
        });
        return taken[0];
    }

    private static <K> void giveBack(Map<K, Integer> counts, K key) {
        counts.computeIfPresent(key, (k, count) -> count <= 1 ? null : count - 1);
    }

    private static Counter refused(MeterRegistry registry, String cap) {
        return Counter.builder("live.streams.refused").tag("cap", cap)
                .description("Live order-status streams refused (429) because a cap was reached").register(registry);
    }
}
