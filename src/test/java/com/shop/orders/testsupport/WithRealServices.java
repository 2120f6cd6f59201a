package com.shop.orders.testsupport;

import io.quarkus.test.common.QuarkusTestResource;

/**
 * Registers the suite's own RocketMQ name server and broker and its own Redis for every @QuarkusTest
 * (MariaDB is the machine's, with a database of the suite's own: orders_test).
 */
@QuarkusTestResource(RocketMqTestResource.class)
@QuarkusTestResource(RedisTestResource.class)
public final class WithRealServices {

    private WithRealServices() {
    }
}
