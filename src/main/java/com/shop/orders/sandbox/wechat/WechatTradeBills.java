package com.shop.orders.sandbox.wechat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.zip.GZIPOutputStream;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.arc.profile.IfBuildProfile;

/**
 * WeChat Pay's trade bill of the sandbox's own trades ({@code GET /v3/bill/tradebill}, bill_type ALL): where it is
 * (a signed answer: download_url, SHA-1 of the file), and the file behind the link for 5 minutes, unsigned, gzipped
 * for tar_type GZIP. The file is WeChat's ALL layout in UTF-8: a header line, a row per payment on its success day and
 * per refund on its success day (China time), every field after a backtick, amounts in yuan, then the summary header
 * and its row. Refund rows carry the refund's amounts, their order amounts are 0.00 (WeChat's pages do not show which).
 *
 * <p>The download_url names WeChat's host, as WeChat's does: the merchant's client sends it where it sends every call
 * (to this sandbox in dev and test), signed over its path and token, as at WeChat.
 *
 * <p>Unlike WeChat, which makes a day's bill after 10:00 the next day, the sandbox serves a day's bill at once, the day
 * in progress included, so that a test can reconcile the day it made; the {@code late} knob stands for a bill not made
 * yet. The knobs of {@link WechatBillFaults} apply.
 */
@ApplicationScoped
@IfBuildProfile(anyOf = {"dev", "test"})
public class WechatTradeBills {

    /** The bill query's name for the fault knobs. */
    static final String TRADE_BILL = "tradebill";
    static final String DOWNLOAD_PATH = "/v3/billdownload/file";
    private static final String WECHAT_HOST = "https://api.mch.weixin.qq.com";
    private static final Duration LINK_VALIDITY = Duration.ofMinutes(5);
    private static final ZoneId CHINA = ZoneId.of("Asia/Shanghai");
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(CHINA);
    static final String HEADER = "交易时间,公众账号ID,商户号,特约商户号,设备号,微信订单号,商户订单号,用户标识,交易类型,交易状态,付款银行,"
            + "货币种类,应结订单金额,代金券金额,微信退款单号,商户退款单号,退款金额,充值券退款金额,退款类型,退款状态,商品名称,商户数据包,手续费,费率,"
            + "订单金额,申请退款金额,费率备注";
    static final String SUMMARY_HEADER = "总交易单数,应结订单总金额,退款总金额,充值券退款总金额,手续费总金额,订单总金额,申请退款总金额";

    private record Issued(byte[] file, Instant expiresAt) {
    }

    /** One row: its time, and its fields without backticks. */
    private record Row(Instant at, String number, List<String> fields) {
    }

    private final WechatTrades trades;
    private final WechatFaults faults;
    private final WechatCalls calls;
    private final WechatSandboxConfig config;
    private final ConcurrentMap<String, Issued> issued = new ConcurrentHashMap<>();
    private final SecureRandom random = new SecureRandom();

    public WechatTradeBills(WechatTrades trades, WechatFaults faults, WechatCalls calls, WechatSandboxConfig config) {
        this.trades = trades;
        this.faults = faults;
        this.calls = calls;
        this.config = config;
    }

    /** GET /v3/bill/tradebill: the merchant's signature, WeChat's parameter checks, the fault knobs, then the link. */
    WechatAnswer locate(String rawUri, String authorization, String billDate, String billType, String tarType) {
        return calls.authenticated("GET", rawUri, authorization, "", () -> {
            LocalDate day;
            try {
                day = LocalDate.parse(billDate == null ? "" : billDate);
            } catch (DateTimeParseException e) {
                return WechatAnswer.error(400, "PARAM_ERROR", "bill_date格式错误，应为yyyy-MM-dd");
            }
            if (billType != null && !"ALL".equals(billType)) {
                return WechatAnswer.error(400, "PARAM_ERROR", "the sandbox makes bill_type ALL only");
            }
            if (tarType != null && !"GZIP".equals(tarType)) {
                return WechatAnswer.error(400, "PARAM_ERROR", "tar_type只能为GZIP");
            }
            return calls.faulted(TRADE_BILL, billDate, () -> link(day, tarType != null, Instant.now()));
        });
    }

    private WechatAnswer link(LocalDate day, boolean gzip, Instant now) {
        WechatBillFaults knobs = faults.bill();
        if (knobs.late() || day.isAfter(LocalDate.ofInstant(now, CHINA))) {
            return WechatAnswer.error(400, "NO_STATEMENT_EXIST", "账单文件不存在");
        }
        byte[] file = file(day, knobs).getBytes(StandardCharsets.UTF_8);
        String hash = sha1(knobs.damageKind() == WechatBillFaults.Damage.WRONG_HASH
                ? Arrays.copyOf(file, file.length + 1) : file);
        byte[] served = gzip ? gzip(file) : file;
        if (knobs.damageKind() == WechatBillFaults.Damage.TRUNCATED) {
            served = Arrays.copyOf(served, served.length / 2);
        }
        issued.values().removeIf(link -> !link.expiresAt().isAfter(now));
        String token = HexFormat.of().formatHex(randomBytes());
        issued.put(token, new Issued(served, now.plus(LINK_VALIDITY)));
        return WechatAnswer.ok(Map.of("hash_type", "SHA1", "hash_value", hash,
                "download_url", WECHAT_HOST + DOWNLOAD_PATH + "?token=" + token));
    }

