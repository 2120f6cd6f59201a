package com.shop.orders.testsupport;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Collects what the application logs at ERROR, or with a stack trace, while installed. A {@code @QuarkusTest}
 * runs the application in the test's JVM, whose JBoss log manager serves java.util.logging handlers too.
 */
public final class LogCapture extends Handler implements AutoCloseable {

    private final List<String> problems = new CopyOnWriteArrayList<>();

    private LogCapture() {
    }

    public static LogCapture install() {
        LogCapture capture = new LogCapture();
        Logger.getLogger("").addHandler(capture);
        return capture;
    }

    /** Lines logged at ERROR or with a throwable attached, since installation or the last {@link #clear()}. */
    public List<String> problems() {
        return List.copyOf(problems);
    }

    public void clear() {
        problems.clear();
    }

    @Override
    public void publish(LogRecord record) {
        if (record.getThrown() != null || record.getLevel().intValue() >= Level.SEVERE.intValue()) {
            problems.add(record.getLevel() + " " + record.getLoggerName() + ": " + record.getMessage()
                    + (record.getThrown() == null ? "" : " [" + record.getThrown() + "]"));
        }
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        Logger.getLogger("").removeHandler(this);
    }
}
