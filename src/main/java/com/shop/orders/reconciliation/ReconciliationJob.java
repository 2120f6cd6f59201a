package com.shop.orders.reconciliation;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;

/**
 * Each replica looks for due dates now and then; the claim in {@link ReconciliationStore} lets one of them run each.
 * The gauges of unsettled differences are refreshed on every pass, on every replica.
 */
@ApplicationScoped
public class ReconciliationJob {

    private static final Logger LOG = Logger.getLogger(ReconciliationJob.class);

    private final Reconciliation reconciliation;
    private final ReconciliationConfig config;

    public ReconciliationJob(Reconciliation reconciliation, ReconciliationConfig config) {
        this.reconciliation = reconciliation;
        this.config = config;
    }

    // The first pass a few seconds after start, not during it: a replica's catch-up then competes with nothing.
    @Scheduled(identity = "reconciliation", every = "${shop.reconciliation.check-every}", delayed = "10s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> scheduled() {
        Uni<Void> pass = config.scheduled() ? reconciliation.runDue() : Uni.createFrom().voidItem();
        return pass.chain(reconciliation::refreshGauges)
                .onFailure().invoke(e -> LOG.warnf("Reconciliation pass failed: %s", e.toString()))
                .onFailure().recoverWithNull()
                .replaceWithVoid();
    }
}
