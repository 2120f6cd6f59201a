package com.shop.orders.reconciliation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import com.shop.orders.payment.BillEntry;
import com.shop.orders.payment.TradeBill;

class BillMatcherTest {

    private static final ZoneId CHINA = ZoneId.of("Asia/Shanghai");
    private static final LocalDate DAY = LocalDate.of(2026, 12, 1);
    /** 10:00 on the day, China time. */
    private static final Instant ON_THE_DAY = Instant.parse("2026-12-01T02:00:00Z");
    private static final BigDecimal TEN = new BigDecimal("10.00");

    @Test
    void aDayWhereBothAgreeHasNoDifference() {
        RecordedPayment paid = paid("O1", "T1", ON_THE_DAY);
        RecordedPayment refunded = refundedAfterClose("O2", "T2", ON_THE_DAY);
        BillMatcher.Result result = match(List.of(payment("O1", "T1", TEN), payment("O2", "T2", TEN),
                refund("O2", "T2", TEN, "O2-refund")), List.of(paid, refunded), List.of(paid, refunded));
        assertEquals(List.of(), result.differences());
        assertEquals(List.of(), result.missingFromBill());
    }

    @Test
    void eachBillRowWithoutItsRecordIsADifferenceOfItsKind() {
        RecordedPayment pending = new RecordedPayment(3, "O3", "PENDING_PAYMENT", TEN, "AWAITING_PAYMENT", null, null,
                null, null, null, List.of());
        RecordedPayment paid = paid("O4", "T4", ON_THE_DAY);
        RecordedPayment otherTrade = paid("O5", "T5", ON_THE_DAY);
        BillMatcher.Result result = match(List.of(payment("O3", "T3", TEN), payment("O4", "T4", new BigDecimal("9.99")),
                refund("O4", "T4", TEN, "r"), payment("O5", "T5-other", TEN), payment("X1", "TX", TEN)),
                List.of(pending, paid, otherTrade), List.of(paid, otherTrade));
        assertEquals(Map.of("O3/payment", DifferenceKind.PAID_NOT_RECORDED, "O4/payment", DifferenceKind.AMOUNT_MISMATCH,
                "O4/refund", DifferenceKind.REFUND_NOT_RECORDED, "O5/payment", DifferenceKind.UNKNOWN_TRADE,
                "X1/payment", DifferenceKind.UNKNOWN_TRADE), kinds(result));
        // O5's bill row is another trade: its recorded payment is missing from the bill too.
        assertEquals(List.of("O5"), result.missingFromBill().stream().map(RecordedPayment::orderNo).toList());
    }

    @Test
    void recordsOfTheDayWithoutTheirBillRowAreCandidatesOrDifferences() {
        RecordedPayment paid = paid("O6", "T6", ON_THE_DAY);
        RecordedPayment refunded = refundedAfterClose("O7", "T7", ON_THE_DAY);
        BillMatcher.Result result = match(List.of(payment("O7", "T7", TEN)), List.of(paid, refunded),
                List.of(paid, refunded));
        assertEquals(List.of("O6"), result.missingFromBill().stream().map(RecordedPayment::orderNo).toList());
        assertEquals(Map.of("O7/refund", DifferenceKind.REFUND_MISSING_FROM_BILL), kinds(result));
    }

