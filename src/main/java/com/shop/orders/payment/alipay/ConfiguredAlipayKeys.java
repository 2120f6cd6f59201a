package com.shop.orders.payment.alipay;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.arc.DefaultBean;

/** Production keys and certificates come from configuration (environment / Kubernetes secret, or its files). */
@ApplicationScoped
@DefaultBean
public class ConfiguredAlipayKeys implements AlipayKeys {

    private final AlipayConfig config;

    public ConfiguredAlipayKeys(AlipayConfig config) {
        this.config = config;
    }

    @Override
    public String merchantPrivateKey() {
        return config.privateKey().orElseThrow(() -> new IllegalStateException("shop.alipay.private-key (ALIPAY_PRIVATE_KEY) is not set"));
    }

    @Override
    public String alipayPublicKey() {
        return config.alipayPublicKey()
                .orElseThrow(() -> new IllegalStateException("shop.alipay.alipay-public-key (ALIPAY_PUBLIC_KEY) is not set"));
    }

    @Override
    public String appCertificate() {
        return CertificateSetting.app(config).read();
    }

    @Override
    public String alipayCertificate() {
        return CertificateSetting.alipay(config).read();
    }

    @Override
    public String rootCertificate() {
        return CertificateSetting.root(config).read();
    }
}
