package com.shop.orders.sandbox.alipay;

import io.quarkus.arc.profile.IfBuildProfile;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import com.shop.orders.payment.alipay.TradeBillCharset;

/**
 * Alipay's trade bill of the sandbox's own trades ({@code alipay.data.dataservice.bill.downloadurl.query},
 * {@code bill_type=trade}): a link that works for 30 seconds to a zip of two GBK CSV files in Alipay's layout, the
 * details (payments and refunds that completed that day, China time) and their summary, with the knobs of
 * {@link BillFaults} applied.
 *
 * <p>Unlike Alipay, which makes a day's bill by 09:00 the next day, the sandbox serves a day's bill at once, the
 * day in progress included, so that a test can reconcile the day it made; the {@code late} knob stands for a bill
 * not made yet.
 */
@ApplicationScoped
@IfBuildProfile(anyOf = {"dev", "test"})
public class TradeBills {

    static final String METHOD = "alipay.data.dataservice.bill.downloadurl.query";
    static final String DOWNLOAD_PATH = "/bills/";
    private static final String ACCOUNT = SandboxTrade.SELLER_ID + "0156";
    private static final DateTimeFormatter FILE_DAY = DateTimeFormatter.BASIC_ISO_DATE;
    private static final DateTimeFormatter HEADER_TIME = DateTimeFormatter.ofPattern("yyyy年MM月dd日 HH:mm:ss");
    private static final String DETAIL_COLUMNS = "支付宝交易号,商户订单号,业务类型,商品名称,创建时间,完成时间,门店编号,门店名称,操作员,"
            + "终端号,对方账户,订单金额（元）,商家实收（元）,支付宝红包（元）,集分宝（元）,支付宝优惠（元）,商家优惠（元）,券核销金额（元）,券名称,"
            + "商家红包消费金额（元）,卡消费金额（元）,退款批次号/请求号,服务费（元）,分润（元）,备注";
    private static final String SUMMARY_COLUMNS = "门店编号,门店名称,交易订单总笔数,退款订单总笔数,已收入总金额（元）,商家实收（元）,"
            + "支付宝优惠（元）,商家优惠（元）,卡消费金额（元）,服务费（元）,分润（元）,实收净额（元）";

    private record Issued(byte[] zip, Instant expiresAt) {
    }

    private final SandboxTrades trades;
    private final SandboxFaults faults;
    private final SandboxConfig config;
    private final ConcurrentMap<String, Issued> issued = new ConcurrentHashMap<>();
    private final SecureRandom random = new SecureRandom();

    public TradeBills(SandboxTrades trades, SandboxFaults faults, SandboxConfig config) {
        this.trades = trades;
        this.faults = faults;
        this.config = config;
    }

    /** The answer node of the link query; {@code baseUrl} is where this sandbox is reached ({@code …/sandbox/alipay}). */
    Map<String, Object> downloadUrl(GatewayCall call, String baseUrl) {
        String billType = call.required("bill_type", 32);
        if (!"trade".equals(billType)) {
            throw TradeRejected.invalidParameter("the sandbox makes bill_type trade only");
        }
        LocalDate day;
        try {
            day = LocalDate.parse(call.required("bill_date", 10));
        } catch (DateTimeParseException e) {
            throw TradeRejected.invalidParameter("bill_date must be yyyy-MM-dd");
        }
        if (faults.bill().late() || day.isAfter(LocalDate.ofInstant(call.now(), AlipayTime.CHINA))) {
            throw new TradeRejected("isp.bill_not_exist", "账单不存在");
        }
        issued.values().removeIf(link -> !link.expiresAt().isAfter(call.now()));
        String token = HexFormat.of().formatHex(randomBytes());
        issued.put(token, new Issued(zip(day, call.now()), call.now().plus(config.billLinkValidity())));
        return AlipayAnswers.success("bill_download_url", baseUrl + DOWNLOAD_PATH + token);
    }

    /** The zip behind a link, while the link works. */
    public Optional<byte[]> download(String token) {
        Issued link = issued.get(token);
        return link == null || !link.expiresAt().isAfter(Instant.now()) ? Optional.empty() : Optional.of(link.zip());
    }

