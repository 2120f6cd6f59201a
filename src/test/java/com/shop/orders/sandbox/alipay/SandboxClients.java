package com.shop.orders.sandbox.alipay;

import com.alipay.api.AlipayApiException;
import com.alipay.api.AlipayClient;
import com.alipay.api.DefaultAlipayClient;
import com.alipay.api.internal.util.AlipayLogger;
import com.alipay.api.domain.AlipayTradeFastpayRefundQueryModel;
import com.alipay.api.request.AlipayTradeFastpayRefundQueryRequest;
import com.alipay.api.request.AlipayTradePrecreateRequest;
import com.alipay.api.request.AlipayTradeQueryRequest;
import com.alipay.api.request.AlipayTradeRefundRequest;
import com.alipay.api.response.AlipayTradeFastpayRefundQueryResponse;
import com.alipay.api.response.AlipayTradePrecreateResponse;
import com.alipay.api.response.AlipayTradeQueryResponse;
import com.alipay.api.response.AlipayTradeRefundResponse;
import java.net.URL;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.UUID;

/** The real Alipay SDK client, pointed at the sandbox the way the application points it. */
final class SandboxClients {

    static final String APP_ID = "2021000000000001";
    private static final DateTimeFormatter CHINA_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")
            .withZone(ZoneId.of("Asia/Shanghai"));

    static {
        AlipayLogger.setNeedEnableLogger(false);
    }

    private SandboxClients() {
    }

    static DefaultAlipayClient client(URL gateway, String merchantPrivateKey, String alipayPublicKey) {
        return new DefaultAlipayClient(gateway.toString(), APP_ID, merchantPrivateKey, "json", "utf-8",
                alipayPublicKey, "RSA2");
    }

    /** A merchant private key the sandbox has never seen (PKCS#8, bare Base64). */
    static String foreignPrivateKey() throws NoSuchAlgorithmException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        return Base64.getEncoder().encodeToString(generator.generateKeyPair().getPrivate().getEncoded());
    }

    /** An "Alipay public key" that did not sign anything the sandbox sends (X.509, bare Base64). */
    static String foreignPublicKey() throws NoSuchAlgorithmException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        return Base64.getEncoder().encodeToString(generator.generateKeyPair().getPublic().getEncoded());
    }

    static String newOutTradeNo() {
        return "SBX" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
    }

    static String chinaTime(Instant instant) {
        return CHINA_TIME.format(instant);
    }

    static AlipayTradePrecreateResponse precreate(AlipayClient client, String outTradeNo, String amount,
                                                  String extraBiz, String notifyUrl) throws AlipayApiException {
        AlipayTradePrecreateRequest request = new AlipayTradePrecreateRequest();
        request.setBizContent("{\"out_trade_no\":\"" + outTradeNo + "\",\"total_amount\":\"" + amount
                + "\",\"subject\":\"沙箱测试商品 & co\"" + extraBiz + "}");
        request.setNotifyUrl(notifyUrl);
        return client.execute(request);
    }

    static AlipayTradeQueryResponse query(AlipayClient client, String outTradeNo) throws AlipayApiException {
        AlipayTradeQueryRequest request = new AlipayTradeQueryRequest();
        request.setBizContent("{\"out_trade_no\":\"" + outTradeNo + "\"}");
        return client.execute(request);
    }

    static AlipayTradeRefundResponse refund(AlipayClient client, String outTradeNo, String amount, String requestNo)
            throws AlipayApiException {
        AlipayTradeRefundRequest request = new AlipayTradeRefundRequest();
        request.setBizContent("{\"out_trade_no\":\"" + outTradeNo + "\",\"refund_amount\":\"" + amount
                + "\",\"out_request_no\":\"" + requestNo + "\"}");
        return client.execute(request);
    }

    /** The refund query as the SDK's model writes it; a null requestNo is left out. */
    static AlipayTradeFastpayRefundQueryResponse refundQuery(AlipayClient client, String outTradeNo, String requestNo)
            throws AlipayApiException {
        AlipayTradeFastpayRefundQueryModel model = new AlipayTradeFastpayRefundQueryModel();
        model.setOutTradeNo(outTradeNo);
        model.setOutRequestNo(requestNo);
        AlipayTradeFastpayRefundQueryRequest request = new AlipayTradeFastpayRefundQueryRequest();
        request.setBizModel(model);
        return client.execute(request);
    }
}
