package com.shop.orders.health;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Named;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.jboss.logging.Logger;

import com.shop.orders.resilience.Bulkhead;
import com.shop.orders.rocketmq.RocketMqClients;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.health.api.HealthGroup;
import io.smallrye.mutiny.Uni;

/**
 * Redis and the RocketMQ name server are optional at run time: without them the service still takes
 * orders, answers notifies and closes expired orders (check-backs need no Redis, the sweep covers orders
 * without an expiry message), only degraded. So they are not part of readiness (which is the database:
 * "can serve the API"); they are probed here every few seconds, reported in the health group
 * {@code dependencies} and as {@code shop_dependency_up}, and the service recovers by itself when they
 * return.
 */
@ApplicationScoped
@HealthGroup("dependencies")
public class DependencyMonitor implements HealthCheck {

    private static final Logger LOG = Logger.getLogger(DependencyMonitor.class);
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);

    private final ReactiveRedisDataSource redis;
    private final RocketMqClients rocketMq;
    private final Bulkhead sends;
    private final Map<String, Boolean> up = new ConcurrentHashMap<>(Map.of("redis", true, "rocketmq", true));

    public DependencyMonitor(ReactiveRedisDataSource redis, RocketMqClients rocketMq, @Named("rocketmq") Bulkhead sends,
            MeterRegistry registry) {
        this.redis = redis;
        this.rocketMq = rocketMq;
        this.sends = sends;
        up.keySet().forEach(name -> Gauge.builder("shop.dependency.up", up, u -> u.get(name) ? 1 : 0)
                .tag("dependency", name)
                .description("1 while an optional dependency is reachable, 0 while the service runs degraded")
                .register(registry));
    }

    @Scheduled(identity = "dependency-probe", every = "5s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> probe() {
        Uni<Boolean> redisUp = redis.execute("PING").map(pong -> true);
        // Probing the name server may (re)connect, which blocks: on the RocketMQ threads, never Alipay's.
        Uni<Boolean> rocketMqUp = sends.call(rocketMq::reachNameServer);
        return Uni.combine().all().unis(record("redis", redisUp), record("rocketmq", rocketMqUp)).discardItems();
    }

    public boolean isUp(String dependency) {
        return up.getOrDefault(dependency, false);
    }

    @Override
    public HealthCheckResponse call() {
        HealthCheckResponseBuilder response = HealthCheckResponse.named("optional dependencies")
                .status(up.values().stream().allMatch(Boolean::booleanValue));
        up.forEach((name, reachable) -> response.withData(name, reachable ? "UP" : "DOWN (degraded)"));
        return response.build();
    }

    private Uni<Void> record(String dependency, Uni<Boolean> check) {
        return check.ifNoItem().after(PROBE_TIMEOUT).fail()
                .onFailure().recoverWithItem(false)
                .invoke(reachable -> {
                    Boolean before = up.put(dependency, reachable);
                    if (before != null && before != reachable) {
                        if (reachable) {
                            LOG.infof("%s is reachable again", dependency);
                        } else {
                            LOG.warnf("%s is unreachable: running degraded", dependency);
                        }
                    }
                })
                .replaceWithVoid();
    }
}
