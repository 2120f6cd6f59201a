package com.shop.orders.health;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Named;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.jboss.logging.Logger;

import com.shop.orders.resilience.Bulkhead;
import com.shop.orders.resilience.Causes;
import com.shop.orders.rocketmq.RocketMqClients;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.health.api.HealthGroup;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;

/**
 * Probes the service's dependencies every few seconds, as the service itself reaches them (its users, its TLS), and
 * says why one is down: unreachable, its certificate not trusted, the service's credentials refused. Each change is
 * one log line naming the dependency and the cause, never a secret; {@code shop_dependency_up} is the gauge.
 *
 * <p>Redis and the RocketMQ broker are optional at run time: without them the service still takes orders, answers
 * notifies and closes expired orders (check-backs need no Redis, the sweep covers orders without an expiry message),
 * only degraded. So they are not part of readiness (which is the database: "can serve the API", Quarkus's own
 * checks); they are reported in the health group {@code dependencies}, and the service recovers by itself when they
 * return.
 */
@ApplicationScoped
@HealthGroup("dependencies")
public class DependencyMonitor implements HealthCheck {

    private static final Logger LOG = Logger.getLogger(DependencyMonitor.class);
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);
    private static final List<String> DEPENDENCIES = List.of("database", "redis", "rocketmq");
    private static final List<String> OPTIONAL = List.of("redis", "rocketmq");

    private final Pool database;
    private final ReactiveRedisDataSource redis;
    private final RocketMqClients rocketMq;
    private final Bulkhead sends;
    /** Why each dependency that is down is down; absent while it is up (all are presumed up until probed). */
    private final Map<String, String> down = new ConcurrentHashMap<>();

    public DependencyMonitor(Pool database, ReactiveRedisDataSource redis, RocketMqClients rocketMq,
            @Named("rocketmq") Bulkhead sends, MeterRegistry registry) {
        this.database = database;
        this.redis = redis;
        this.rocketMq = rocketMq;
        this.sends = sends;
        DEPENDENCIES.forEach(name -> Gauge.builder("shop.dependency.up", down, d -> d.containsKey(name) ? 0 : 1)
                .tag("dependency", name)
                .description("1 while the service can use a dependency, 0 while it is unreachable or refuses the service")
                .register(registry));
    }

    @Scheduled(identity = "dependency-probe", every = "5s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> probe() {
        Uni<Optional<String>> databaseDown = database.query("SELECT 1").execute().map(rows -> Optional.empty());
        Uni<Optional<String>> redisDown = redis.execute("PING").map(pong -> Optional.empty());
        // The broker's probe may (re)connect, which blocks: on the RocketMQ threads, never Alipay's.
        Uni<Optional<String>> rocketMqDown = sends.call(() -> Optional.ofNullable(rocketMq.unusableBecause()));
        return Uni.combine().all()
                .unis(record("database", databaseDown), record("redis", redisDown), record("rocketmq", rocketMqDown))
                .discardItems();
    }

    public boolean isUp(String dependency) {
        return !down.containsKey(dependency);
    }

    @Override
    public HealthCheckResponse call() {
        HealthCheckResponseBuilder response = HealthCheckResponse.named("optional dependencies")
                .status(OPTIONAL.stream().allMatch(this::isUp));
        OPTIONAL.forEach(name -> response.withData(name, Optional.ofNullable(down.get(name))
                .map(cause -> "DOWN (degraded): " + cause).orElse("UP")));
        return response.build();
    }

    /** Records the probe's outcome: empty when usable, else why not (a failure's message is the cause). */
    private Uni<Void> record(String dependency, Uni<Optional<String>> probe) {
        return probe.ifNoItem().after(PROBE_TIMEOUT).failWith(() -> new ProbeTimeout(PROBE_TIMEOUT))
                .onFailure().recoverWithItem(failure -> Optional.of(Causes.of(failure)))
                .invoke(cause -> {
                    String before = cause.isPresent() ? down.put(dependency, cause.get()) : down.remove(dependency);
                    if (cause.isEmpty() && before != null) {
                        LOG.infof("%s is usable again", dependency);
                    } else if (cause.isPresent() && !cause.get().equals(before)) {
                        LOG.warnf("%s is not usable: %s%s", dependency, cause.get(),
                                OPTIONAL.contains(dependency) ? " (running degraded)" : " (not ready)");
                    }
                })
                .replaceWithVoid();
    }

    private static final class ProbeTimeout extends RuntimeException {

        ProbeTimeout(Duration after) {
            super("no answer within " + after.toSeconds() + " s", null, false, false);
        }
    }
}