    /** The bill of {@code day} as the link would serve it now. */
    public byte[] zip(LocalDate day, Instant now) {
        BillFaults knobs = faults.bill();
        List<BillLine> lines = lines(day, knobs);
        String dayName = FILE_DAY.format(day);
        String detail = detail(day, lines, now);
        String summary = summary(day, lines, now);
        BillFaults.Damage damage = knobs.damageKind();
        if (damage == BillFaults.Damage.TRUNCATED) {
            detail = detail.substring(0, detail.indexOf('\n', detail.indexOf(DETAIL_COLUMNS)) + 1);
        }
        if (damage == BillFaults.Damage.NOT_ZIP) {
            return detail.getBytes(TradeBillCharset.GBK);
        }
        Charset charset = damage == BillFaults.Damage.UTF8 ? StandardCharsets.UTF_8 : TradeBillCharset.GBK;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(bytes, TradeBillCharset.GBK)) {
            zip.putNextEntry(new ZipEntry(ACCOUNT + "_" + dayName + "_业务明细.csv"));
            zip.write(detail.getBytes(charset));
            zip.closeEntry();
            zip.putNextEntry(new ZipEntry(ACCOUNT + "_" + dayName + "_业务明细(汇总).csv"));
            zip.write(summary.getBytes(charset));
            zip.closeEntry();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** The day's payments and refunds, by completion time, with rows dropped, altered and added by the knobs. */
    private List<BillLine> lines(LocalDate day, BillFaults knobs) {
        Instant start = day.atStartOfDay(AlipayTime.CHINA).toInstant();
        Instant end = day.plusDays(1).atStartOfDay(AlipayTime.CHINA).toInstant();
        List<BillLine> lines = new ArrayList<>();
        for (SandboxTrade trade : trades.all()) {
            for (BillLine line : trade.billLines(start, end)) {
                if (knobs.drop().stream().anyMatch(row -> row.matches(line))) {
                    continue;
                }
                String altered = knobs.amounts().get(line.outTradeNo());
                lines.add(altered != null && line.type() == BillLine.Type.PAYMENT
                        ? line.withAmount(BillFaults.amount(altered)) : line);
            }
        }
        Instant midday = start.plusSeconds(12 * 3600);
        for (BillFaults.Row row : knobs.add()) {
            BigDecimal amount = BillFaults.amount(row.amount());
            // Made up once per order number, so that every download of the day's bill agrees.
            String tradeNo = row.tradeNo() != null ? row.tradeNo()
                    : FILE_DAY.format(day) + "22001" + String.format("%015d", Math.abs((long) row.outTradeNo().hashCode()));
            lines.add(new BillLine(tradeNo, row.outTradeNo(), BillLine.Type.PAYMENT, "sandbox", midday, midday,
                    amount, amount, "").withType(row.lineType()));
        }
        lines.sort(Comparator.comparing(BillLine::finishedAt));
        return lines;
    }

    private static String detail(LocalDate day, List<BillLine> lines, Instant now) {
        StringBuilder csv = header("#支付宝业务明细查询", day, "业务明细列表");
        csv.append(DETAIL_COLUMNS).append('\n');
        for (BillLine line : lines) {
            // Alipay ends numbers that Excel would mangle with a tab.
            csv.append(line.tradeNo()).append('\t').append(',')
                    .append(line.outTradeNo()).append('\t').append(',')
                    .append(line.type().label).append(',')
                    .append(quoted(line.subject())).append(',')
                    .append(AlipayTime.format(line.createdAt())).append(',')
                    .append(AlipayTime.format(line.finishedAt())).append(',')
                    .append(",,,,")
                    .append(SandboxTrade.BUYER_LOGON_ID).append(',')
                    .append(Money.format(line.orderAmount())).append(',')
                    .append(line.received().setScale(2).toPlainString()).append(',')
                    .append("0.00,0.00,0.00,0.00,0.00,,0.00,0.00,")
                    .append(line.requestNo()).append(',')
                    .append("0.00,0.00,")
                    .append('\n');
        }
        long payments = lines.stream().filter(l -> l.type() == BillLine.Type.PAYMENT).count();
        csv.append("#-----------------------------------------业务明细列表结束------------------------------------\n");
        csv.append("#交易合计：").append(payments).append("笔，退款合计：").append(lines.size() - payments).append("笔\n");
        csv.append("#导出时间：[").append(HEADER_TIME.format(now.atZone(AlipayTime.CHINA))).append("]\n");
        return csv.toString();
    }

    private static String summary(LocalDate day, List<BillLine> lines, Instant now) {
        long payments = lines.stream().filter(l -> l.type() == BillLine.Type.PAYMENT).count();
        BigDecimal ordered = lines.stream().filter(l -> l.type() == BillLine.Type.PAYMENT).map(BillLine::orderAmount)
                .reduce(Money.ZERO, BigDecimal::add);
        BigDecimal received = lines.stream().map(BillLine::received).reduce(Money.ZERO, BigDecimal::add);
        StringBuilder csv = header("#支付宝业务汇总查询", day, "业务汇总列表");
        csv.append(SUMMARY_COLUMNS).append('\n');
        String totals = payments + "," + (lines.size() - payments) + "," + Money.format(ordered) + ","
                + received.setScale(2).toPlainString() + ",0.00,0.00,0.00,0.00,0.00," + received.setScale(2).toPlainString();
        csv.append(",,").append(totals).append('\n');
        csv.append("合计,,").append(totals).append('\n');
        csv.append("#-----------------------------------------业务汇总列表结束------------------------------------\n");
        csv.append("#导出时间：[").append(HEADER_TIME.format(now.atZone(AlipayTime.CHINA))).append("]\n");
        return csv.toString();
    }

    private static StringBuilder header(String title, LocalDate day, String table) {
        return new StringBuilder(title).append('\n')
                .append("#账号：[").append(ACCOUNT).append("]\n")
                .append("#起始日期：[").append(HEADER_TIME.format(day.atStartOfDay())).append("]   终止日期：[")
                .append(HEADER_TIME.format(day.plusDays(1).atStartOfDay())).append("]\n")
                .append("#-----------------------------------------").append(table)
                .append("----------------------------------------\n");
    }

    private static String quoted(String text) {
        String value = text == null ? "" : text;
        return value.contains(",") || value.contains("\"") ? '"' + value.replace("\"", "\"\"") + '"' : value;
    }

    private byte[] randomBytes() {
        byte[] bytes = new byte[16];
        random.nextBytes(bytes);
        return bytes;
    }
}
