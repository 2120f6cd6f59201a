package com.shop.orders.payment.alipay;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

import com.shop.orders.payment.BillEntry;
import com.shop.orders.payment.TradeBill;
import com.shop.orders.payment.UnusableBillException;

/**
 * Reads Alipay's trade bill: a zip (entry names in GBK) of two GBK CSV files, "…_业务明细.csv" (the details) and
 * "…_业务明细(汇总).csv" (the summary). Each file opens with comment lines ('#': title, account, the day, a rule),
 * then the table's header and rows, then an end rule and comment lines (the detail file: "#交易合计：N笔，退款合计：M笔").
 * Alipay ends long numbers with a tab so that spreadsheets keep them as text; fields are trimmed.
 *
 * <p>Everything is checked before anything is used: the bill's day, the header's columns, each row, the end rule,
 * the counts in the footer and in the summary. Any doubt makes the whole bill unusable, with the reason.
 */
public final class TradeBillParser {

    private static final String DETAIL_SUFFIX = "_业务明细.csv";
    private static final String SUMMARY_SUFFIX = "_业务明细(汇总).csv";
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
    private static final Pattern DAY = Pattern.compile("起始日期：\\[(\\d{4})年(\\d{2})月(\\d{2})日");
    private static final Pattern TOTALS = Pattern.compile("#交易合计：(\\d+)笔，退款合计：(\\d+)笔");
    private static final Pattern AMOUNT = Pattern.compile("-?\\d{1,10}(\\.\\d{1,2})?");

    private static final String TRADE_NO = "支付宝交易号";
    private static final String OUT_TRADE_NO = "商户订单号";
    private static final String TYPE = "业务类型";
    private static final String FINISHED = "完成时间";
    private static final String ORDER_AMOUNT = "订单金额（元）";
    private static final String RECEIVED = "商家实收（元）";
    private static final String REQUEST_NO = "退款批次号/请求号";
    private static final List<String> DETAIL_COLUMNS = List.of(TRADE_NO, OUT_TRADE_NO, TYPE, FINISHED, ORDER_AMOUNT,
            RECEIVED, REQUEST_NO);
    private static final String PAYMENTS_TOTAL = "交易订单总笔数";
    private static final String REFUNDS_TOTAL = "退款订单总笔数";

    private TradeBillParser() {
    }

    /**
     * @param zip         the downloaded bill
     * @param date        the day it was asked for
     * @param zone        Alipay's time zone, in which the bill writes its times
     * @param maxUnzipped most bytes the files may hold unzipped (a zip bomb is unusable too)
     */
    public static TradeBill parse(byte[] zip, LocalDate date, ZoneId zone, long maxUnzipped) {
        Map<String, byte[]> files = unzip(zip, maxUnzipped);
        byte[] detail = file(files, DETAIL_SUFFIX);
        byte[] summary = file(files, SUMMARY_SUFFIX);
        List<BillEntry> entries = details(lines(detail, "detail"), date, zone);
        TradeBill bill = new TradeBill(date, entries);
        checkSummary(lines(summary, "summary"), bill);
        return bill;
    }

