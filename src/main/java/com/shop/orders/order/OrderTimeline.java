package com.shop.orders.order;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One order's life as the service recorded it, for an operator (GET /api/admin/orders/{id}/timeline): when it was
 * placed and in which trace, its expiry message, the Alipay calls and notifies with their outcomes, the check-backs,
 * the payment or close, refunds. At most {@link #MAX_ENTRIES} entries however long the order lived: the first and the
 * last half, {@code omitted} between them.
 *
 * @param traceId    the trace that placed the order, when it was kept
 * @param checkBacks the broker's check-backs of its expiry message, from the first and the deciding ones recorded
 * @param omitted    entries left out between the first and the last ones shown
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record OrderTimeline(long orderId, String orderNo, OrderStatus status, CloseReason closeReason,
        Instant placedAt, Instant payDeadline, String traceId, CheckBacks checkBacks, List<Entry> entries,
        int omitted) {

    /** Entries shown at most: the first half and the last half of what was recorded. */
    public static final int MAX_ENTRIES = 200;

    /**
     * @param kind    PLACED, EXPIRY_MESSAGE, QR_OFFERED, ALIPAY_CALL, WECHAT_CALL, NOTIFY, CHECK_BACK, PAID, CLOSED or
     *                REFUND
     * @param outcome what came of it (an Alipay code, a check-back's answer, a close reason, a refund's status)
     * @param traceId the trace it happened in, when that trace was kept
     */
    @Schema(name = "OrderTimelineEntry")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Entry(Instant at, String kind, String outcome, String detail, String traceId) {
    }

    /**
     * @param count how many times the broker had checked the expiry message by the last check-back recorded
     * @param first the first check-back recorded
     * @param last  the last check-back recorded (the one that decided, once one has)
     */
    @Schema(name = "OrderCheckBacks")
    public record CheckBacks(int count, Instant first, Instant last) {
    }

    private static final Pattern CHECK = Pattern.compile("^check (\\d+):");

    /** How {@link OrderEvents} writes a check-back's detail; {@link #checkBacks} reads the count back from it. */
    static String checkBackDetail(int checkTimes, String reason) {
        return "check " + checkTimes + ": " + reason;
    }

    /** The check-backs recorded (first and deciding ones), or null when there is none. */
    static CheckBacks checkBacks(List<Entry> checks) {
        if (checks.isEmpty()) {
            return null;
        }
        List<Entry> sorted = inOrder(checks);
        int count = 0;
        for (Entry check : sorted) {
            Matcher matcher = CHECK.matcher(check.detail() == null ? "" : check.detail());
            if (matcher.find()) {
                count = Math.max(count, Integer.parseInt(matcher.group(1)));
            }
        }
        return new CheckBacks(count, sorted.get(0).at(), sorted.get(sorted.size() - 1).at());
    }

    /** The entries in time order (ties in the order they were written). */
    static List<Entry> inOrder(List<Entry> entries) {
        List<Entry> sorted = new ArrayList<>(entries);
        sorted.sort(Comparator.comparing(Entry::at));
        return sorted;
    }
}
