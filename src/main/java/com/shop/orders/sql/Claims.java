package com.shop.orders.sql;

import java.time.Instant;
import java.util.List;
import java.util.function.Function;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Transactions that claim rows for background work shared by replicas ({@code SELECT ... FOR UPDATE SKIP
 * LOCKED}, then a lease column). READ COMMITTED, so that rows the scan reads but the WHERE clause rejects
 * are unlocked at once instead of being held (and skipped by every other replica) until COMMIT.
 */
public final class Claims {

    private Claims() {
    }

    public static <T> Uni<T> inTransaction(Pool pool, Function<SqlConnection, Uni<T>> work) {
        return pool.withConnection(connection -> connection
                .query("SET TRANSACTION ISOLATION LEVEL READ COMMITTED").execute()
                .chain(() -> connection.begin())
                .chain(transaction -> work.apply(connection)
                        .call(() -> transaction.commit())
                        .onFailure().call(() -> transaction.rollback())));
    }

    /**
     * Leases claimed rows of {@code table} (its {@code id} and {@code next_attempt_at} columns) until {@code until}:
     * no replica claims them again before then, and a replica that dies holding them only delays them.
     */
    public static Uni<Void> leaseUntil(SqlConnection connection, String table, List<Long> ids, Instant until) {
        Sql.InList in = Sql.inList(ids);
        return connection.preparedQuery("UPDATE " + table + " SET next_attempt_at = ? WHERE id IN (" + in.placeholders()
                + ")")
                .execute(Tuple.from(Sql.withFirst(Sql.utc(until), in.values())))
                .replaceWithVoid();
    }
}
