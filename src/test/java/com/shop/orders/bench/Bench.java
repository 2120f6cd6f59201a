package com.shop.orders.bench;

import java.nio.file.Path;

import com.shop.orders.harness.ServiceProcess;
import com.shop.orders.harness.ServiceStack;

/** What every phase works with: the stack and its one service, the load generators, the database's view, the results. */
record Bench(BenchSize size, ServiceStack stack, ServiceProcess service, Path runDir, Path tokens, Catalog catalog,
             OrderFacts facts, Wrk wrk, Gatling gatling, PlacementLimit limit, BrokerAdmin broker, Results results,
             RssSampler rss) {
}
