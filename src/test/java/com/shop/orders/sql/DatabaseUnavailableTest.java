package com.shop.orders.sql;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ConnectException;
import java.util.concurrent.CompletionException;

import org.junit.jupiter.api.Test;

import io.vertx.mysqlclient.MySQLException;
import io.vertx.sqlclient.ClosedConnectionException;

/** Which failures mean "the database is down right now" (503 with Retry-After) rather than a defect (500). */
class DatabaseUnavailableTest {

    @Test
    void aLostOrRefusedConnectionOrAServerShuttingDownIsAnOutageHoweverWrapped() {
        assertTrue(DatabaseUnavailable.isCause(new CompletionException(
                new org.hibernate.HibernateException("wrapped", ClosedConnectionException.INSTANCE))));
        assertTrue(DatabaseUnavailable.isCause(new IllegalStateException(new ConnectException("Connection refused"))));
        assertTrue(DatabaseUnavailable.isCause(new MySQLException("Server shutdown in progress", 1053, "08S01")));
    }

    @Test
    void otherDatabaseErrorsAreNot() {
        assertFalse(DatabaseUnavailable.isCause(new MySQLException("Duplicate entry", 1062, "23000")));
        assertFalse(DatabaseUnavailable.isCause(new IllegalStateException("bug")));
    }
}
