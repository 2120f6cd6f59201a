package com.shop.orders.sandbox.alipay;

import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The trade bill's knobs, as JSON under "bill" of {@code PUT /sandbox/alipay/faults}. Example:
 * {"late":false,"drop":[{"outTradeNo":"…","type":"refund"}],"amounts":{"…":"0.01"},
 * "add":[{"outTradeNo":"NOT-OURS-1","type":"payment","amount":"12.00"}],"damage":"truncated"}
 *
 * @param late    the bill is not published yet: the link query answers isp.bill_not_exist
 * @param drop    rows left out: every row of the out_trade_no, or only its payment or refund rows
 * @param amounts a payment's order amount (and money received) written as this instead
 * @param add     rows of trades the sandbox never had (a trade_no is made up when none is given)
 * @param damage  none, truncated (the detail file stops after its header line), utf8 (files not in GBK), not-zip
 */
public record BillFaults(Boolean late, List<Row> drop, Map<String, String> amounts, List<Row> add, String damage) {

    public static final BillFaults NONE = new BillFaults(false, List.of(), Map.of(), List.of(), "none");

    /** @param type payment or refund; null in drop: both */
    public record Row(String outTradeNo, String type, String amount, String tradeNo) {

        BillLine.Type lineType() {
            if (type == null) {
                return null;
            }
            return switch (type.toLowerCase(Locale.ROOT)) {
                case "payment" -> BillLine.Type.PAYMENT;
                case "refund" -> BillLine.Type.REFUND;
                default -> throw new IllegalArgumentException("a bill row's type is payment or refund: " + type);
            };
        }

        boolean matches(BillLine line) {
            return line.outTradeNo().equals(outTradeNo) && (type == null || lineType() == line.type());
        }
    }

    enum Damage {
        NONE, TRUNCATED, UTF8, NOT_ZIP
    }

    /** Checked and with every field present, so that a bad body changes nothing and readers need no null checks. */
    BillFaults validated() {
        List<Row> dropped = drop == null ? List.of() : List.copyOf(drop);
        List<Row> added = add == null ? List.of() : List.copyOf(add);
        Map<String, String> altered = amounts == null ? Map.of() : Map.copyOf(amounts);
        for (Row row : dropped) {
            requireOutTradeNo(row);
            row.lineType();
        }
        for (Row row : added) {
            requireOutTradeNo(row);
            if (row.lineType() == null) {
                throw new IllegalArgumentException("an added bill row needs its type: payment or refund");
            }
            amount(row.amount());
        }
        altered.values().forEach(BillFaults::amount);
        damageKind();
        return new BillFaults(late != null && late, dropped, altered, added, damage == null ? "none" : damage);
    }

    Damage damageKind() {
        String name = damage == null ? "NONE" : damage.trim().toUpperCase(Locale.ROOT).replace('-', '_');
        try {
            return Damage.valueOf(name);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("damage is one of none, truncated, utf8, not-zip: " + damage);
        }
    }

    static BigDecimal amount(String text) {
        return Money.parse(text).orElseThrow(() -> new IllegalArgumentException(
                "a bill amount is 0.01 to 100000000 with two decimals at most: " + text));
    }

    private static void requireOutTradeNo(Row row) {
        if (row == null || row.outTradeNo() == null || row.outTradeNo().isBlank()) {
            throw new IllegalArgumentException("a bill row needs its outTradeNo");
        }
    }
}
