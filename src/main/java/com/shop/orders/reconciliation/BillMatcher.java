package com.shop.orders.reconciliation;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.shop.orders.payment.BillEntry;
import com.shop.orders.payment.TradeBill;

/**
 * Matches a day's bill against what this service recorded, both ways, by out_trade_no and trade_no, amounts to the
 * fen. Pure: the store loads the records, the reconciliation acts on what is found.
 *
 * <p>A bill row is looked up by its order number whatever day the service recorded it (a notify late past midnight
 * is the same payment). A record of the day that no bill row matches is a candidate only: the payment may have
 * completed at the wallet on the day before or after, which the reconciliation asks the wallet about.
 */
public final class BillMatcher {

    /** What the bill says and what it lacks. */
    public record Result(List<FoundDifference> differences, List<RecordedPayment> missingFromBill) {
    }

    private BillMatcher() {
    }

    /**
     * @param byOutTradeNo the records of every trade number in the bill, and of the day's payments and refunds, by
     *                     their trade's number at the wallet
     * @param ofTheDay  the records with money in or out on the bill's day (in {@code zone})
     */
    public static Result match(TradeBill bill, Map<String, RecordedPayment> byOutTradeNo, List<RecordedPayment> ofTheDay,
            ZoneId zone) {
        List<FoundDifference> differences = new ArrayList<>();
        Set<String> paymentsInBill = new HashSet<>();
        Set<String> refundsInBill = new HashSet<>();
        for (BillEntry entry : bill.entries()) {
            RecordedPayment recorded = byOutTradeNo.get(entry.outTradeNo());
            FoundDifference difference;
            if (recorded == null) {
                difference = found(DifferenceKind.UNKNOWN_TRADE, entry, null, null,
                        "no order " + entry.outTradeNo() + " was created by this service");
            } else if (recorded.tradeNo() != null && !recorded.tradeNo().equals(entry.tradeNo())) {
                difference = found(DifferenceKind.UNKNOWN_TRADE, entry, recorded, null, "the bill's trade "
                        + entry.tradeNo() + " is not the recorded trade " + recorded.tradeNo());
            } else if (entry.kind() == BillEntry.Kind.PAYMENT) {
                paymentsInBill.add(entry.outTradeNo());
                difference = payment(entry, recorded);
            } else {
                refundsInBill.add(entry.outTradeNo() + " " + entry.requestNo());
                difference = refund(entry, recorded);
            }
            if (difference != null) {
                differences.add(difference);
            }
        }
        List<RecordedPayment> missing = new ArrayList<>();
        for (RecordedPayment recorded : ofTheDay) {
            if (recorded.paid() && on(recorded.moneyInAt(), bill.date(), zone)
                    && !paymentsInBill.contains(recorded.outTradeNo())) {
                missing.add(recorded);
            }
            for (RecordedRefund refund : recorded.refunds()) {
                if (refund.succeeded() && on(refund.completedAt(), bill.date(), zone)
                        && !refundsInBill.contains(recorded.outTradeNo() + " " + refund.billRequestNo())) {
                    differences.add(new FoundDifference(DifferenceKind.REFUND_MISSING_FROM_BILL, recorded.outTradeNo(),
                            "refund:" + refund.billRequestNo(), recorded.orderId(), recorded.tradeNo(), null,
                            refund.amount(), "refund " + refund.billRequestNo() + " of " + refund.amount()
                                    + " recorded at " + refund.completedAt() + ", not in the bill"));
                }
            }
        }
        return new Result(differences, missing);
    }

    private static FoundDifference payment(BillEntry entry, RecordedPayment recorded) {
        if (entry.amount().compareTo(recorded.total()) != 0
                || recorded.paidAmount() != null && entry.amount().compareTo(recorded.paidAmount()) != 0) {
            return found(DifferenceKind.AMOUNT_MISMATCH, entry, recorded,
                    recorded.paidAmount() != null ? recorded.paidAmount() : recorded.total(),
                    "the bill's payment is " + entry.amount() + ", the order's total is " + recorded.total());
        }
        if (recorded.paid()) {
            return null;
        }
        return found(DifferenceKind.PAID_NOT_RECORDED, entry, recorded, null, "paid at the wallet at "
                + entry.finishedAt() + ", the order is " + recorded.orderStatus() + " here");
    }

    /** A bill refund is matched to the recorded refund of the same request number, amounts to the fen. */
    private static FoundDifference refund(BillEntry entry, RecordedPayment recorded) {
        RecordedRefund refund = recorded.refund(entry.requestNo()).orElse(null);
        if (refund == null || !refund.succeeded()) {
            return found(DifferenceKind.REFUND_NOT_RECORDED, entry, recorded, null, "refund " + entry.requestNo()
                    + " of " + entry.amount() + " in the bill, " + (refund == null ? "not recorded here"
                            : "recorded " + refund.status() + " here"));
        }
        if (entry.amount().compareTo(refund.amount()) != 0) {
            return found(DifferenceKind.AMOUNT_MISMATCH, entry, recorded, refund.amount(), "the bill's refund "
                    + entry.requestNo() + " is " + entry.amount() + ", the recorded refund is " + refund.amount());
        }
        return null;
    }

    /** The refund request number a REFUND_NOT_RECORDED difference names (its entry key ends with it). */
    static String requestNoOf(String entryKey) {
        String[] parts = entryKey.split(":", 3);
        return parts.length == 3 ? parts[2] : "";
    }

    private static FoundDifference found(DifferenceKind kind, BillEntry entry, RecordedPayment recorded,
            BigDecimal recordedAmount, String detail) {
        String key = entry.kind().name().toLowerCase() + ":" + entry.tradeNo() + ":" + entry.requestNo();
        return new FoundDifference(kind, entry.outTradeNo(), key, recorded == null ? null : recorded.orderId(),
                entry.tradeNo(), entry.amount(), recordedAmount, detail);
    }

    static boolean on(Instant at, LocalDate date, ZoneId zone) {
        return at != null && LocalDate.ofInstant(at, zone).equals(date);
    }
}