    @Test
    void eachRefundIsMatchedByItsRequestNumberToTheFen() {
        BigDecimal three = new BigDecimal("3.00");
        RecordedPayment partly = new RecordedPayment(9, "O9", "PAID", TEN, "PAID", "T9", TEN, ON_THE_DAY,
                new BigDecimal("9.00"), ON_THE_DAY, List.of(
                        new RecordedRefund(1, "O9-r1", three, "SUCCEEDED", ON_THE_DAY),
                        new RecordedRefund(2, "O9-r2", three, "SUCCEEDED", ON_THE_DAY),
                        new RecordedRefund(3, "O9-r3", three, "SUCCEEDED", ON_THE_DAY),
                        new RecordedRefund(4, "O9-r4", three, "PENDING", null),
                        new RecordedRefund(5, "O9-r5", three, "FAILED", ON_THE_DAY)));
        BillMatcher.Result result = match(List.of(payment("O9", "T9", TEN), refund("O9", "T9", three, "O9-r1"),
                refund("O9", "T9", new BigDecimal("3.01"), "O9-r2"), refund("O9", "T9", three, "O9-r4"),
                refund("O9", "T9", BigDecimal.ONE, "console-1")), List.of(partly), List.of(partly));
        Map<String, DifferenceKind> byKey = result.differences().stream()
                .collect(Collectors.toMap(FoundDifference::entryKey, FoundDifference::kind));
        assertEquals(Map.of("refund:T9:O9-r2", DifferenceKind.AMOUNT_MISMATCH,
                "refund:O9-r3", DifferenceKind.REFUND_MISSING_FROM_BILL,
                "refund:T9:O9-r4", DifferenceKind.REFUND_NOT_RECORDED,
                "refund:T9:console-1", DifferenceKind.REFUND_NOT_RECORDED), byKey);
        assertEquals("console-1", BillMatcher.requestNoOf("refund:T9:console-1"));
    }

    @Test
    void aPaymentRecordedOnTheDayButPaidTheDayBeforeIsLookedUpByOrderNumberNotByDate() {
        // Recorded just after midnight (a late notify); the bill of the day before has the row.
        RecordedPayment late = paid("O8", "T8", Instant.parse("2026-11-30T16:00:01Z"));
        BillMatcher.Result dayBefore = BillMatcher.match(new TradeBill(DAY.minusDays(1), List.of(payment("O8", "T8", TEN))),
                Map.of("O8", late), List.of(), CHINA);
        assertEquals(List.of(), dayBefore.differences());
        BillMatcher.Result day = match(List.of(), List.of(late), List.of(late));
        assertEquals(List.of(late), day.missingFromBill(), "Alipay is asked which day it was");
    }

    private static BillMatcher.Result match(List<BillEntry> entries, List<RecordedPayment> known,
            List<RecordedPayment> ofTheDay) {
        return BillMatcher.match(new TradeBill(DAY, entries),
                known.stream().collect(Collectors.toMap(RecordedPayment::orderNo, Function.identity())), ofTheDay, CHINA);
    }

    /** Each difference by its order number and the side it is about (payment or refund). */
    private static Map<String, DifferenceKind> kinds(BillMatcher.Result result) {
        return result.differences().stream().collect(Collectors.toMap(
                d -> d.outTradeNo() + "/" + d.entryKey().split(":")[0], FoundDifference::kind));
    }

    private static RecordedPayment paid(String orderNo, String tradeNo, Instant at) {
        return new RecordedPayment(orderNo.hashCode(), orderNo, "PAID", TEN, "PAID", tradeNo, TEN, at, null, null,
                List.of());
    }

    /** Paid after the order closed, refunded at once: recorded with the refund's time only. */
    private static RecordedPayment refundedAfterClose(String orderNo, String tradeNo, Instant at) {
        return new RecordedPayment(orderNo.hashCode(), orderNo, "CLOSED", TEN, "REFUNDED", tradeNo, TEN, null, TEN, at,
                List.of(new RecordedRefund(1, orderNo + "-refund", TEN, "SUCCEEDED", at)));
    }

    private static BillEntry payment(String orderNo, String tradeNo, BigDecimal amount) {
        return new BillEntry(tradeNo, orderNo, BillEntry.Kind.PAYMENT, amount, "", ON_THE_DAY);
    }

    private static BillEntry refund(String orderNo, String tradeNo, BigDecimal amount, String requestNo) {
        return new BillEntry(tradeNo, orderNo, BillEntry.Kind.REFUND, amount, requestNo, ON_THE_DAY);
    }
}
