package com.shop.orders.payment.wechat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.shop.orders.payment.BillEntry;
import com.shop.orders.payment.TradeBill;
import com.shop.orders.payment.UnusableBillException;

/** WeChat Pay's ALL trade bill: rows, refunds, the summary check, and every way a bill is refused whole. */
class WechatBillParserTest {

    private static final ZoneId CHINA = ZoneId.of("Asia/Shanghai");
    private static final LocalDate DAY = LocalDate.of(2026, 12, 1);
    private static final String MCHID = "1900000109";
    private static final String HEADER = "交易时间,公众账号ID,商户号,特约商户号,设备号,微信订单号,商户订单号,用户标识,交易类型,交易状态,付款银行,"
            + "货币种类,应结订单金额,代金券金额,微信退款单号,商户退款单号,退款金额,充值券退款金额,退款类型,退款状态,商品名称,商户数据包,手续费,费率,"
            + "订单金额,申请退款金额,费率备注\n";
    private static final String PAYMENT = "`2026-12-01 10:00:05,`wx8888888888888888,`1900000109,`0,`,"
            + "`4200000001202612011234567890,`202612011000000000000001W,`oUpF8uMuAJO_M2pxb1Q9zNjWeS6o,`NATIVE,`SUCCESS,"
            + "`OTHERS,`CNY,`10.00,`0.00,`0,`0,`0.00,`0.00,`,`,`精选绿茶 500克（礼盒装）,`,`0.06000,`0.60%,`10.00,`0.00,`\n";
    private static final String REFUND = "`2026-12-01 11:30:00,`wx8888888888888888,`1900000109,`0,`,"
            + "`4200000001202612011234567890,`202612011000000000000001W,`oUpF8uMuAJO_M2pxb1Q9zNjWeS6o,`NATIVE,`REFUND,"
            + "`OTHERS,`CNY,`0.00,`0.00,`50300000012026120100000001,`R-1,`2.50,`0.00,`ORIGINAL,`SUCCESS,"
            + "`精选绿茶 500克（礼盒装）,`,`0.00,`0.60%,`0.00,`2.50,`\n";
    private static final String JSAPI = "`2026-12-01 12:00:00,`wx8888888888888888,`1900000109,`0,`,"
            + "`4200000001202612019999999999,`SHOP-COUNTER-7,`oUpF8uMuAJO_M2pxb1Q9zNjWeS6o,`JSAPI,`SUCCESS,"
            + "`OTHERS,`CNY,`3.00,`0.00,`0,`0,`0.00,`0.00,`,`,`柜台收款,`,`0.02000,`0.60%,`3.00,`0.00,`\n";
    private static final String SUMMARY_HEADER = "总交易单数,应结订单总金额,退款总金额,充值券退款总金额,手续费总金额,订单总金额,申请退款总金额\n";

    @Test
    void readsPaymentsAndRefundsWithChineseProductNames() {
        TradeBill bill = parse(HEADER + PAYMENT + REFUND + JSAPI + SUMMARY_HEADER
                + "`3,`13.00,`2.50,`0.00,`0.08000,`13.00,`2.50\n");
        Instant paid = Instant.parse("2026-12-01T02:00:05Z");
        assertEquals(List.of(
                new BillEntry("4200000001202612011234567890", "202612011000000000000001W", BillEntry.Kind.PAYMENT,
                        new BigDecimal("10.00"), "", paid),
                new BillEntry("4200000001202612011234567890", "202612011000000000000001W", BillEntry.Kind.REFUND,
                        new BigDecimal("2.50"), "R-1", Instant.parse("2026-12-01T03:30:00Z")),
                // Not a Native trade of this service: an entry all the same, which the reconciliation reports.
                new BillEntry("4200000001202612019999999999", "SHOP-COUNTER-7", BillEntry.Kind.PAYMENT,
                        new BigDecimal("3.00"), "", Instant.parse("2026-12-01T04:00:00Z"))), bill.entries());
        assertEquals(2, bill.payments());
        assertEquals(1, bill.refunds());
    }

