package com.shop.orders.sql;

import java.util.function.Function;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;

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
}
