package com.shop.orders.sql;

import java.net.ConnectException;
import java.util.Set;

import io.vertx.mysqlclient.MySQLException;
import io.vertx.sqlclient.ClosedConnectionException;

/**
 * Recognises a failure that only says the database cannot be reached right now (refused or lost connection,
 * server shutting down), however deeply Hibernate Reactive or the SQL client wrapped it. Clients get 503 with
 * Retry-After for it, not 500: it is an outage, not a defect, and the same request works once the database is back.
 */
public final class DatabaseUnavailable {

    /** ER_SERVER_SHUTDOWN, ER_CONNECTION_KILLED (MariaDB), ER_CON_COUNT_ERROR. */
    private static final Set<Integer> UNAVAILABLE_CODES = Set.of(1053, 1927, 1040);

    private DatabaseUnavailable() {
    }

    public static boolean isCause(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ClosedConnectionException || t instanceof ConnectException) {
                return true;
            }
            if (t instanceof MySQLException e && UNAVAILABLE_CODES.contains(e.getErrorCode())) {
                return true;
            }
        }
        return false;
    }
}
