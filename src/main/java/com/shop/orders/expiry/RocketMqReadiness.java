package com.shop.orders.expiry;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

import com.shop.orders.common.MutinyBridge;

import io.smallrye.health.api.AsyncHealthCheck;
import io.smallrye.mutiny.Uni;

/** Ready only while the timeout producer and consumer both reach a name server. */
@Readiness
@ApplicationScoped
public class RocketMqReadiness implements AsyncHealthCheck {

    private final TimeoutWatch watch;
    private final TimeoutConsumer consumer;

    public RocketMqReadiness(TimeoutWatch watch, TimeoutConsumer consumer) {
        this.watch = watch;
        this.consumer = consumer;
    }

    @Override
    public Uni<HealthCheckResponse> call() {
        // Probing may (re)connect, which blocks.
        return MutinyBridge.blocking(() -> {
            boolean producer = watch.isNameServerReachable();
            boolean consuming = consumer.isNameServerReachable();
            return HealthCheckResponse.named("rocketmq")
                    .status(producer && consuming)
                    .withData("producer", producer)
                    .withData("consumer", consuming)
                    .build();
        });
    }
}
