package com.shop.orders.payment;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.arc.DefaultBean;

/** Production keys come from configuration (environment / Kubernetes secret). */
@ApplicationScoped
@DefaultBean
public class ConfiguredAlipayKeys implements AlipayKeys {

    private final AlipayGatewayConfig config;

    public ConfiguredAlipayKeys(AlipayGatewayConfig config) {
        this.config = config;
    }

    @Override
    public String merchantPrivateKey() {
        return config.privateKey().orElseThrow(() -> new IllegalStateException("alipay.private-key is not set"));
    }

    @Override
    public String alipayPublicKey() {
        return config.alipayPublicKey()
                .orElseThrow(() -> new IllegalStateException("alipay.alipay-public-key is not set"));
    }
}
