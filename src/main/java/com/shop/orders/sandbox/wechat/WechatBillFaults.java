package com.shop.orders.sandbox.wechat;

import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The trade bill's knobs, as JSON under "bill" of {@code PUT /sandbox/wechat/faults}, shaped as the Alipay sandbox's.
 * Example: {"late":false,"drop":["…W"],"amounts":{"…W":"0.01"},"damage":"wrong-hash"}
 *
 * @param late    the bill is not made yet: the bill query answers 400 NO_STATEMENT_EXIST
 * @param drop    rows left out: a trade's payment row by its out_trade_no, a refund's row by its out_refund_no
 * @param amounts a payment's amounts (order and settlement) written as this, in yuan, by its out_trade_no
 * @param damage  none; truncated (the download stops half-way); wrong-hash (the hash_value is not the file's);
 *                malformed (the summary counts a row more than the file has, the hash_value is the file's)
 */
public record WechatBillFaults(Boolean late, List<String> drop, Map<String, String> amounts, String damage) {

    public static final WechatBillFaults NONE = new WechatBillFaults(false, List.of(), Map.of(), "none");

    enum Damage {
        NONE, TRUNCATED, WRONG_HASH, MALFORMED
    }

    /** Checked and with every field present, so that a bad body changes nothing and readers need no null checks. */
    WechatBillFaults validated() {
        List<String> dropped = drop == null ? List.of() : List.copyOf(drop);
        Map<String, String> altered = amounts == null ? Map.of() : Map.copyOf(amounts);
        if (dropped.stream().anyMatch(number -> number == null || number.isBlank())) {
            throw new IllegalArgumentException("a dropped bill row is named by its out_trade_no or out_refund_no");
        }
        altered.values().forEach(WechatBillFaults::amount);
        damageKind();
        return new WechatBillFaults(late != null && late, dropped, altered, damage == null ? "none" : damage);
    }

    Damage damageKind() {
        String name = damage == null ? "NONE" : damage.trim().toUpperCase(Locale.ROOT).replace('-', '_');
        try {
            return Damage.valueOf(name);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("damage is one of none, truncated, wrong-hash, malformed: " + damage);
        }
    }

    static BigDecimal amount(String text) {
        try {
            BigDecimal amount = new BigDecimal(text);
            if (amount.signum() > 0 && amount.scale() <= 2) {
                return amount.setScale(2);
            }
        } catch (NumberFormatException | NullPointerException e) {
            // Refused below.
        }
        throw new IllegalArgumentException("a bill amount is yuan above 0 with two decimals at most: " + text);
    }
}
