package com.shop.orders.sandbox.alipay;

import com.alipay.api.AlipayApiException;
import com.alipay.api.DefaultAlipayClient;
import io.quarkus.test.common.http.TestHTTPResource;
import jakarta.inject.Inject;
import java.net.URL;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** What the in-app sandbox tests start from: the real SDK client on the gateway, and no fault left armed. */
abstract class SandboxFixture {

    @TestHTTPResource("/sandbox/alipay/gateway.do")
    URL gatewayUrl;

    @Inject
    SandboxKeys keys;

    @Inject
    SandboxTrades trades;

    @Inject
    SandboxFaults faults;

    @Inject
    SandboxBuyer buyer;

    DefaultAlipayClient client;

    @BeforeEach
    void client() {
        faults.reset();
        client = SandboxClients.client(gatewayUrl, keys.merchantPrivateKey(), keys.alipayPublicKey());
    }

    @AfterEach
    void resetFaults() {
        faults.reset();
    }

    /** A new trade of this amount, precreated and paid by the buyer. */
    String paidTrade(String amount) throws AlipayApiException {
        String outTradeNo = SandboxClients.newOutTradeNo();
        buyer.pay(SandboxClients.precreate(client, outTradeNo, amount, "", null).getQrCode()).orElseThrow();
        return outTradeNo;
    }
}