    @Test
    void anEmptyDayHasAHeaderAndASummaryOfNothing() {
        TradeBill bill = parse(HEADER + SUMMARY_HEADER + "`0,`0.00,`0.00,`0.00,`0.00,`0.00,`0.00\n");
        assertEquals(List.of(), bill.entries());
    }

    @Test
    void aSummaryThatDoesNotAddUpMakesTheBillUnusable() {
        refused(HEADER + PAYMENT + REFUND + SUMMARY_HEADER + "`3,`10.00,`2.50,`0.00,`0.06000,`10.00,`2.50\n",
                "counts 3 rows");
        refused(HEADER + PAYMENT + REFUND + SUMMARY_HEADER + "`2,`10.01,`2.50,`0.00,`0.06000,`10.00,`2.50\n",
                "应结订单总金额");
        refused(HEADER + PAYMENT + REFUND + SUMMARY_HEADER + "`2,`10.00,`2.00,`0.00,`0.06000,`10.00,`2.50\n",
                "退款总金额");
        refused(HEADER + PAYMENT + REFUND + SUMMARY_HEADER + "`2,`10.00,`2.50,`0.00,`0.06000,`9.00,`2.50\n",
                "订单总金额");
    }

    @Test
    void aTruncatedOrForeignOrMangledBillIsUnusable() {
        refused(HEADER + PAYMENT + REFUND, "no summary");
        refused(HEADER + PAYMENT + SUMMARY_HEADER, "summary");
        refused("交易时间,商户号,微信订单号\n" + SUMMARY_HEADER + "`0,`0.00,`0.00,`0.00,`0.00,`0.00,`0.00\n",
                "no column");
        refused(HEADER + PAYMENT.replace("`1900000109", "`1900000999") + SUMMARY_HEADER
                + "`1,`10.00,`0.00,`0.00,`0.06000,`10.00,`0.00\n", "merchant 1900000999");
        refused(HEADER + PAYMENT.replace("`10.00,`0.00,`0,", "10.00,`0.00,`0,") + SUMMARY_HEADER
                + "`1,`10.00,`0.00,`0.00,`0.06000,`10.00,`0.00\n", "backtick");
        refused(HEADER + PAYMENT.replace("精选绿茶", "精选,绿茶") + SUMMARY_HEADER
                + "`1,`10.00,`0.00,`0.00,`0.06000,`10.00,`0.00\n", "without its backtick");
        refused(HEADER + PAYMENT.replace("`10.00,`0.00,`0,", "`10.001,`0.00,`0,") + SUMMARY_HEADER
                + "`1,`10.00,`0.00,`0.00,`0.06000,`10.00,`0.00\n", "应结订单金额");
        refused(HEADER + PAYMENT.replace("2026-12-01 10:00:05", "2026-12-01T10:00") + SUMMARY_HEADER
                + "`1,`10.00,`0.00,`0.00,`0.06000,`10.00,`0.00\n", "time");
        refused(HEADER + REFUND.replace("`R-1", "`") + SUMMARY_HEADER
                + "`1,`0.00,`2.50,`0.00,`0.00,`0.00,`2.50\n", "商户退款单号");
    }

    @Test
    void aBillThatIsNotUtf8IsUnusable() {
        String bill = HEADER + PAYMENT + SUMMARY_HEADER + "`1,`10.00,`0.00,`0.00,`0.06000,`10.00,`0.00\n";
        UnusableBillException refused = assertThrows(UnusableBillException.class,
                () -> WechatBillParser.parse(bill.getBytes(Charset.forName("GBK")), DAY, CHINA, MCHID));
        assertTrue(refused.getMessage().contains("UTF-8"), refused.getMessage());
    }

    private static TradeBill parse(String bill) {
        return WechatBillParser.parse(bill.getBytes(StandardCharsets.UTF_8), DAY, CHINA, MCHID);
    }

    private static void refused(String bill, String reason) {
        UnusableBillException refused = assertThrows(UnusableBillException.class, () -> parse(bill));
        assertTrue(refused.getMessage().contains(reason), reason + ": " + refused.getMessage());
    }
}
