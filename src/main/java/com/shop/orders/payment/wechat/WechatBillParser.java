package com.shop.orders.payment.wechat;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import com.shop.orders.payment.BillEntry;
import com.shop.orders.payment.TradeBill;
import com.shop.orders.payment.UnusableBillException;

/**
 * Reads WeChat Pay's trade bill of type ALL (unzipped): comma-separated lines, a header line, one row per payment
 * (交易状态 SUCCESS) or refund (REFUND), a summary header line and one summary row. Every field of a row is prefixed
 * with a backtick (so that spreadsheets keep numbers as text); amounts are in yuan.
 *
 * <p>The encoding is not stated by WeChat's pages; its SDK reads its files as UTF-8 ({@code IOUtil.toString}), and so
 * does this: bytes that are not UTF-8 make the bill unusable, never half-read.
 *
 * <p>Everything is checked before anything is used: the header's columns, each row (this merchant's, a known status,
 * amounts to the fen, a time), and the summary (the count of rows, the totals of order, settlement and refund amounts).
 * Rows of other statuses (REVOKED: a payment code's trade cancelled) are counted in the summary and otherwise left
 * out; refunds not SUCCESS moved no money. Trades of other types (JSAPI, APP…) are entries like the Native ones: this
 * service did not make them, which the reconciliation reports.
 */
public final class WechatBillParser {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
    private static final Pattern AMOUNT = Pattern.compile("-?\\d{1,10}(\\.\\d{1,2})?");
    private static final String SUCCESS = "SUCCESS";
    private static final String REFUND = "REFUND";

    static final String TIME_COLUMN = "交易时间";
    static final String MCHID = "商户号";
    static final String TRANSACTION_ID = "微信订单号";
    static final String OUT_TRADE_NO = "商户订单号";
    static final String STATUS = "交易状态";
    static final String SETTLEMENT = "应结订单金额";
    static final String OUT_REFUND_NO = "商户退款单号";
    static final String REFUND_AMOUNT = "退款金额";
    static final String REFUND_STATUS = "退款状态";
    static final String ORDER_AMOUNT = "订单金额";
    private static final List<String> DETAIL_COLUMNS = List.of(TIME_COLUMN, MCHID, TRANSACTION_ID, OUT_TRADE_NO, STATUS,
            SETTLEMENT, OUT_REFUND_NO, REFUND_AMOUNT, REFUND_STATUS, ORDER_AMOUNT);
    static final String COUNT_TOTAL = "总交易单数";
    static final String SETTLEMENT_TOTAL = "应结订单总金额";
    static final String REFUND_TOTAL = "退款总金额";
    static final String ORDER_TOTAL = "订单总金额";
    private static final List<String> SUMMARY_COLUMNS = List.of(COUNT_TOTAL, SETTLEMENT_TOTAL, REFUND_TOTAL, ORDER_TOTAL);

    private WechatBillParser() {
    }

