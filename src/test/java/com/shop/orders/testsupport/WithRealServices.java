package com.shop.orders.testsupport;

import io.quarkus.test.common.QuarkusTestResource;

/**
 * Registers the real RocketMQ name server and broker for every @QuarkusTest in the suite
 * (MariaDB and Redis are started by .ci/services.sh).
 */
@QuarkusTestResource(RocketMqTestResource.class)
public final class WithRealServices {

    private WithRealServices() {
    }
}
