package com.shop.orders.rocketmq;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import org.apache.rocketmq.logging.org.slf4j.ILoggerFactory;
import org.apache.rocketmq.logging.org.slf4j.IMarkerFactory;
import org.apache.rocketmq.logging.org.slf4j.Marker;
import org.apache.rocketmq.logging.org.slf4j.event.Level;
import org.apache.rocketmq.logging.org.slf4j.helpers.BasicMarkerFactory;
import org.apache.rocketmq.logging.org.slf4j.helpers.LegacyAbstractLogger;
import org.apache.rocketmq.logging.org.slf4j.helpers.MessageFormatter;
import org.apache.rocketmq.logging.org.slf4j.helpers.NOPMDCAdapter;
import org.apache.rocketmq.logging.org.slf4j.spi.MDCAdapter;
import org.apache.rocketmq.logging.org.slf4j.spi.SLF4JServiceProvider;
import org.jboss.logging.Logger;

/**
 * The RocketMQ client's log goes to the service's own log (JBoss Logging), under its own logger names (mostly its
 * class names, a few old categories such as {@code RocketmqRemoting}), set like any other with
 * {@code quarkus.log.category}.
 *
 * <p>The client logs through a shaded SLF4J that finds its backend with the {@link java.util.ServiceLoader}
 * (registered in {@code META-INF/services}). Its own backend, a shaded logback, is excluded from the build: it
 * writes files under {@code ~/logs/rocketmqlogs} and opens them in static initializers, which a native image
 * cannot hold (a file descriptor in the image heap), and a read-only container file system cannot take.
 */
public final class RocketMqLogging implements SLF4JServiceProvider {

    private final ConcurrentMap<String, JBossLogger> loggers = new ConcurrentHashMap<>();
    private final ILoggerFactory loggerFactory = name -> loggers.computeIfAbsent(name, JBossLogger::new);
    private final IMarkerFactory markerFactory = new BasicMarkerFactory();
    private final MDCAdapter mdcAdapter = new NOPMDCAdapter();

    @Override
    public ILoggerFactory getLoggerFactory() {
        return loggerFactory;
    }

    @Override
    public IMarkerFactory getMarkerFactory() {
        return markerFactory;
    }

    @Override
    public MDCAdapter getMDCAdapter() {
        return mdcAdapter;
    }

    @Override
    public String getRequestedApiVersion() {
        return "2.0.99";
    }

    @Override
    public void initialize() {
        // Loggers are made on first use.
    }

    /** One SLF4J logger of the client, written to the JBoss logger of the same name. */
    static final class JBossLogger extends LegacyAbstractLogger {

        private static final long serialVersionUID = 1L;
        private final transient Logger delegate;

        JBossLogger(String name) {
            this.name = name;
            this.delegate = Logger.getLogger(name);
        }

        @Override
        public boolean isTraceEnabled() {
            return delegate.isEnabled(Logger.Level.TRACE);
        }

        @Override
        public boolean isDebugEnabled() {
            return delegate.isEnabled(Logger.Level.DEBUG);
        }

        @Override
        public boolean isInfoEnabled() {
            return delegate.isEnabled(Logger.Level.INFO);
        }

        @Override
        public boolean isWarnEnabled() {
            return delegate.isEnabled(Logger.Level.WARN);
        }

        @Override
        public boolean isErrorEnabled() {
            return delegate.isEnabled(Logger.Level.ERROR);
        }

        @Override
        protected String getFullyQualifiedCallerName() {
            return null;
        }

        @Override
        protected void handleNormalizedLoggingCall(Level level, Marker marker, String pattern, Object[] arguments,
                Throwable throwable) {
            delegate.log(jbossLevel(level), MessageFormatter.basicArrayFormat(pattern, arguments), throwable);
        }

        private static Logger.Level jbossLevel(Level level) {
            return switch (level) {
                case ERROR -> Logger.Level.ERROR;
                case WARN -> Logger.Level.WARN;
                case INFO -> Logger.Level.INFO;
                case DEBUG -> Logger.Level.DEBUG;
                case TRACE -> Logger.Level.TRACE;
            };
        }
    }
}
