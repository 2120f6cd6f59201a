package com.shop.orders.payment.wechat;

import java.util.List;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * The payment channels the shop offers (shop.payment.channels), as {@link WechatConfigCheck} reads them. A mapping of
 * its own beside the core's PaymentConfig, which does not map this property: a plain @ConfigProperty would leave it
 * unmapped under shop.payment, and SmallRye refuses to start with it set.
 */
@ConfigMapping(prefix = "shop.payment")
public interface OfferedChannels {

    /** Channel names, as a payment request gives them. */
    @WithDefault("alipay")
    List<String> channels();
}