    /**
     * @param content the bill, unzipped and checked against its digest
     * @param date    the day it was asked for
     * @param zone    WeChat's time zone, in which the bill writes its times
     * @param mchid   this merchant: every row must be its own
     */
    public static TradeBill parse(byte[] content, LocalDate date, ZoneId zone, String mchid) {
        List<String> lines = lines(content).stream().filter(line -> !line.isBlank()).toList();
        if (lines.isEmpty()) {
            throw new UnusableBillException("the bill is empty");
        }
        Map<String, Integer> columns = columns(lines.get(0), DETAIL_COLUMNS, "header");
        int width = lines.get(0).split(",", -1).length;
        int summaryAt = -1;
        for (int i = 1; i < lines.size(); i++) {
            if (lines.get(i).startsWith(COUNT_TOTAL)) {
                summaryAt = i;
                break;
            }
        }
        if (summaryAt < 0 || summaryAt + 2 != lines.size()) {
            throw new UnusableBillException(summaryAt < 0
                    ? "the bill has no summary (truncated?): read " + (lines.size() - 1) + " rows"
                    : "the bill's summary is not one header line and one row");
        }
        List<List<String>> rows = new ArrayList<>();
        for (int i = 1; i < summaryAt; i++) {
            List<String> row = fields(lines.get(i), i + 1);
            if (row.size() != width) {
                throw new UnusableBillException("line " + (i + 1) + " has " + row.size() + " fields, the header "
                        + width);
            }
            rows.add(row);
        }
        checkSummary(lines.get(summaryAt), fields(lines.get(summaryAt + 1), summaryAt + 2), rows, columns);
        List<BillEntry> entries = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            BillEntry entry = entry(rows.get(i), columns, zone, mchid, i + 2);
            if (entry != null) {
                entries.add(entry);
            }
        }
        return new TradeBill(date, entries);
    }

    private static List<String> lines(byte[] content) {
        try {
            // UTF-8, as WeChat's SDK reads its files (WeChat's pages do not name the encoding).
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(content)).toString()
                    .replace("\uFEFF", "").lines().toList();
        } catch (CharacterCodingException e) {
            throw new UnusableBillException("the bill is not UTF-8 text");
        }
    }

    private static Map<String, Integer> columns(String header, List<String> required, String which) {
        List<String> names = List.of(header.split(",", -1)).stream().map(String::strip).toList();
        Map<String, Integer> columns = new HashMap<>();
        for (String name : required) {
            int index = names.indexOf(name);
            if (index < 0) {
                throw new UnusableBillException("the bill's " + which + " has no column " + name
                        + ": not the layout of WeChat Pay's trade bill (ALL)");
            }
            columns.put(name, index);
        }
        return columns;
    }

    /** A row's fields: each after its backtick, stripped. */
    static List<String> fields(String line, int lineNo) {
        List<String> fields = new ArrayList<>();
        for (String field : line.split(",", -1)) {
            String value = field.strip();
            if (!value.startsWith("`")) {
                throw new UnusableBillException("line " + lineNo + " has a field without its backtick: " + value);
            }
            fields.add(value.substring(1).strip());
        }
        return fields;
    }

    private static BillEntry entry(List<String> row, Map<String, Integer> columns, ZoneId zone, String mchid,
            int lineNo) {
        if (!mchid.equals(field(row, columns, MCHID, lineNo))) {
            throw new UnusableBillException("line " + lineNo + " is of the merchant " + field(row, columns, MCHID, lineNo)
                    + ", not of " + mchid);
        }
        String status = field(row, columns, STATUS, lineNo);
        String transactionId = field(row, columns, TRANSACTION_ID, lineNo);
        String outTradeNo = field(row, columns, OUT_TRADE_NO, lineNo);
        if (transactionId.isEmpty() || outTradeNo.isEmpty()) {
            throw new UnusableBillException("line " + lineNo + " has no trade number");
        }
        String time = field(row, columns, TIME_COLUMN, lineNo);
        Instant at;
        try {
            at = LocalDateTime.parse(time, TIME).atZone(zone).toInstant();
        } catch (DateTimeParseException e) {
            throw new UnusableBillException("line " + lineNo + " has the time " + time);
        }
        return switch (status) {
            case SUCCESS -> new BillEntry(transactionId, outTradeNo, BillEntry.Kind.PAYMENT,
                    amount(row, columns, ORDER_AMOUNT, lineNo), "", at);
            case REFUND -> refund(row, columns, transactionId, outTradeNo, at, lineNo);
            default -> null;
        };
    }

    private static BillEntry refund(List<String> row, Map<String, Integer> columns, String transactionId,
            String outTradeNo, Instant at, int lineNo) {
        if (!SUCCESS.equals(field(row, columns, REFUND_STATUS, lineNo))) {
            return null;
        }
        String outRefundNo = field(row, columns, OUT_REFUND_NO, lineNo);
        if (outRefundNo.isEmpty()) {
            throw new UnusableBillException("line " + lineNo + " is a refund without its 商户退款单号");
        }
        return new BillEntry(transactionId, outTradeNo, BillEntry.Kind.REFUND,
                amount(row, columns, REFUND_AMOUNT, lineNo).abs(), outRefundNo, at);
    }

    /** The summary must count the rows and add up their order, settlement and refund amounts, to the fen. */
    private static void checkSummary(String header, List<String> summary, List<List<String>> rows,
            Map<String, Integer> columns) {
        Map<String, Integer> totals = columns(header, SUMMARY_COLUMNS, "summary header");
        String count = field(summary, totals, COUNT_TOTAL, 0);
        if (!count.equals(String.valueOf(rows.size()))) {
            throw new UnusableBillException("the summary counts " + count + " rows, the bill has " + rows.size());
        }
        check(summary, totals, SETTLEMENT_TOTAL, rows, columns, SETTLEMENT);
        check(summary, totals, ORDER_TOTAL, rows, columns, ORDER_AMOUNT);
        check(summary, totals, REFUND_TOTAL, rows, columns, REFUND_AMOUNT);
    }

    private static void check(List<String> summary, Map<String, Integer> totals, String total,
            List<List<String>> rows, Map<String, Integer> columns, String column) {
        BigDecimal sum = BigDecimal.ZERO.setScale(2);
        for (int i = 0; i < rows.size(); i++) {
            sum = sum.add(amount(rows.get(i), columns, column, i + 2));
        }
        BigDecimal stated = amount(summary, totals, total, 0);
        if (stated.compareTo(sum) != 0) {
            throw new UnusableBillException("the summary's " + total + " is " + stated + ", the rows' " + column
                    + " add up to " + sum);
        }
    }

    private static BigDecimal amount(List<String> row, Map<String, Integer> columns, String column, int lineNo) {
        String text = field(row, columns, column, lineNo);
        if (!AMOUNT.matcher(text).matches()) {
            throw new UnusableBillException(where(lineNo) + " has " + column + " " + text);
        }
        return new BigDecimal(text).setScale(2);
    }

    private static String field(List<String> row, Map<String, Integer> columns, String column, int lineNo) {
        int index = columns.get(column);
        if (index >= row.size()) {
            throw new UnusableBillException(where(lineNo) + " has no " + column);
        }
        return row.get(index);
    }

    private static String where(int lineNo) {
        return lineNo == 0 ? "the summary row" : "line " + lineNo;
    }
}
