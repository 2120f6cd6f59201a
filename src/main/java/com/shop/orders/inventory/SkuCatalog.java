package com.shop.orders.inventory;

import java.math.BigDecimal;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;

import com.shop.orders.sql.Sql;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Names, prices and purchase limits of SKUs for placing orders, kept in memory for a short while so that placement
 * does not read the SKU rows on every order. Stock is never cached: it moves only by conditional updates, and the
 * stock lock succeeds only at the price and limit the order was computed with.
 */
@ApplicationScoped
public class SkuCatalog {

    /**
     * What an order line needs to know about its SKU; {@code perMemberLimit} null: no purchase limit. {@code version}
     * moves on with every change of price, limit or layout; {@code layout} numbers the bucket layout.
     */
    public record PricedSku(long id, String name, BigDecimal price, Integer perMemberLimit, int buckets, int version,
            int layout) {

        /** Whether an order computed with {@code then} must be computed again with this. */
        public boolean changedSince(PricedSku then) {
            return version != then.version || buckets != then.buckets || price.compareTo(then.price) != 0
                    || !Objects.equals(perMemberLimit, then.perMemberLimit);
        }
    }

    private record Entry(PricedSku sku, long loadedAtNanos) {
    }

    private final Pool pool;
    private final long ttlNanos;
    private final Map<Long, Entry> entries = new ConcurrentHashMap<>();

    public SkuCatalog(Pool pool, InventoryConfig config) {
        this.pool = pool;
        this.ttlNanos = config.catalogTtl().toNanos();
    }

    /** The SKUs among {@code ids} that exist; unknown ids are absent from the answer. */
    public Uni<Map<Long, PricedSku>> find(Collection<Long> ids) {
        long now = System.nanoTime();
        Map<Long, PricedSku> found = new HashMap<>();
        List<Long> missing = ids.stream().filter(id -> {
            Entry entry = entries.get(id);
            boolean fresh = entry != null && now - entry.loadedAtNanos() < ttlNanos;
            if (fresh) {
                found.put(id, entry.sku());
            }
            return !fresh;
        }).toList();
        if (missing.isEmpty()) {
            return Uni.createFrom().item(found);
        }
        return load(missing).map(loaded -> {
            found.putAll(loaded);
            return found;
        });
    }

    /** Drops what is known about a SKU, so that the next {@link #find} reads it again. */
    public void forget(long id) {
        entries.remove(id);
    }

    private Uni<Map<Long, PricedSku>> load(List<Long> ids) {
        return pool.preparedQuery("SELECT id, name, price, per_member_limit, buckets, version, layout FROM sku WHERE id IN (" + Sql.placeholders(ids.size()) + ")")
                .execute(Tuple.wrap(List.copyOf(ids)))
                .map(rows -> {
                    long now = System.nanoTime();
                    Map<Long, PricedSku> loaded = new HashMap<>();
                    for (Row row : rows) {
                        PricedSku sku = new PricedSku(row.getLong("id"), row.getString("name"), row.getBigDecimal("price"),
                                row.getInteger("per_member_limit"), row.getInteger("buckets"), row.getInteger("version"),
                                row.getInteger("layout"));
                        loaded.put(sku.id(), sku);
                        entries.put(sku.id(), new Entry(sku, now));
                    }
                    return loaded;
                });
    }
}