    private static Map<String, byte[]> unzip(byte[] zip, long maxUnzipped) {
        Map<String, byte[]> files = new HashMap<>();
        long total = 0;
        try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(zip), TradeBillCharset.GBK)) {
            ZipEntry entry;
            while ((entry = in.getNextEntry()) != null) {
                byte[] content = readAtMost(in, maxUnzipped - total);
                total += content.length;
                files.put(entry.getName(), content);
            }
        } catch (IOException | IllegalArgumentException e) {
            throw new UnusableBillException("the bill is not a readable zip archive: " + e.getMessage());
        }
        if (files.isEmpty()) {
            throw new UnusableBillException("the bill is not a zip archive, or an empty one");
        }
        return files;
    }

    private static byte[] readAtMost(InputStream in, long limit) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        int n;
        while ((n = in.read(buffer)) > 0) {
            if (out.size() + (long) n > limit) {
                throw new UnusableBillException("the bill's files are larger unzipped than " + limit + " bytes");
            }
            out.write(buffer, 0, n);
        }
        return out.toByteArray();
    }

    private static byte[] file(Map<String, byte[]> files, String suffix) {
        return files.entrySet().stream().filter(f -> f.getKey().endsWith(suffix)).map(Map.Entry::getValue)
                .findFirst()
                .orElseThrow(() -> new UnusableBillException("the bill has no file named …" + suffix + " (files: "
                        + files.keySet() + ")"));
    }

    private static List<String> lines(byte[] content, String which) {
        try {
            String text = TradeBillCharset.GBK.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(content)).toString();
            return text.lines().toList();
        } catch (CharacterCodingException e) {
            throw new UnusableBillException("the " + which + " file is not GBK text");
        }
    }

    private static List<BillEntry> details(List<String> lines, LocalDate date, ZoneId zone) {
        checkDay(lines, date);
        int at = headerIndex(lines, "detail");
        Map<String, Integer> columns = columns(lines.get(at), DETAIL_COLUMNS, "detail");
        List<BillEntry> entries = new ArrayList<>();
        int line = at + 1;
        for (; line < lines.size() && !lines.get(line).startsWith("#"); line++) {
            if (!lines.get(line).isBlank()) {
                entries.add(entry(fields(lines.get(line)), columns, zone, line + 1));
            }
        }
        if (line == lines.size() || !lines.get(line).contains("业务明细列表结束")) {
            throw new UnusableBillException("the detail file is truncated: its table has no end line (read "
                    + entries.size() + " rows)");
        }
        long payments = entries.stream().filter(e -> e.kind() == BillEntry.Kind.PAYMENT).count();
        Matcher totals = lines.subList(line, lines.size()).stream().map(TOTALS::matcher).filter(Matcher::find)
                .findFirst()
                .orElseThrow(() -> new UnusableBillException("the detail file has no line \"#交易合计：…笔，退款合计：…笔\""));
        if (Long.parseLong(totals.group(1)) != payments || Long.parseLong(totals.group(2)) != entries.size() - payments) {
            throw new UnusableBillException("the detail file counts " + totals.group(1) + " payments and "
                    + totals.group(2) + " refunds, its table has " + payments + " and " + (entries.size() - payments));
        }
        return entries;
    }

    private static void checkDay(List<String> lines, LocalDate date) {
        for (String line : lines) {
            if (!line.startsWith("#")) {
                break;
            }
            Matcher day = DAY.matcher(line);
            if (day.find()) {
                LocalDate billDay = LocalDate.of(Integer.parseInt(day.group(1)), Integer.parseInt(day.group(2)),
                        Integer.parseInt(day.group(3)));
                if (!billDay.equals(date)) {
                    throw new UnusableBillException("the bill is of " + billDay + ", not of " + date);
                }
                return;
            }
        }
        throw new UnusableBillException("the detail file does not say its day (no line \"#起始日期：[…]\")");
    }

    private static int headerIndex(List<String> lines, String which) {
        for (int i = 0; i < lines.size(); i++) {
            if (!lines.get(i).startsWith("#")) {
                return i;
            }
        }
        throw new UnusableBillException("the " + which + " file has no table");
    }

    private static Map<String, Integer> columns(String header, List<String> required, String which) {
        List<String> names = fields(header);
        Map<String, Integer> columns = new HashMap<>();
        for (String name : required) {
            int index = names.indexOf(name);
            if (index < 0) {
                throw new UnusableBillException("the " + which + " file's header has no column " + name
                        + ": not the layout of Alipay's trade bill");
            }
            columns.put(name, index);
        }
        return columns;
    }

    private static BillEntry entry(List<String> fields, Map<String, Integer> columns, ZoneId zone, int lineNo) {
        String type = field(fields, columns, TYPE, lineNo);
        BillEntry.Kind kind = switch (type) {
            case "交易" -> BillEntry.Kind.PAYMENT;
            case "退款" -> BillEntry.Kind.REFUND;
            default -> throw new UnusableBillException("line " + lineNo + " of the detail file has the unknown type "
                    + type);
        };
        String tradeNo = field(fields, columns, TRADE_NO, lineNo);
        String outTradeNo = field(fields, columns, OUT_TRADE_NO, lineNo);
        if (tradeNo.isEmpty() || outTradeNo.isEmpty()) {
            throw new UnusableBillException("line " + lineNo + " of the detail file has no trade number");
        }
        BigDecimal amount = kind == BillEntry.Kind.PAYMENT
                ? amount(fields, columns, ORDER_AMOUNT, lineNo)
                : amount(fields, columns, RECEIVED, lineNo).abs();
        String finished = field(fields, columns, FINISHED, lineNo);
        try {
            return new BillEntry(tradeNo, outTradeNo, kind, amount, field(fields, columns, REQUEST_NO, lineNo),
                    LocalDateTime.parse(finished, TIME).atZone(zone).toInstant());
        } catch (DateTimeParseException e) {
            throw new UnusableBillException("line " + lineNo + " of the detail file has the time " + finished);
        }
    }

    private static BigDecimal amount(List<String> fields, Map<String, Integer> columns, String column, int lineNo) {
        String text = field(fields, columns, column, lineNo);
        if (!AMOUNT.matcher(text).matches()) {
            throw new UnusableBillException("line " + lineNo + " of the detail file has " + column + " " + text);
        }
        return new BigDecimal(text).setScale(2);
    }

    private static String field(List<String> fields, Map<String, Integer> columns, String column, int lineNo) {
        int index = columns.get(column);
        if (index >= fields.size()) {
            throw new UnusableBillException("line " + lineNo + " of the detail file has no " + column);
        }
        return fields.get(index);
    }

    /** The summary's total line ("合计") must count what the details hold. */
    private static void checkSummary(List<String> lines, TradeBill bill) {
        int at = headerIndex(lines, "summary");
        Map<String, Integer> columns = columns(lines.get(at), List.of(PAYMENTS_TOTAL, REFUNDS_TOTAL), "summary");
        List<String> total = lines.subList(at + 1, lines.size()).stream().filter(l -> l.startsWith("合计"))
                .map(TradeBillParser::fields).findFirst()
                .orElseThrow(() -> new UnusableBillException("the summary file has no total line (合计)"));
        String payments = field(total, columns, PAYMENTS_TOTAL, at + 1);
        String refunds = field(total, columns, REFUNDS_TOTAL, at + 1);
        if (!payments.equals(String.valueOf(bill.payments())) || !refunds.equals(String.valueOf(bill.refunds()))) {
            throw new UnusableBillException("the summary counts " + payments + " payments and " + refunds
                    + " refunds, the details hold " + bill.payments() + " and " + bill.refunds());
        }
    }

    /** One CSV line: fields split at commas outside double quotes ("" inside quotes is one quote), trimmed. */
    static List<String> fields(String line) {
        List<String> fields = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted && c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                field.append('"');
                i++;
            } else if (c == '"') {
                quoted = !quoted;
            } else if (c == ',' && !quoted) {
                fields.add(field.toString().strip());
                field.setLength(0);
            } else {
                field.append(c);
            }
        }
        fields.add(field.toString().strip());
        return fields;
    }
}
