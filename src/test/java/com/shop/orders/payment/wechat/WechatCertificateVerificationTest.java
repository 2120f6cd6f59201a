package com.shop.orders.payment.wechat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import com.wechat.pay.java.core.certificate.AutoCertificateService;
import com.wechat.pay.java.service.payments.model.Transaction;

import com.shop.orders.order.OrderEvents;
import com.shop.orders.payment.PaymentGatewayException;
import com.shop.orders.payment.Trade;
import com.shop.orders.payment.TradeState;
import com.shop.orders.sandbox.wechat.WechatNotifies;
import com.shop.orders.sandbox.wechat.WechatSandboxKeys;
import com.shop.orders.sandbox.wechat.WechatSandboxServer;
import com.shop.orders.tracing.Spans;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.api.trace.TracerProvider;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;

/**
 * The channel of a merchant that verifies with WeChat's platform certificates (shop.wechat.verification=certificate):
 * the SDK downloads them from the sandbox's /v3/certificates at the first call, not at start, and a platform that
 * serves none leaves the channel unavailable (503) until it does; answers and notifies are then verified with the
 * downloaded certificate, named by its serial, and nothing signed under another serial is believed.
 *
 * <p>The service's WeChat classes as the application wires them, against the sandbox on a server of its own: a mode
 * the in-app suite does not run (it verifies with WeChat's public key), without a second application start for it.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WechatCertificateVerificationTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    /** The sandbox's merchant (shop.wechat-sandbox.mchid and appid, their defaults). */
    private static final String MCHID = "1900000001";
    private static final String APPID = "wxd678efh567hg6787";

    private static WechatSandboxServer sandbox;
    private static WechatGateway gateway;
    private static WechatChannel channel;
    private static WechatNotifyReader notifies;

    @BeforeAll
    static void certificateMode() {
        sandbox = WechatSandboxServer.start(0);
        Map<String, String> settings = new HashMap<>(sandbox.serviceSettings());
        settings.put("shop.wechat.verification", "certificate");
        settings.put("shop.wechat.notify-url", "http://127.0.0.1:1/api/payments/wechat/notify");
        settings.put("shop.wechat.refund-notify-url", "http://127.0.0.1:1/api/payments/wechat/refund-notify");
        // Quarkus's own converter: its durations ("3s") are no ISO-8601.
        WechatConfig config = new SmallRyeConfigBuilder().withConverter(Duration.class, 100, new DurationConverter())
                .withMapping(WechatConfig.class)
                .withSources(new PropertiesConfigSource(settings, "test", 100)).build()
                .getConfigMapping(WechatConfig.class);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        // Timeline notes only queue here: nothing writes them without the application's scheduler.
        gateway = new WechatGateway(config, new ConfiguredWechatKeys(config),
                new Spans(TracerProvider.noop().get("test")), new OrderEvents(null, Clock.systemUTC(), registry),
                registry);
        channel = new WechatChannel(gateway, config);
        notifies = new WechatNotifyReader(gateway);
        sandbox.faults().dropNotifies(true);
    }

    @AfterAll
    static void stop() {
        gateway.stop();
        sandbox.close();
    }

    @AfterEach
    void resetFaults() {
        sandbox.faults().reset();
        sandbox.faults().dropNotifies(true);
    }

    @Test
    @Order(1)
    void aPlatformWithoutCertificatesLeavesTheChannelUnavailableUntilItHasThem() {
        sandbox.faults().certificatesNotFound(true);
        String outTradeNo = channel.outTradeNoOf(WechatChannelTest.orderNo());
        PaymentGatewayException unavailable = assertThrows(PaymentGatewayException.class, () -> query(outTradeNo));
        assertEquals(503, unavailable.status());
        // A notify cannot be verified either: a failure of ours (the application answers 500), which WeChat sends again.
        String notify = notify(outTradeNo, "NOTPAY");
        assertThrows(RuntimeException.class, () -> read(notify, keys().platformCertificateSerial()));

        sandbox.faults().certificatesNotFound(false);
        assertEquals(Trade.notFound(outTradeNo), query(outTradeNo));
        assertEquals(keys().platformCertificate(),
                AutoCertificateService.getCertificate(MCHID, "RSA", keys().platformCertificateSerial()));
    }

    @Test
    @Order(2)
    void answersAndNotifiesAreVerifiedWithTheDownloadedCertificate() {
        String outTradeNo = channel.outTradeNoOf(WechatChannelTest.orderNo());
        String codeUrl = channel.offer(outTradeNo, new BigDecimal("7.00"), "Order", Instant.now().plus(
                Duration.ofMinutes(15))).await().atMost(WAIT);
        assertEquals(TradeState.WAITING, query(outTradeNo).state());
        sandbox.pay(codeUrl).orElseThrow();
        assertEquals(TradeState.PAID, query(outTradeNo).state());
        sandbox.faults().wrongSerial(true);
        assertEquals("Payment provider answer not trusted",
                assertThrows(PaymentGatewayException.class, () -> query(outTradeNo)).title());
        sandbox.faults().wrongSerial(false);

        String paid = notify(outTradeNo, "SUCCESS");
        WechatNotifyReader.Verified<?> verified = assertInstanceOf(WechatNotifyReader.Verified.class,
                read(paid, keys().platformCertificateSerial()));
        assertEquals(outTradeNo, ((Transaction) verified.resource()).getOutTradeNo());
        // Not believed under the public-key ID, which this merchant does not use.
        WechatNotifyReader.Refused refused = assertInstanceOf(WechatNotifyReader.Refused.class,
                read(paid, keys().publicKeyId()));
        assertEquals(401, refused.status());
    }

    private static WechatSandboxKeys keys() {
        return sandbox.keys();
    }

    private static Trade query(String outTradeNo) {
        return channel.query(outTradeNo).await().atMost(WAIT);
    }

    private static String notify(String outTradeNo, String tradeState) {
        return WechatNotifies.envelope("TRANSACTION.SUCCESS", keys().apiV3Key(),
                WechatNotifyTest.transaction(MCHID, APPID, outTradeNo, tradeState, 700));
    }

    private static WechatNotifyReader.Reading read(String body, String serial) {
        Map<String, String> headers = WechatNotifies.signed(keys(), body, serial);
        return notifies.read(new WechatNotifyRequest(headers.get("Wechatpay-Serial"), headers.get("Wechatpay-Signature"),
                headers.get("Wechatpay-Timestamp"), headers.get("Wechatpay-Nonce"),
                headers.get("Wechatpay-Signature-Type"), body), Transaction.class).await().atMost(WAIT);
    }
}
