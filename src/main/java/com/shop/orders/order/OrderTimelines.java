package com.shop.orders.order;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import com.shop.orders.sql.Sql;
import com.shop.orders.tracing.TraceContexts;

import io.opentelemetry.api.trace.SpanContext;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;

/** Reads an order's timeline: its row, then what {@link OrderEvents} recorded of it, bounded. */
@ApplicationScoped
public class OrderTimelines {

    private static final String ENTRY = "SELECT id, at, kind, outcome, detail, trace_id FROM order_event WHERE order_no = ?";
    private static final int HALF = OrderTimeline.MAX_ENTRIES / 2;

    private final Pool pool;

    public OrderTimelines(Pool pool) {
        this.pool = pool;
    }

    /** The order's timeline; 404 when there is no such order. */
    public Uni<OrderTimeline> of(long orderId) {
        return pool.preparedQuery("SELECT order_no, status, close_reason, created_at, pay_deadline, expiry_message_at, "
                + "trace_parent FROM orders WHERE id = ?")
                .execute(Tuple.of(orderId))
                .map(rows -> {
                    if (rows.size() == 0) {
                        throw new OrderNotFoundException(orderId);
                    }
                    return rows.iterator().next();
                })
                .chain(order -> recorded(order.getString("order_no"))
                        .map(recorded -> timeline(orderId, order, recorded)));
    }

    private record Recorded(List<OrderTimeline.Entry> entries, int omitted, List<OrderTimeline.Entry> checkBacks) {
    }

    /** All entries when they are few, else the first and the last {@link #HALF}; and every check-back. */
    private Uni<Recorded> recorded(String orderNo) {
        return pool.preparedQuery("SELECT COUNT(*) FROM order_event WHERE order_no = ?").execute(Tuple.of(orderNo))
                .map(rows -> rows.iterator().next().getInteger(0))
                .chain(count -> (count <= OrderTimeline.MAX_ENTRIES
                        ? pool.preparedQuery(ENTRY + " ORDER BY id").execute(Tuple.of(orderNo))
                        : pool.preparedQuery("(" + ENTRY + " ORDER BY id LIMIT ?) UNION ALL (" + ENTRY
                                + " ORDER BY id DESC LIMIT ?)").execute(Tuple.of(orderNo, HALF, orderNo, HALF)))
                        .map(OrderTimelines::entries)
                        .chain(entries -> pool.preparedQuery(ENTRY + " AND kind = 'CHECK_BACK'").execute(Tuple.of(orderNo))
                                .map(checks -> new Recorded(entries,
                                        Math.max(0, count - OrderTimeline.MAX_ENTRIES), entries(checks)))));
    }

    private static OrderTimeline timeline(long orderId, Row order, Recorded recorded) {
        SpanContext placedIn = TraceContexts.parse(order.getString("trace_parent"));
        String traceId = placedIn.isValid() ? placedIn.getTraceId() : null;
        Instant placedAt = Sql.instant(order.getLocalDateTime("created_at"));
        List<OrderTimeline.Entry> entries = new ArrayList<>(recorded.entries());
        entries.add(new OrderTimeline.Entry(placedAt, "PLACED", "PENDING_PAYMENT", null, traceId));
        if (order.getLocalDateTime("expiry_message_at") != null) {
            entries.add(new OrderTimeline.Entry(Sql.instant(order.getLocalDateTime("expiry_message_at")),
                    "EXPIRY_MESSAGE", "sent", "confirmed by the broker", null));
        }
        String closeReason = order.getString("close_reason");
        return new OrderTimeline(orderId, order.getString("order_no"), OrderStatus.valueOf(order.getString("status")),
                closeReason == null ? null : CloseReason.valueOf(closeReason), placedAt,
                Sql.instant(order.getLocalDateTime("pay_deadline")), traceId,
                OrderTimeline.checkBacks(recorded.checkBacks()), OrderTimeline.inOrder(entries), recorded.omitted());
    }

    /** Rows in the order they were written (the second half of a long timeline comes newest first). */
    private static List<OrderTimeline.Entry> entries(RowSet<Row> rows) {
        List<long[]> ids = new ArrayList<>();
        List<OrderTimeline.Entry> entries = new ArrayList<>();
        for (Row row : rows) {
            ids.add(new long[] { row.getLong("id"), entries.size() });
            entries.add(new OrderTimeline.Entry(Sql.instant(row.getLocalDateTime("at")), row.getString("kind"),
                    row.getString("outcome"), row.getString("detail"), row.getString("trace_id")));
        }
        ids.sort((a, b) -> Long.compare(a[0], b[0]));
        return ids.stream().map(id -> entries.get((int) id[1])).toList();
    }
}
