package com.shop.orders.reconciliation;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import com.shop.orders.payment.alipay.AlipayChannel;
import com.shop.orders.payment.alipay.AlipayGateway;
import com.shop.orders.payment.PaymentConfirmation;
import com.shop.orders.payment.Trade;
import com.shop.orders.payment.alipay.TradeBillLink;
import com.shop.orders.payment.TradeQuery;
import com.shop.orders.refund.FoundRefunds;
import com.shop.orders.resilience.MutinyBridge;
import com.shop.orders.tracing.Spans;
import com.shop.orders.web.ProblemException;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.quarkus.runtime.Startup;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * Reconciles one day against Alipay's trade bill: downloads and parses it, matches it both ways with what this
 * service recorded ({@link BillMatcher}), stores each difference once, and settles what the payment paths can
 * settle. A payment Alipay has and this service does not record goes through the trade query and
 * {@link PaymentConfirmation}, exactly as a lost notify would (a pending order becomes PAID, a closed one's money is
 * refunded); everything else is flagged for people.
 *
 * <p>A run fails as a whole, changing nothing but what it had settled, when the bill is not published yet, cannot
 * be downloaded or used, or Alipay cannot be asked; it is tried again later ({@link ReconciliationStore#failed}).
 */
@ApplicationScoped
// Created at start, so that its meters exist (at zero) before the first run.
@Startup
public class Reconciliation {

    private static final Logger LOG = Logger.getLogger(Reconciliation.class);
    private static final AttributeKey<String> BILL_DATE = AttributeKey.stringKey("shop.reconciliation.bill_date");

    private final ReconciliationStore store;
    private final AlipayGateway alipay;
    private final FoundRefunds foundRefunds;
    private final TradeQuery tradeQuery;
    private final BillDownload download;
    private final ReconciliationConfig config;
    private final Spans spans;
    private final MeterRegistry registry;
    private final Clock clock;
    private final Map<DifferenceKind, AtomicLong> unsettled = new EnumMap<>(DifferenceKind.class);

    public Reconciliation(ReconciliationStore store, AlipayGateway alipay, TradeQuery tradeQuery, FoundRefunds foundRefunds,
            BillDownload download, ReconciliationConfig config, Spans spans, MeterRegistry registry, Clock clock) {
        this.store = store;
        this.foundRefunds = foundRefunds;
        this.alipay = alipay;
        this.tradeQuery = tradeQuery;
        this.download = download;
        this.config = config;
        this.spans = spans;
        this.registry = registry;
        this.clock = clock;
        for (DifferenceKind kind : DifferenceKind.values()) {
            AtomicLong count = new AtomicLong();
            unsettled.put(kind, count);
            Gauge.builder("reconciliation.differences.unsettled", count, AtomicLong::get)
                    .description("Differences with Alipay's bill that wait for someone, all dates")
                    .tag("kind", kind.name()).register(registry);
            registry.counter("reconciliation.differences.found", "kind", kind.name());
        }
        for (String outcome : List.of("done", "not_published", "unusable_bill", "failed")) {
            registry.counter("reconciliation.runs", "outcome", outcome);
        }
    }

    /** An admin's run of the date, now, whatever its state; 409 while another replica runs it. */
    public Uni<ReconciliationReport> runNow(LocalDate date) {
        return store.claim(date, clock.instant(), false)
                .chain(claimed -> {
                    if (!claimed) {
                        throw new ProblemException(409, "Reconciliation running", "The reconciliation of " + date
                                + " is running on another instance; its result will be shown here when it is done",
                                Map.of("billDate", date.toString()));
                    }
                    return reconcile(date);
                })
                .chain(() -> report(date));
    }

    /**
     * The job's pass: makes the dates whose bill is due (yesterday from {@code billsFrom}, and days back not
     * reconciled), then runs each date that is due and that no other replica has claimed.
     */
    Uni<Void> runDue() {
        Instant now = clock.instant();
        ZoneId zone = config.zone();
        LocalDate today = LocalDate.ofInstant(now, zone);
        List<Uni<Void>> dates = new ArrayList<>();
        for (LocalDate date = today.minusDays(config.daysBack()); date.isBefore(today); date = date.plusDays(1)) {
            Instant dueAt = date.plusDays(1).atTime(config.billsFrom()).atZone(zone).toInstant();
            if (!now.isBefore(dueAt)) {
                dates.add(store.ensure(date, dueAt));
            }
        }
        Uni<Void> made = dates.isEmpty() ? Uni.createFrom().voidItem() : Uni.join().all(dates).andFailFast().replaceWithVoid();
        return made.chain(() -> store.due(now))
                .chain(due -> Multi.createFrom().iterable(due)
                        .onItem().transformToUniAndConcatenate(date -> store.claim(date, clock.instant(), true)
                                .chain(claimed -> claimed ? reconcile(date) : Uni.createFrom().voidItem()))
                        .collect().last())
                .replaceWithVoid();
    }

    public Uni<ReconciliationReport> report(LocalDate date) {
        return store.run(date).chain(run -> run == null
                ? Uni.createFrom().nullItem()
                : store.ofDate(date).map(differences -> new ReconciliationReport(run, differences)));
    }

    public Uni<List<Difference>> open(int limit) {
        return store.open(limit);
    }

    /** An admin settles a flagged difference by hand; 404 when there is none, 409 when it is settled already. */
    public Uni<Difference> resolve(long id, String note) {
        return store.settle(id, Difference.Settlement.RESOLVED, note, clock.instant())
                .chain(resolved -> store.difference(id).map(difference -> {
                    if (difference == null) {
                        throw new ProblemException(404, "Difference not found", "No difference " + id);
                    }
                    if (!resolved) {
                        throw new ProblemException(409, "Difference settled already", "Difference " + id
                                + " was settled (" + difference.settlement() + ") at " + difference.settledAt(),
                                Map.of("settlement", difference.settlement()));
                    }
                    registry.counter("reconciliation.differences.settled", "settlement", "RESOLVED").increment();
                    return difference;
                }))
                .call(this::refreshGauges);
    }

    /** Reads the unsettled differences into the gauges (every replica exports the same, shared numbers). */
    Uni<Void> refreshGauges() {
        return store.unsettledByKind().invoke(counts -> counts.forEach((kind, n) -> unsettled.get(kind).set(n)))
                .replaceWithVoid();
    }

    /**
     * The claimed date's run, start to end, in a span of its own (a trace of its own when the job runs it); it records
     * its own outcome and never fails.
     */
    private Uni<Void> reconcile(LocalDate date) {
        Span span = spans.start("reconciliation", SpanKind.INTERNAL);
        span.setAttribute(BILL_DATE, date.toString());
        return spans.within(span, () -> reconcileInSpan(date));
    }

    private Uni<Void> reconcileInSpan(LocalDate date) {
        AtomicReference<TradeBill> read = new AtomicReference<>();
        return alipay.tradeBill(date)
                .chain(link -> fetch(link, date))
                .invoke(read::set)
                .chain(bill -> match(date, bill))
                .chain(() -> settlePaidNotRecorded(date))
                .chain(() -> settleRefundsNotRecorded(date))
                .chain(() -> store.done(date, read.get(), clock.instant()))
                .invoke(() -> {
                    registry.counter("reconciliation.runs", "outcome", "done").increment();
                    LOG.infof("Reconciled %s against Alipay's bill: %d payments, %d refunds", date,
                            read.get().payments(), read.get().refunds());
                })
                .onFailure().recoverWithUni(failure -> failed(date, failure))
                .call(this::refreshGauges);
    }

    private Uni<TradeBill> fetch(TradeBillLink link, LocalDate date) {
        if (!link.published()) {
            return Uni.createFrom().failure(new BillNotPublishedException(date));
        }
        return download.fetch(link.url(), date);
    }

    private Uni<Void> failed(LocalDate date, Throwable failure) {
        String outcome = failure instanceof BillNotPublishedException ? "not_published"
                : failure instanceof UnusableBillException ? "unusable_bill" : "failed";
        String reason = failure instanceof ProblemException || failure instanceof UnusableBillException
                || failure instanceof BillNotPublishedException || failure instanceof BillDownload.BillNotDownloadedException
                        ? failure.getMessage() : failure.toString();
        registry.counter("reconciliation.runs", "outcome", outcome).increment();
        if (failure instanceof UnusableBillException) {
            LOG.errorf("The trade bill of %s is unusable, tried again later: %s", date, reason);
        } else {
            LOG.warnf("Reconciliation of %s failed, tried again later: %s", date, reason);
        }
        return store.failed(date, reason, clock.instant());
    }

    /** Matches, asks Alipay about the day's payments the bill lacks, then stores what is new. */
    private Uni<Void> match(LocalDate date, TradeBill bill) {
        ZoneId zone = config.zone();
        Instant start = date.atStartOfDay(zone).toInstant();
        Instant end = date.plusDays(1).atStartOfDay(zone).toInstant();
        return store.recordedBetween(start, end).chain(ofTheDay -> {
            Set<String> orderNos = new LinkedHashSet<>();
            bill.entries().forEach(entry -> orderNos.add(entry.outTradeNo()));
            ofTheDay.forEach(recorded -> orderNos.add(recorded.orderNo()));
            return store.recorded(orderNos).map(byOrderNo -> BillMatcher.match(bill, byOrderNo, ofTheDay, zone));
        }).chain(result -> missingFromBill(result.missingFromBill(), date)
                .map(missing -> {
                    List<FoundDifference> all = new ArrayList<>(result.differences());
                    all.addAll(missing);
                    return all;
                }))
                .chain(found -> Multi.createFrom().iterable(found)
                        .onItem().transformToUniAndConcatenate(difference -> store.add(date, difference, clock.instant())
                                .invoke(added -> {
                                    if (added) {
                                        registry.counter("reconciliation.differences.found", "kind",
                                                difference.kind().name()).increment();
                                        LOG.warnf("Reconciliation of %s: %s %s: %s", date, difference.kind(),
                                                difference.outTradeNo(), difference.detail());
                                    }
                                }))
                        .collect().last())
                .replaceWithVoid();
    }

    /**
     * A payment recorded on the day that the bill lacks: Alipay is asked. Completed at Alipay on another day (a
     * notify that arrived after midnight), it belongs to that day's bill; otherwise it is flagged with the answer.
     */
    private Uni<List<FoundDifference>> missingFromBill(List<RecordedPayment> candidates, LocalDate date) {
        return Multi.createFrom().iterable(candidates)
                .onItem().transformToUniAndConcatenate(recorded -> alipay.query(recorded.orderNo())
                        .map(trade -> paidOnAnotherDay(trade, date) ? null : new FoundDifference(
                                DifferenceKind.MISSING_FROM_BILL, recorded.orderNo(), "payment", recorded.orderId(),
                                recorded.tradeNo(), null, recorded.paidAmount(), "recorded paid at "
                                        + recorded.moneyInAt() + ", not in the bill; Alipay's query answers "
                                        + trade.walletStatus() + (trade.paidAt() == null ? "" : ", paid at " + trade.paidAt()))))
                .filter(found -> found != null)
                .collect().asList();
    }

    private boolean paidOnAnotherDay(Trade trade, LocalDate date) {
        return trade.isPaid() && trade.paidAt() != null && !BillMatcher.on(trade.paidAt(), date, config.zone());
    }

    /** Payments Alipay has and this service did not record, one at a time through the payment paths. */
    private Uni<Void> settlePaidNotRecorded(LocalDate date) {
        return store.unsettled(date, DifferenceKind.PAID_NOT_RECORDED)
                .chain(differences -> Multi.createFrom().iterable(differences)
                        .onItem().transformToUniAndConcatenate(this::settle)
                        .collect().last())
                .replaceWithVoid();
    }

    private Uni<Void> settle(Difference difference) {
        return MutinyBridge.onOwnContext(() -> tradeQuery.confirmIfPaid(AlipayChannel.NAME, difference.outTradeNo()))
                .chain(confirmed -> {
                    if (confirmed.recordedPaid()) {
                        return settled(difference, Difference.Settlement.CONFIRMED_PAID,
                                "confirmed by Alipay's trade query: the order is PAID (" + confirmed.outcome() + ")");
                    }
                    if (confirmed.outcome() == PaymentConfirmation.Outcome.REFUNDED) {
                        return settled(difference, Difference.Settlement.REFUNDED,
                                "the order had been closed: the payment was refunded");
                    }
                    String note = confirmed.outcome() == null
                            ? "Alipay's trade query answers " + confirmed.trade().walletStatus() + ": the payment is not confirmed"
                            : "the payment paths did not accept it: " + confirmed.outcome();
                    LOG.warnf("Reconciliation of %s: %s stays flagged: %s", difference.billDate(),
                            difference.outTradeNo(), note);
                    return store.note(difference.id(), note);
                });
    }

    /** Refunds Alipay's bill has and this service did not record as made: the refund query decides. */
    private Uni<Void> settleRefundsNotRecorded(LocalDate date) {
        return store.unsettled(date, DifferenceKind.REFUND_NOT_RECORDED)
                .chain(differences -> Multi.createFrom().iterable(differences)
                        .onItem().transformToUniAndConcatenate(difference -> MutinyBridge.onOwnContext(
                                () -> foundRefunds.settle(difference.outTradeNo(),
                                        BillMatcher.requestNoOf(difference.entryKey()), difference.billAmount()))
                                .chain(recorded -> recorded
                                        ? settled(difference, Difference.Settlement.REFUND_RECORDED,
                                                "confirmed by Alipay's refund query: recorded as made")
                                        : store.note(difference.id(), "Alipay's refund query does not confirm it, or "
                                                + "it cannot be recorded here: left to people")))
                        .collect().last())
                .replaceWithVoid();
    }

    private Uni<Void> settled(Difference difference, Difference.Settlement settlement, String note) {
        return store.settle(difference.id(), settlement, note, clock.instant()).invoke(settledNow -> {
            if (settledNow) {
                registry.counter("reconciliation.differences.settled", "settlement", settlement.name()).increment();
                LOG.infof("Reconciliation of %s: %s settled, %s", difference.billDate(), difference.outTradeNo(), note);
            }
        }).replaceWithVoid();
    }

    /** Alipay has not made the day's bill yet. */
    static class BillNotPublishedException extends RuntimeException {

        BillNotPublishedException(LocalDate date) {
            super("Alipay has not published the trade bill of " + date + " yet", null, false, false);
        }
    }
}
