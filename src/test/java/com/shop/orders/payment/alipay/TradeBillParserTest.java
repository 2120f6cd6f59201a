package com.shop.orders.payment.alipay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import org.junit.jupiter.api.Test;

import com.shop.orders.payment.BillEntry;
import com.shop.orders.payment.TradeBill;
import com.shop.orders.payment.UnusableBillException;

/** The bill's layout as Alipay documents it, written here by hand (not by the sandbox), and the ways it goes wrong. */
class TradeBillParserTest {

    private static final Charset GBK = Charset.forName("GBK");
    private static final ZoneId CHINA = ZoneId.of("Asia/Shanghai");
    private static final LocalDate DAY = LocalDate.of(2026, 12, 1);
    private static final String HEAD = """
            #支付宝业务明细查询
            #账号：[20881021000000990156]
            #起始日期：[2026年12月01日 00:00:00]   终止日期：[2026年12月02日 00:00:00]
            #-----------------------------------------业务明细列表----------------------------------------
            支付宝交易号,商户订单号,业务类型,商品名称,创建时间,完成时间,门店编号,门店名称,操作员,终端号,对方账户,订单金额（元）,商家实收（元）,支付宝红包（元）,集分宝（元）,支付宝优惠（元）,商家优惠（元）,券核销金额（元）,券名称,商家红包消费金额（元）,卡消费金额（元）,退款批次号/请求号,服务费（元）,分润（元）,备注
            """;
    private static final String PAYMENT = "2026120122001400001111111111\t,O2026120100001\t,交易,\"T-shirt, black\",2026-12-01 10:00:00,"
            + "2026-12-01 10:00:05,,,,,sbx***@sandbox.example,59.00,59.00,0.00,0.00,0.00,0.00,0.00,,0.00,0.00,,-0.36,0.00,\n";
    private static final String REFUND = "2026120122001400001111111111\t,O2026120100001\t,退款,T-shirt,2026-12-01 10:00:00,"
            + "2026-12-01 23:59:59,,,,,sbx***@sandbox.example,59.00,-59.00,0.00,0.00,0.00,0.00,0.00,,0.00,0.00,"
            + "O2026120100001-refund,0.36,0.00,\n";
    private static final String TAIL = """
            #-----------------------------------------业务明细列表结束------------------------------------
            #交易合计：1笔，退款合计：1笔
            #导出时间：[2026年12月02日 09:00:01]
            """;
    private static final String SUMMARY = """
            #支付宝业务汇总查询
            #账号：[20881021000000990156]
            #-----------------------------------------业务汇总列表----------------------------------------
            门店编号,门店名称,交易订单总笔数,退款订单总笔数,已收入总金额（元）,商家实收（元）
            ,,1,1,59.00,0.00
            合计,,1,1,59.00,0.00
            #-----------------------------------------业务汇总列表结束------------------------------------
            """;

    @Test
    void readsPaymentsAndRefundsOfAlipaysLayout() {
        TradeBill bill = parse(zip(HEAD + PAYMENT + REFUND + TAIL, SUMMARY, GBK));
        assertEquals(List.of(
                new BillEntry("2026120122001400001111111111", "O2026120100001", BillEntry.Kind.PAYMENT,
                        new BigDecimal("59.00"), "", Instant.parse("2026-12-01T02:00:05Z")),
                new BillEntry("2026120122001400001111111111", "O2026120100001", BillEntry.Kind.REFUND,
                        new BigDecimal("59.00"), "O2026120100001-refund", Instant.parse("2026-12-01T15:59:59Z"))),
                bill.entries());
        assertEquals(1, bill.payments());
        assertEquals(1, bill.refunds());
    }

    @Test
    void anEmptyDayIsABill() {
        String tail = TAIL.replace("1笔，退款合计：1笔", "0笔，退款合计：0笔");
        assertEquals(List.of(), parse(zip(HEAD + tail, SUMMARY.replace("1,1", "0,0"), GBK)).entries());
    }

    @Test
    void aBillThatCannotBeTrustedAsAWholeIsRefusedWithItsReason() {
        assertRefused(zip(HEAD + PAYMENT, SUMMARY, GBK), "truncated");
        assertRefused(zip(HEAD + PAYMENT + REFUND + TAIL, SUMMARY, StandardCharsets.UTF_8), "not GBK");
        assertRefused((HEAD + PAYMENT + REFUND + TAIL).getBytes(GBK), "zip");
        assertRefused(zip(HEAD + PAYMENT + TAIL, SUMMARY, GBK), "counts 1 payments and 1 refunds");
        assertRefused(zip(HEAD + PAYMENT + REFUND + TAIL, SUMMARY.replace("合计,,1,1", "合计,,2,1"), GBK), "summary");
        assertRefused(zip(HEAD.replace("12月01日 00", "11月30日 00") + PAYMENT + REFUND + TAIL, SUMMARY, GBK),
                "2026-11-30");
        assertRefused(zip(HEAD.replace("商户订单号", "订单号") + PAYMENT + REFUND + TAIL, SUMMARY, GBK), "商户订单号");
        assertRefused(zip(HEAD + PAYMENT.replace("交易", "转账") + REFUND + TAIL, SUMMARY, GBK), "转账");
        assertRefused(zip(HEAD + PAYMENT.replace("59.00,59.00", "59.0x,59.00") + REFUND + TAIL, SUMMARY, GBK),
                "订单金额");
        assertRefused(zip(HEAD + PAYMENT + REFUND + TAIL, null, GBK), "汇总");
    }

    @Test
    void aZipBombIsRefused() {
        String padding = "#" + "x".repeat(100_000) + "\n";
        byte[] bill = zip(padding + HEAD + PAYMENT + REFUND + TAIL, SUMMARY, GBK);
        UnusableBillException refused = assertThrows(UnusableBillException.class,
                () -> TradeBillParser.parse(bill, DAY, CHINA, 50_000));
        assertTrue(refused.getMessage().contains("larger unzipped"), refused.getMessage());
    }

    @Test
    void csvFieldsAreSplitOutsideQuotesAndTrimmed() {
        assertEquals(List.of("a", "b, c", "say \"hi\"", "", "7"),
                TradeBillParser.fields("a\t,\"b, c\",\"say \"\"hi\"\"\",,7\t"));
    }

    private static TradeBill parse(byte[] zip) {
        return TradeBillParser.parse(zip, DAY, CHINA, 10_000_000);
    }

    private static void assertRefused(byte[] zip, String reason) {
        UnusableBillException refused = assertThrows(UnusableBillException.class, () -> parse(zip));
        assertTrue(refused.getMessage().contains(reason), refused.getMessage() + " should say " + reason);
    }

    private static byte[] zip(String detail, String summary, Charset charset) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(bytes, GBK)) {
            zip.putNextEntry(new ZipEntry("20881021000000990156_20261201_业务明细.csv"));
            zip.write(detail.getBytes(charset));
            zip.closeEntry();
            if (summary != null) {
                zip.putNextEntry(new ZipEntry("20881021000000990156_20261201_业务明细(汇总).csv"));
                zip.write(summary.getBytes(charset));
                zip.closeEntry();
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return bytes.toByteArray();
    }
}
