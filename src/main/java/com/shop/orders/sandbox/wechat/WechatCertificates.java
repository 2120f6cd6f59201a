package com.shop.orders.sandbox.wechat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.arc.profile.IfBuildProfile;

/**
 * GET /v3/certificates as WeChat answers it, for the SDK's RSAAutoCertificateConfig (which calls it in build() and
 * hourly after): the platform certificate as PEM, encrypted with the merchant's APIv3 key (AEAD_AES_256_GCM), under
 * its serial and validity; or 404 RESOURCE_NOT_EXISTS while the certificates knob says not-found, as WeChat answers
 * merchants it moved to the public key.
 */
@ApplicationScoped
@IfBuildProfile(anyOf = {"dev", "test"})
public class WechatCertificates {

    static final String CERTIFICATES = "certificates";
    private static final String ASSOCIATED_DATA = "certificate";

    private final WechatCalls calls;
    private final WechatFaults faults;
    private final WechatSandboxKeys keys;

    public WechatCertificates(WechatCalls calls, WechatFaults faults, WechatSandboxKeys keys) {
        this.calls = calls;
        this.faults = faults;
        this.keys = keys;
    }

    WechatAnswer download(String rawUri, String authorization, String algorithmType) {
        return calls.authenticated("GET", rawUri, authorization, "", () -> {
            if (algorithmType != null && !"RSA".equals(algorithmType)) {
                return WechatAnswer.error(400, "PARAM_ERROR", "algorithm_type仅支持RSA");
            }
            return calls.faulted(CERTIFICATES, "", () -> faults.certificatesNotFound()
                    ? WechatAnswer.error(404, "RESOURCE_NOT_EXISTS", "无可用的平台证书，请在商户平台-API安全申请使用微信支付公钥")
                    : WechatAnswer.ok(Map.of("data", List.of(certificate()))));
        });
    }

    private Map<String, Object> certificate() {
        String nonce = WechatSigning.nonce(12);
        Map<String, Object> encrypted = new LinkedHashMap<>();
        encrypted.put("algorithm", "AEAD_AES_256_GCM");
        encrypted.put("nonce", nonce);
        encrypted.put("associated_data", ASSOCIATED_DATA);
        encrypted.put("ciphertext", WechatSigning.encrypt(keys.apiV3Key(), ASSOCIATED_DATA, nonce,
                keys.platformCertificatePem()));
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("serial_no", keys.platformCertificateSerial());
        data.put("effective_time", WechatTime.format(keys.platformCertificate().getNotBefore().toInstant()));
        data.put("expire_time", WechatTime.format(keys.platformCertificate().getNotAfter().toInstant()));
        data.put("encrypt_certificate", encrypted);
        return data;
    }
}
