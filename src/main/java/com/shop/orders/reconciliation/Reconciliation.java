package com.shop.orders.reconciliation;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;

import org.jboss.logging.Logger;

import com.shop.orders.payment.BillLimits;
import com.shop.orders.payment.BillNotDownloadedException;
import com.shop.orders.payment.BillNotPublishedException;
import com.shop.orders.payment.ChannelBills;
import com.shop.orders.payment.PaymentChannel;
import com.shop.orders.payment.PaymentChannels;
import com.shop.orders.payment.PaymentConfirmation;
import com.shop.orders.payment.Trade;
import com.shop.orders.payment.TradeBill;
import com.shop.orders.payment.TradeQuery;
import com.shop.orders.payment.UnusableBillException;
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
 * Reconciles one day against one channel's trade bill ({@link ChannelBills}, implemented by each wallet's package):
 * matches it both ways with what this service recorded of the channel's trades ({@link BillMatcher}), stores each
 * difference once, and settles what the payment paths can settle. A payment the wallet has and this service does not
 * record goes through the trade query and {@link PaymentConfirmation}, exactly as a lost notify would (a pending order
 * becomes PAID, a closed one's money is refunded); a refund the wallet made that this service did not (one made in
 * the merchant console) is recorded once the wallet's refund query confirms it ({@link FoundRefunds}); everything
 * else is flagged for people.
 *
 * <p>A run fails as a whole, changing nothing but what it had settled, when the bill is not published yet, cannot
 * be downloaded or used, or the wallet cannot be asked; it is tried again later ({@link ReconciliationStore#failed}).
 */
@ApplicationScoped
// Created at start, so that its meters exist (at zero) before the first run.
@Startup
public class Reconciliation {

    private static final Logger LOG = Logger.getLogger(Reconciliation.class);
    private static final AttributeKey<String> BILL_DATE = AttributeKey.stringKey("shop.reconciliation.bill_date");
    private static final AttributeKey<String> CHANNEL = AttributeKey.stringKey("shop.reconciliation.channel");

    private final ReconciliationStore store;
    private final PaymentChannels channels;
    /** The configured channels' bills, by channel, in the configured order. */
    private final Map<String, ChannelBills> bills = new LinkedHashMap<>();
    private final FoundRefunds foundRefunds;
    private final TradeQuery tradeQuery;
    private final ReconciliationConfig config;
    private final Spans spans;
    private final MeterRegistry registry;
    private final Clock clock;
    /** The gauges' numbers, by channel and kind. */
    private final Map<String, Map<DifferenceKind, AtomicLong>> unsettled = new LinkedHashMap<>();

    public Reconciliation(ReconciliationStore store, PaymentChannels channels, @Any Instance<ChannelBills> known,
            TradeQuery tradeQuery, FoundRefunds foundRefunds, ReconciliationConfig config, Spans spans,
            MeterRegistry registry, Clock clock) {
        this.store = store;
        this.channels = channels;
        this.foundRefunds = foundRefunds;
        this.tradeQuery = tradeQuery;
        for (String channel : channels.offered()) {
            ChannelBills source = known.stream().filter(b -> b.channel().equals(channel)).findFirst()
                    .orElseThrow(() -> new IllegalStateException("No trade bill for the channel " + channel));
            bills.put(channel, source);
        }
        this.config = config;
        this.spans = spans;
        this.registry = registry;
        this.clock = clock;
        // Every meter by channel: one wallet's bill late or disagreeing says nothing of the other's.
        for (String channel : bills.keySet()) {
            Map<DifferenceKind, AtomicLong> counts = new EnumMap<>(DifferenceKind.class);
            unsettled.put(channel, counts);
            for (DifferenceKind kind : DifferenceKind.values()) {
                AtomicLong count = new AtomicLong();
                counts.put(kind, count);
                Gauge.builder("reconciliation.differences.unsettled", count, AtomicLong::get)
                        .description("Differences with the channel's bill that wait for someone, all dates")
                        .tags("channel", channel, "kind", kind.name()).register(registry);
                registry.counter("reconciliation.differences.found", "channel", channel, "kind", kind.name());
            }
            for (String outcome : List.of("done", "not_published", "unusable_bill", "failed")) {
                registry.counter("reconciliation.runs", "channel", channel, "outcome", outcome);
            }
        }
    }

    /** The channels reconciled: those configured (shop.payment.channels), in that order. */
    public List<String> channels() {
        return List.copyOf(bills.keySet());
    }

    /**
     * An admin's run of the date against the channel's bill, now, whatever its state; 409 while another replica runs
     * it.
     */
    public Uni<ReconciliationReport> runNow(LocalDate date, String channel) {
        ReconciliationStore.Day day = new ReconciliationStore.Day(date, channel);
        return store.claim(day, clock.instant(), false)
                .chain(claimed -> {
                    if (!claimed) {
                        throw new ProblemException(409, "Reconciliation running", "The reconciliation of " + day
                                + " is running on another instance; its result will be shown here when it is done",
                                Map.of("billDate", date.toString(), "channel", channel));
                    }
                    return reconcile(day);
                })
                .chain(() -> report(date, channel));
    }

    /**
     * The job's pass: makes the runs whose bill is due (yesterday's of every channel from {@code billsFrom}, and days
     * back not reconciled), then runs each that is due and that no other replica has claimed.
     */
    Uni<Void> runDue() {
        Instant now = clock.instant();
        ZoneId zone = config.zone();
        LocalDate today = LocalDate.ofInstant(now, zone);
        List<Uni<Void>> dates = new ArrayList<>();
        for (LocalDate date = today.minusDays(config.daysBack()); date.isBefore(today); date = date.plusDays(1)) {
            Instant dueAt = date.plusDays(1).atTime(config.billsFrom()).atZone(zone).toInstant();
            if (!now.isBefore(dueAt)) {
                for (String channel : bills.keySet()) {
                    dates.add(store.ensure(new ReconciliationStore.Day(date, channel), dueAt));
                }
            }
        }
        Uni<Void> made = dates.isEmpty() ? Uni.createFrom().voidItem() : Uni.join().all(dates).andFailFast().replaceWithVoid();
        return made.chain(() -> store.due(now, bills.keySet()))
                .chain(due -> Multi.createFrom().iterable(due)
                        .onItem().transformToUniAndConcatenate(day -> store.claim(day, clock.instant(), true)
                                .chain(claimed -> claimed ? reconcile(day) : Uni.createFrom().voidItem()))
                        .collect().last())
                .replaceWithVoid();
    }

    public Uni<ReconciliationReport> report(LocalDate date, String channel) {
        ReconciliationStore.Day day = new ReconciliationStore.Day(date, channel);
        return store.run(day).chain(run -> run == null
                ? Uni.createFrom().nullItem()
                : store.ofDay(day).map(differences -> new ReconciliationReport(run, differences)));
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
                    registry.counter("reconciliation.differences.settled", "channel", difference.channel(),
                            "settlement", "RESOLVED").increment();
                    return difference;
                }))
                .call(this::refreshGauges);
    }

    /** Reads the unsettled differences into the gauges (every replica exports the same, shared numbers). */
    Uni<Void> refreshGauges() {
        return store.unsettledByChannelAndKind().invoke(counts -> unsettled.forEach((channel, gauges) -> gauges
                .forEach((kind, gauge) -> gauge.set(counts.getOrDefault(channel, Map.of()).getOrDefault(kind, 0L)))))
                .replaceWithVoid();
    }

    /**
     * The claimed run, start to end, in a span of its own (a trace of its own when the job runs it); it records its
     * own outcome and never fails.
     */
    private Uni<Void> reconcile(ReconciliationStore.Day day) {
        Span span = spans.start("reconciliation", SpanKind.INTERNAL);
        span.setAttribute(BILL_DATE, day.date().toString());
        span.setAttribute(CHANNEL, day.channel());
        return spans.within(span, () -> reconcileInSpan(day));
    }

    private Uni<Void> reconcileInSpan(ReconciliationStore.Day day) {
        AtomicReference<TradeBill> read = new AtomicReference<>();
        BillLimits limits = new BillLimits(config.zone(), config.downloadTimeout(), config.maxBillSize().asLongValue());
        return bills.get(day.channel()).of(day.date(), limits)
                .invoke(read::set)
                .chain(bill -> match(day, bill))
                .chain(() -> settlePaidNotRecorded(day))
                .chain(() -> settleRefundsNotRecorded(day))
                .chain(() -> store.done(day, read.get(), clock.instant()))
                .invoke(() -> {
                    registry.counter("reconciliation.runs", "channel", day.channel(), "outcome", "done").increment();
                    LOG.infof("Reconciled %s against the channel's bill: %d payments, %d refunds", day,
                            read.get().payments(), read.get().refunds());
                })
                .onFailure().recoverWithUni(failure -> failed(day, failure))
                .call(this::refreshGauges);
    }

    private Uni<Void> failed(ReconciliationStore.Day day, Throwable failure) {
        String outcome = failure instanceof BillNotPublishedException ? "not_published"
                : failure instanceof UnusableBillException ? "unusable_bill" : "failed";
        String reason = failure instanceof ProblemException || failure instanceof UnusableBillException
                || failure instanceof BillNotPublishedException || failure instanceof BillNotDownloadedException
                        ? failure.getMessage() : failure.toString();
        registry.counter("reconciliation.runs", "channel", day.channel(), "outcome", outcome).increment();
        if (failure instanceof UnusableBillException) {
            LOG.errorf("The trade bill of %s is unusable, tried again later: %s", day, reason);
        } else {
            LOG.warnf("Reconciliation of %s failed, tried again later: %s", day, reason);
        }
        return store.failed(day, reason, clock.instant());
    }

    /** Matches, asks the wallet about the day's payments the bill lacks, then stores what is new. */
    private Uni<Void> match(ReconciliationStore.Day day, TradeBill bill) {
        ZoneId zone = config.zone();
        Instant start = day.date().atStartOfDay(zone).toInstant();
        Instant end = day.date().plusDays(1).atStartOfDay(zone).toInstant();
        PaymentChannel channel = channels.of(day.channel());
        return store.recordedBetween(day.channel(), start, end).chain(ofTheDay -> {
            Set<String> orderNos = new LinkedHashSet<>();
            bill.entries().forEach(entry -> orderNos.add(channel.orderNoOf(entry.outTradeNo())));
            ofTheDay.forEach(recorded -> orderNos.add(recorded.orderNo()));
            return store.recorded(day.channel(), orderNos)
                    .map(byOrderNo -> BillMatcher.match(bill, byOutTradeNo(day.channel(), byOrderNo.values()),
                            ofTheDay, zone));
        }).chain(result -> missingFromBill(day, result.missingFromBill())
                .map(missing -> {
                    List<FoundDifference> all = new ArrayList<>(result.differences());
                    all.addAll(missing);
                    return all;
                }))
                .chain(found -> Multi.createFrom().iterable(found)
                        .onItem().transformToUniAndConcatenate(difference -> store.add(day, difference, clock.instant())
                                .invoke(added -> {
                                    if (added) {
                                        registry.counter("reconciliation.differences.found", "channel",
                                                day.channel(), "kind", difference.kind().name()).increment();
                                        LOG.warnf("Reconciliation of %s: %s %s: %s", day, difference.kind(),
                                                difference.outTradeNo(), difference.detail());
                                    }
                                }))
                        .collect().last())
                .replaceWithVoid();
    }

    /** The records by the number the bill names their trade with (an order with no trade on the channel: its own). */
    private Map<String, RecordedPayment> byOutTradeNo(String channel, Iterable<RecordedPayment> records) {
        Map<String, RecordedPayment> byNumber = new LinkedHashMap<>();
        for (RecordedPayment recorded : records) {
            RecordedPayment numbered = recorded.outTradeNo() != null ? recorded
                    : recorded.numbered(channels.of(channel).outTradeNoOf(recorded.orderNo()));
            byNumber.put(numbered.outTradeNo(), numbered);
        }
        return byNumber;
    }

    /**
     * A payment recorded on the day that the bill lacks: the wallet is asked. Completed there on another day (a
     * notify that arrived after midnight), it belongs to that day's bill; otherwise it is flagged with the answer.
     */
    private Uni<List<FoundDifference>> missingFromBill(ReconciliationStore.Day day, List<RecordedPayment> candidates) {
        return Multi.createFrom().iterable(candidates)
                .onItem().transformToUniAndConcatenate(recorded -> channels.of(day.channel()).query(recorded.outTradeNo())
                        .map(trade -> paidOnAnotherDay(trade, day.date()) ? null : new FoundDifference(
                                DifferenceKind.MISSING_FROM_BILL, recorded.outTradeNo(), "payment", recorded.orderId(),
                                recorded.tradeNo(), null, recorded.paidAmount(), "recorded paid at "
                                        + recorded.moneyInAt() + ", not in the bill; the wallet's query answers "
                                        + trade.walletStatus() + (trade.paidAt() == null ? "" : ", paid at " + trade.paidAt()))))
                .filter(found -> found != null)
                .collect().asList();
    }

    private boolean paidOnAnotherDay(Trade trade, LocalDate date) {
        return trade.isPaid() && trade.paidAt() != null && !BillMatcher.on(trade.paidAt(), date, config.zone());
    }

    /** Payments the wallet has and this service did not record, one at a time through the payment paths. */
    private Uni<Void> settlePaidNotRecorded(ReconciliationStore.Day day) {
        return store.unsettled(day, DifferenceKind.PAID_NOT_RECORDED)
                .chain(differences -> Multi.createFrom().iterable(differences)
                        .onItem().transformToUniAndConcatenate(this::settle)
                        .collect().last())
                .replaceWithVoid();
    }

    private Uni<Void> settle(Difference difference) {
        return MutinyBridge.onOwnContext(() -> tradeQuery.confirmIfPaid(difference.channel(), difference.outTradeNo()))
                .chain(confirmed -> {
                    if (confirmed.recordedPaid()) {
                        return settled(difference, Difference.Settlement.CONFIRMED_PAID,
                                "confirmed by the wallet's trade query: the order is PAID (" + confirmed.outcome() + ")");
                    }
                    if (confirmed.outcome() == PaymentConfirmation.Outcome.REFUNDED) {
                        return settled(difference, Difference.Settlement.REFUNDED,
                                "the order had been closed: the payment was refunded");
                    }
                    String note = confirmed.outcome() == null
                            ? "the wallet's trade query answers " + confirmed.trade().walletStatus() + ": the payment is not confirmed"
                            : "the payment paths did not accept it: " + confirmed.outcome();
                    LOG.warnf("Reconciliation of %s: %s stays flagged: %s", difference.billDate(),
                            difference.outTradeNo(), note);
                    return store.note(difference.id(), note);
                });
    }

    /** Refunds the bill has and this service did not record as made: the wallet's refund query decides. */
    private Uni<Void> settleRefundsNotRecorded(ReconciliationStore.Day day) {
        return store.unsettled(day, DifferenceKind.REFUND_NOT_RECORDED)
                .chain(differences -> Multi.createFrom().iterable(differences)
                        .onItem().transformToUniAndConcatenate(difference -> MutinyBridge.onOwnContext(
                                () -> foundRefunds.settle(day.channel(), difference.outTradeNo(),
                                        BillMatcher.requestNoOf(difference.entryKey()), difference.billAmount()))
                                .chain(recorded -> recorded
                                        ? settled(difference, Difference.Settlement.REFUND_RECORDED,
                                                "confirmed by the wallet's refund query: recorded as made")
                                        : store.note(difference.id(), "the wallet's refund query does not confirm it, or "
                                                + "it cannot be recorded here: left to people")))
                        .collect().last())
                .replaceWithVoid();
    }

    private Uni<Void> settled(Difference difference, Difference.Settlement settlement, String note) {
        return store.settle(difference.id(), settlement, note, clock.instant()).invoke(settledNow -> {
            if (settledNow) {
                registry.counter("reconciliation.differences.settled", "channel", difference.channel(), "settlement",
                        settlement.name()).increment();
                LOG.infof("Reconciliation of %s: %s settled, %s", difference.billDate(), difference.outTradeNo(), note);
            }
        }).replaceWithVoid();
    }
}
