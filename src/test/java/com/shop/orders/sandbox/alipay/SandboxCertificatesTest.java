package com.shop.orders.sandbox.alipay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.shop.orders.sandbox.CertificateIssuer;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.net.URL;
import java.util.Base64;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.alipay.api.AlipayConfig;
import com.alipay.api.DefaultAlipayClient;
import com.alipay.api.internal.util.AntCertificationUtil;
import com.alipay.api.request.AlipayTradePrecreateRequest;
import com.alipay.api.response.AlipayTradePrecreateResponse;
import com.shop.orders.payment.alipay.SignMode;

/**
 * The sandbox's side of certificate mode against the real SDK: its serial numbers are the ones the SDK computes
 * (written independently, so each checks the other), its certificates chain to its root as the SDK checks them, and
 * its gateway takes certificate-mode calls and refuses those whose serial numbers it does not hold.
 */
class SandboxCertificatesTest {

    private static SandboxServer sandbox;
    private static SandboxKeys keys;

    @BeforeAll
    static void start() throws Exception {
        sandbox = SandboxServer.start(0, SignMode.CERTIFICATE);
        keys = sandbox.keys();
    }

    @AfterAll
    static void stop() {
        sandbox.close();
    }

    @AfterEach
    void resetFaults() {
        sandbox.faults().reset();
    }

    @Test
    void serialNumbersAreTheOnesTheSdkComputes() throws Exception {
        assertEquals(AntCertificationUtil.getCertSN(read(keys.appCertificate())),
                keys.certificates().expectedAppSn(false));
        for (SandboxFaults.AlipayCertificate which : SandboxFaults.AlipayCertificate.values()) {
            X509Certificate certificate = keys.certificates().answeringCertificate(which);
            assertEquals(AntCertificationUtil.getCertSN(certificate), SandboxCertificates.sn(certificate), which.name());
        }
        assertEquals(AntCertificationUtil.getRootCertSN(keys.rootCertificate()), keys.certificates().rootSn());
    }

    @Test
    void issuedAndReissuedCertificatesChainToTheRootAForeignOneDoesNot() throws Exception {
        String root = keys.rootCertificate();
        assertTrue(AntCertificationUtil.isTrusted(keys.appCertificate(), root));
        assertTrue(AntCertificationUtil.isTrusted(keys.alipayCertificate(), root));

        X509Certificate issued = read(keys.alipayCertificate());
        X509Certificate reissued = downloaded(SandboxFaults.AlipayCertificate.REISSUED);
        assertTrue(AntCertificationUtil.isTrusted(CertificateIssuer.pem(reissued), root));
        assertNotEquals(SandboxCertificates.sn(issued), SandboxCertificates.sn(reissued));
        assertEquals(issued.getPublicKey(), reissued.getPublicKey(), "Alipay re-issues for the same key");
        assertFalse(AntCertificationUtil.isTrusted(CertificateIssuer.pem(
                downloaded(SandboxFaults.AlipayCertificate.FOREIGN)), root));
    }

    @Test
    void theGatewayTakesCertificateModeCallsAndRefusesSerialNumbersItDoesNotHold() throws Exception {
        String root = keys.rootCertificate();
        assertEquals("10000", precreate(client(root)).getCode());

        String anotherRoot = CertificateIssuer.pem(CertificateIssuer.newAuthority("CN=Another Root,O=Somebody,C=CN").certificate());
        assertEquals("isv.alipay-root-cert-sn-not-match", precreate(client(anotherRoot)).getSubCode());

        sandbox.faults().appCertificateRenewed(true);
        assertEquals("isv.app-cert-sn-not-match", precreate(client(root)).getSubCode());

        DefaultAlipayClient publicKeyMode = SandboxClients.client(new URL(sandbox.gatewayUrl()),
                keys.merchantPrivateKey(), keys.alipayPublicKey());
        AlipayTradePrecreateResponse withoutSerialNumbers = SandboxClients.precreate(publicKeyMode,
                SandboxClients.newOutTradeNo(), "1.00", "", null);
        assertEquals("isv.missing-app-cert-sn", withoutSerialNumbers.getSubCode());
    }

    private static DefaultAlipayClient client(String rootPem) throws Exception {
        AlipayConfig config = new AlipayConfig();
        config.setServerUrl(sandbox.gatewayUrl());
        config.setAppId(SandboxServer.APP_ID);
        config.setPrivateKey(keys.merchantPrivateKey());
        config.setAppCertContent(keys.appCertificate());
        config.setAlipayPublicCertContent(keys.alipayCertificate());
        config.setRootCertContent(rootPem);
        config.setFormat("json");
        config.setCharset("UTF-8");
        config.setSignType("RSA2");
        return new DefaultAlipayClient(config);
    }

    private static AlipayTradePrecreateResponse precreate(DefaultAlipayClient client) throws Exception {
        AlipayTradePrecreateRequest request = new AlipayTradePrecreateRequest();
        request.setBizContent("{\"out_trade_no\":\"" + SandboxClients.newOutTradeNo()
                + "\",\"total_amount\":\"1.00\",\"subject\":\"certificate mode\"}");
        return client.certificateExecute(request);
    }

    /** The certificate as the gateway's download method hands it out (Base64 of its PEM). */
    private static X509Certificate downloaded(SandboxFaults.AlipayCertificate which) throws Exception {
        String sn = SandboxCertificates.sn(keys.certificates().answeringCertificate(which));
        String content = keys.certificates().download(sn).orElseThrow();
        return read(new String(Base64.getDecoder().decode(content), StandardCharsets.US_ASCII));
    }

    private static X509Certificate read(String pem) throws Exception {
        return (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)));
    }
}
