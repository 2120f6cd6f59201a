package com.shop.orders.payment;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.arc.DefaultBean;

/** Production keys come from configuration (environment / Kubernetes secret). */
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
}
