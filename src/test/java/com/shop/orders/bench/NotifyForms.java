package com.shop.orders.bench;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Collectors;

import com.alipay.api.AlipayApiException;
import com.alipay.api.internal.util.AlipaySignature;
import com.shop.orders.harness.ServiceStack;
import com.shop.orders.sandbox.alipay.SandboxServer;

/**
 * Alipay's payment notify for an order, form-encoded and signed with the sandbox's Alipay key the way the sandbox's
 * NotifySender does it (every field but sign and sign_type, sorted, RSA2), so the service verifies it like a real one.
 */
final class NotifyForms {

    private static final DateTimeFormatter ALIPAY_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")
            .withZone(ZoneId.of("Asia/Shanghai"));

    private final String alipayPrivateKey;

    NotifyForms(SandboxServer sandbox) {
        this.alipayPrivateKey = sandbox.keys().alipayPrivateKey();
    }

    /** The notify of a payment Alipay never saw (no trade number of its own): the benchmark makes one up. */
    String paid(String orderNo, String amount) {
        return paid(orderNo, amount, "2026" + Math.abs(orderNo.hashCode()) + System.nanoTime() % 100000);
    }

    /** The notify of the payment Alipay numbered {@code tradeNo} (a trade the buyer paid at the sandbox). */
    String paid(String orderNo, String amount, String tradeNo) {
        String now = ALIPAY_TIME.format(Instant.now());
        Map<String, String> fields = new TreeMap<>();
        fields.put("notify_time", now);
        fields.put("notify_type", "trade_status_sync");
        fields.put("notify_id", UUID.randomUUID().toString().replace("-", ""));
        fields.put("app_id", SandboxServer.APP_ID);
        fields.put("auth_app_id", SandboxServer.APP_ID);
        fields.put("charset", "utf-8");
        fields.put("version", "1.0");
        fields.put("trade_no", tradeNo);
        fields.put("out_trade_no", orderNo);
        fields.put("trade_status", "TRADE_SUCCESS");
        fields.put("total_amount", amount);
        fields.put("receipt_amount", amount);
        fields.put("invoice_amount", amount);
        fields.put("buyer_pay_amount", amount);
        fields.put("point_amount", "0.00");
        fields.put("buyer_id", "2088102177846880");
        fields.put("buyer_logon_id", "buyer***@sandbox.com");
        fields.put("seller_id", ServiceStack.SELLER_ID);
        fields.put("subject", "Order " + orderNo);
        fields.put("gmt_create", now);
        fields.put("gmt_payment", now);
        try {
            String content = AlipaySignature.getSignCheckContentV1(fields);
            fields.put("sign", AlipaySignature.rsaSign(content, alipayPrivateKey, "utf-8", "RSA2"));
        } catch (AlipayApiException e) {
            throw new IllegalStateException(e);
        }
        fields.put("sign_type", "RSA2");
        return fields.entrySet().stream()
                .map(e -> e.getKey() + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
    }
}
