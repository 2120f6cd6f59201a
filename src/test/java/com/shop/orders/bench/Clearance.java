package com.shop.orders.bench;

import java.net.URI;
import java.net.http.HttpRequest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Cancels the pending orders a placement round left, through the members' own cancel endpoint, between rounds and
 * outside their measurement. Without it, the orders of a round reach their deadline (the full size's pay window is
 * 90 s) during a later round, so that round would measure placement plus the expiry of its predecessors at the
 * same rate; the watch's capacity is phase 4's subject. Each cancel is a real close (conditional update, stock
 * release, transition announced), and the check-backs of the cancelled orders' half messages answer ROLLBACK.
 */
final class Clearance {

    private static final int AT_ONCE = 16;

    private final Bench bench;
    private final Map<String, String> tokens = new HashMap<>();

    Clearance(Bench bench) {
        this.bench = bench;
    }

    private record Pending(long id, String member) {
    }

    /** Cancels every pending order; returns how many were cancelled. */
    long cancelPending() {
        long start = System.nanoTime();
        List<Pending> pending = new ArrayList<>();
        try (Connection c = bench.stack().connect(); PreparedStatement st = c.prepareStatement(
                "SELECT id, member_id FROM orders WHERE status = 'PENDING_PAYMENT'"); ResultSet rs = st.executeQuery()) {
            while (rs.next()) {
                pending.add(new Pending(rs.getLong(1), rs.getString(2)));
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        List<HttpRequest> cancels = pending.stream().map(order -> HttpRequest.newBuilder(URI.create(
                bench.service().apiUrl() + "/api/orders/" + order.id() + "/cancel")).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + tokens.computeIfAbsent(order.member(),
                        member -> bench.stack().tokens().token(member)))
                .POST(HttpRequest.BodyPublishers.noBody()).build()).toList();
        long cancelled = Requests.statuses(cancels, AT_ONCE).stream().filter(status -> status == 200).count();
        if (!pending.isEmpty()) {
            Progress.say("  cancelled %d of %d pending orders between rounds in %.1f s", cancelled, pending.size(),
                    (System.nanoTime() - start) / 1e9);
        }
        return cancelled;
    }
}