    /** The file behind a link, or the error answered instead. */
    record Download(byte[] file, WechatAnswer error) {
    }

    /** GET on the download_url: the merchant's signature, then the file, unsigned; 404 once the link has expired. */
    Download download(String rawUri, String authorization, String token) {
        WechatAnswer refused = calls.authenticated("GET", rawUri, authorization, "", () -> null);
        if (refused != null) {
            return new Download(null, refused);
        }
        Issued link = token == null ? null : issued.get(token);
        if (link == null || !link.expiresAt().isAfter(Instant.now())) {
            return new Download(null, WechatAnswer.error(404, "RESOURCE_NOT_EXISTS", "下载链接已过期"));
        }
        return new Download(link.file(), null);
    }

    /** The day's bill file, as it would be served now (before gzip and the download's damage). */
    public String file(LocalDate day, WechatBillFaults knobs) {
        Instant start = day.atStartOfDay(CHINA).toInstant();
        Instant end = day.plusDays(1).atStartOfDay(CHINA).toInstant();
        List<Row> rows = new ArrayList<>();
        for (WechatTradeView trade : trades.trades()) {
            if (within(trade.successTime(), start, end) && !knobs.drop().contains(trade.outTradeNo())) {
                String altered = knobs.amounts().get(trade.outTradeNo());
                rows.add(payment(trade, altered != null ? WechatBillFaults.amount(altered) : yuan(trade.total())));
            }
            for (WechatRefundView refund : trade.refunds()) {
                if ("SUCCESS".equals(refund.status()) && within(refund.successTime(), start, end)
                        && !knobs.drop().contains(refund.outRefundNo())) {
                    rows.add(refund(trade, refund));
                }
            }
        }
        rows.sort(Comparator.comparing(Row::at).thenComparing(Row::number));
        StringBuilder csv = new StringBuilder(HEADER).append('\n');
        BigDecimal settled = BigDecimal.ZERO.setScale(2);
        BigDecimal refunded = BigDecimal.ZERO.setScale(2);
        for (Row row : rows) {
            csv.append(String.join(",", row.fields().stream().map(field -> "`" + field).toList())).append('\n');
            settled = settled.add(new BigDecimal(row.fields().get(12)));
            refunded = refunded.add(new BigDecimal(row.fields().get(16)));
        }
        int count = rows.size() + (knobs.damageKind() == WechatBillFaults.Damage.MALFORMED ? 1 : 0);
        csv.append(SUMMARY_HEADER).append('\n');
        csv.append(String.join(",", List.of(String.valueOf(count), settled.toPlainString(), refunded.toPlainString(),
                "0.00", "0.00", settled.toPlainString(), refunded.toPlainString()).stream().map(f -> "`" + f).toList()))
                .append('\n');
        return csv.toString();
    }

    private Row payment(WechatTradeView trade, BigDecimal amount) {
        String total = amount.toPlainString();
        return new Row(trade.successTime(), trade.outTradeNo(), List.of(TIME.format(trade.successTime()),
                config.appid(), config.mchid(), "0", "", trade.transactionId(), trade.outTradeNo(), WechatTrade.OPENID,
                "NATIVE", "SUCCESS", "OTHERS", "CNY", total, "0.00", "0", "0", "0.00", "0.00", "", "",
                productName(trade.description()), "", "0.00", "0.60%", total, "0.00", ""));
    }

    private Row refund(WechatTradeView trade, WechatRefundView refund) {
        String amount = yuan(refund.amount()).toPlainString();
        return new Row(refund.successTime(), refund.outRefundNo(), List.of(TIME.format(refund.successTime()),
                config.appid(), config.mchid(), "0", "", trade.transactionId(), trade.outTradeNo(), WechatTrade.OPENID,
                "NATIVE", "REFUND", "OTHERS", "CNY", "0.00", "0.00", refund.refundId(), refund.outRefundNo(), amount,
                "0.00", "ORIGINAL", "SUCCESS", productName(trade.description()), "", "0.00", "0.60%", "0.00", amount,
                ""));
    }

    /** A product name as a field: a comma would end it, so it is written full-width. */
    private static String productName(String description) {
        return description == null ? "" : description.replace(',', '，').replace('\n', ' ');
    }

    private static boolean within(Instant at, Instant start, Instant end) {
        return at != null && !at.isBefore(start) && at.isBefore(end);
    }

    private static BigDecimal yuan(int fen) {
        return BigDecimal.valueOf(fen, 2);
    }

    private static String sha1(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] gzip(byte[] bytes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream zip = new GZIPOutputStream(out)) {
            zip.write(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private byte[] randomBytes() {
        byte[] bytes = new byte[16];
        random.nextBytes(bytes);
        return bytes;
    }
}
