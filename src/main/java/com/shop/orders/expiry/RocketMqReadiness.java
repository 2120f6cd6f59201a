package com.shop.orders.expiry;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** Ready only while the timeout producer and consumer both reach a name server. */
@Readiness
@ApplicationScoped
public class RocketMqReadiness implements HealthCheck {

    private final TimeoutWatch watch;
    private final TimeoutConsumer consumer;

    public RocketMqReadiness(TimeoutWatch watch, TimeoutConsumer consumer) {
        this.watch = watch;
        this.consumer = consumer;
    }

    @Override
    public HealthCheckResponse call() {
        boolean producer = watch.isConnected();
        boolean consuming = consumer.isConnected();
        return HealthCheckResponse.named("rocketmq")
                .status(producer && consuming)
                .withData("producer", producer)
                .withData("consumer", consuming)
                .build();
    }
}
