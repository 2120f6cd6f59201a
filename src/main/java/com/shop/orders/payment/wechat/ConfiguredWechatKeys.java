package com.shop.orders.payment.wechat;

import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.arc.DefaultBean;

/** Production keys come from configuration (environment / Kubernetes secret, or its files). */
@ApplicationScoped
@DefaultBean
public class ConfiguredWechatKeys implements WechatKeys {

    private final WechatConfig config;

    public ConfiguredWechatKeys(WechatConfig config) {
        this.config = config;
    }

    @Override
    public String merchantPrivateKeyPem() {
        return PemSetting.privateKey(config).read();
    }

    @Override
    public String merchantSerial() {
        return required(config.merchantSerial(), "WECHAT_MERCHANT_SERIAL (shop.wechat.merchant-serial)");
    }

    @Override
    public String apiV3Key() {
        return required(config.apiV3Key(), "WECHAT_API_V3_KEY (shop.wechat.api-v3-key)");
    }

    @Override
    public String publicKeyId() {
        return required(config.publicKeyId(), "WECHAT_PUBLIC_KEY_ID (shop.wechat.public-key-id)");
    }

    @Override
    public String platformPublicKeyPem() {
        return PemSetting.publicKey(config).read();
    }

    private static String required(Optional<String> value, String setting) {
        return value.filter(v -> !v.isBlank()).orElseThrow(() -> new IllegalStateException(setting + " is not set"));
    }
}
