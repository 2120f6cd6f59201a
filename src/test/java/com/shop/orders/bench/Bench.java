package com.shop.orders.bench;

import java.nio.file.Path;

import com.shop.orders.harness.ServiceProcess;
import com.shop.orders.harness.ServiceStack;

/** What every phase works with: the stack and its one service, the load generators, the database's view, the results. */
record Bench(BenchSize size, ServiceStack stack, ServiceProcess service, Path runDir, Path tokens, Catalog catalog,
             OrderFacts facts, Wrk wrk, Gatling gatling, PlacementLimit limit, BrokerAdmin broker, Results results,
             RssSampler rss) {

    /**
     * The same run on a phase's own stack, its service {@code service}: that stack's members' tokens (under
     * {@code dir}), catalog and database; the load generators, the results and the RSS sampling as they are.
     */
    Bench on(ServiceStack other, ServiceProcess otherService, Path dir) {
        Path otherTokens = Tokens.write(other.tokens(), size.members(), dir.resolve("tokens.csv"));
        return new Bench(size, other, otherService, dir, otherTokens, new Catalog(other), new OrderFacts(other),
                wrk.with(otherTokens, otherService.apiUrl()), gatling, limit, broker, results, rss);
    }
}
