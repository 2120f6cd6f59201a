package com.shop.orders.sandbox.wechat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.security.KeyPair;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import com.shop.orders.sandbox.KeyPairs;
import com.wechat.pay.java.core.auth.WechatPay2Credential;
import com.wechat.pay.java.core.cipher.RSASigner;
import com.wechat.pay.java.core.cipher.RSAVerifier;
import com.wechat.pay.java.core.notification.NotificationParser;
import com.wechat.pay.java.core.notification.RSAPublicKeyNotificationConfig;
import com.wechat.pay.java.core.notification.RequestParam;
import com.wechat.pay.java.service.payments.model.Transaction;

/**
 * The sandbox's side of WeChat Pay's cryptography against the official SDK's: what the SDK signs verifies here
 * (over the raw, percent-encoded path), and what the sandbox signs and encrypts the SDK verifies and decrypts.
 */
class WechatSigningTest {

    private static final String MCHID = "1900000001";
    private static final String PUBLIC_KEY_ID = "PUB_KEY_ID_0119000000012025120600000000000001";
    private static final String API_V3_KEY = "0123456789abcdefABCDEF0123456789";

    private final KeyPair merchant = KeyPairs.newRsaPair();
    private final KeyPair platform = KeyPairs.newRsaPair();

    @Test
    void aRequestTheSdkSignedVerifiesOverItsRawPathAndQuery() {
        WechatPay2Credential credential = new WechatPay2Credential(MCHID, new RSASigner("5157F09EFDC096DE15EBE81A47057A72",
                merchant.getPrivate()));
        String rawPath = "/v3/pay/transactions/out-trade-no/ORDER%7C001*x?mchid=" + MCHID;
        String header = credential.getAuthorization(URI.create("https://api.mch.weixin.qq.com" + rawPath), "GET", "");

        WechatSigning.Authorization authorization = WechatSigning.Authorization.parse(header);
        assertNotNull(authorization, header);
        assertEquals(MCHID, authorization.mchid());
        assertEquals("5157F09EFDC096DE15EBE81A47057A72", authorization.serialNo());
        assertEquals(32, authorization.nonce().length());
        String message = WechatSigning.requestMessage("GET", rawPath, authorization.timestamp(), authorization.nonce(), "");
        assertTrue(WechatSigning.verify(message, authorization.signature(), merchant.getPublic()));
        // Decoded, the path is not what was signed; nor is another method, or another merchant's key.
        assertFalse(WechatSigning.verify(message.replace("%7C", "|"), authorization.signature(), merchant.getPublic()));
        assertFalse(WechatSigning.verify(message.replace("GET", "POST"), authorization.signature(), merchant.getPublic()));
        assertFalse(WechatSigning.verify(message, authorization.signature(), platform.getPublic()));
        assertFalse(WechatSigning.verify(message, "not base64!", merchant.getPublic()));
        assertNull(WechatSigning.Authorization.parse("WECHATPAY2-SHA256-RSA2048 mchid=\"1\""));
        assertNull(WechatSigning.Authorization.parse("Bearer x"));
    }

    @Test
    void anAnswerTheSandboxSignedVerifiesInTheSdk() {
        String timestamp = String.valueOf(Instant.now().getEpochSecond());
        String nonce = WechatSigning.nonce(32);
        String body = "{\"code_url\":\"weixin://wxpay/bizpayurl?pr=abc\"}";
        String signature = WechatSigning.sign(WechatSigning.answerMessage(timestamp, nonce, body), platform.getPrivate());
        RSAVerifier verifier = new RSAVerifier(platform.getPublic(), PUBLIC_KEY_ID);
        assertTrue(verifier.verify(PUBLIC_KEY_ID, WechatSigning.answerMessage(timestamp, nonce, body), signature));
        // A 204's empty body is signed too.
        String empty = WechatSigning.sign(WechatSigning.answerMessage(timestamp, nonce, ""), platform.getPrivate());
        assertTrue(verifier.verify(PUBLIC_KEY_ID, WechatSigning.answerMessage(timestamp, nonce, null), empty));
        assertFalse(verifier.verify(PUBLIC_KEY_ID, WechatSigning.answerMessage(timestamp, nonce, body + " "), signature));
    }

    @Test
    void aNotifyTheSandboxEncryptedAndSignedIsReadByTheSdk() {
        String transaction = """
                {"appid":"wxd678efh567hg6787","mchid":"1900000001","out_trade_no":"202612061000000001-W",\
                "transaction_id":"4200000000202612060000000001","trade_type":"NATIVE","trade_state":"SUCCESS",\
                "trade_state_desc":"支付成功","success_time":"2026-12-06T10:00:05+08:00",\
                "amount":{"total":1250,"payer_total":1250,"currency":"CNY","payer_currency":"CNY"}}""";
        String resourceNonce = WechatSigning.nonce(12);
        String ciphertext = WechatSigning.encrypt(API_V3_KEY, "transaction", resourceNonce, transaction);
        String body = notify(ciphertext, resourceNonce);
        String timestamp = String.valueOf(Instant.now().getEpochSecond());
        String nonce = WechatSigning.nonce(32);
        String signature = WechatSigning.sign(WechatSigning.answerMessage(timestamp, nonce, body), platform.getPrivate());

        Transaction read = parser().parse(request(body, timestamp, nonce, signature), Transaction.class);
        assertEquals("202612061000000001-W", read.getOutTradeNo());
        assertEquals(Transaction.TradeStateEnum.SUCCESS, read.getTradeState());
        assertEquals(1250, read.getAmount().getTotal());

        // A ciphertext changed after signing fails the signature; one signed as changed fails the decryption.
        String tampered = notify(ciphertext.substring(0, 10) + (ciphertext.charAt(10) == 'A' ? 'B' : 'A')
                + ciphertext.substring(11), resourceNonce);
        assertThrows(RuntimeException.class, () -> parser().parse(request(tampered, timestamp, nonce, signature),
                Transaction.class));
        String resigned = WechatSigning.sign(WechatSigning.answerMessage(timestamp, nonce, tampered), platform.getPrivate());
        assertThrows(RuntimeException.class, () -> parser().parse(request(tampered, timestamp, nonce, resigned),
                Transaction.class));
    }

    private static String notify(String ciphertext, String resourceNonce) {
        return "{\"id\":\"EV-2018022511223320873\",\"create_time\":\"2026-12-06T10:00:06+08:00\","
                + "\"resource_type\":\"encrypt-resource\",\"event_type\":\"TRANSACTION.SUCCESS\",\"summary\":\"支付成功\","
                + "\"resource\":{\"original_type\":\"transaction\",\"algorithm\":\"AEAD_AES_256_GCM\",\"ciphertext\":\""
                + ciphertext + "\",\"associated_data\":\"transaction\",\"nonce\":\"" + resourceNonce + "\"}}";
    }

    private RequestParam request(String body, String timestamp, String nonce, String signature) {
        return new RequestParam.Builder().serialNumber(PUBLIC_KEY_ID).nonce(nonce).signature(signature)
                .timestamp(timestamp).signType("WECHATPAY2-SHA256-RSA2048").body(body).build();
    }

    private NotificationParser parser() {
        return new NotificationParser(new RSAPublicKeyNotificationConfig.Builder().publicKey(platform.getPublic())
                .publicKeyId(PUBLIC_KEY_ID).apiV3Key(API_V3_KEY).build());
    }
}
