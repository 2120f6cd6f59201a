package com.shop.orders.payment;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.literal.NamedLiteral;

import io.quarkus.runtime.Startup;

/**
 * The channels this build knows (each a {@link PaymentChannel} bean named as in the API) and the ones this shop
 * offers (shop.payment.channels). New trades open only on an offered channel; trades opened before stay reachable
 * on theirs, so that a channel taken off the checkout still has its trades closed, queried and refunded.
 */
@ApplicationScoped
// Created at start: a channel name the build does not know stops the start, not the first payment.
@Startup
public class PaymentChannels {

    private final Instance<PaymentChannel> known;
    private final List<String> offered;
    private final Map<String, PaymentChannel> byName = new ConcurrentHashMap<>();

    public PaymentChannels(@Any Instance<PaymentChannel> known, PaymentConfig config) {
        this.known = known;
        this.offered = config.channels().stream().map(String::trim).filter(name -> !name.isEmpty()).distinct().toList();
        if (offered.isEmpty()) {
            throw new IllegalStateException("shop.payment.channels names no channel");
        }
        offered.forEach(name -> {
            if (!known.select(NamedLiteral.of(name)).isResolvable()) {
                throw new IllegalStateException("shop.payment.channels names " + name + ", which is no payment channel"
                        + " (known: alipay, wechat)");
            }
        });
    }

    /**
     * Alipay, the channel of every trade before there were channels: of a payment request that names none (when
     * offered), of a trade recorded without one, and the one whose QR links sign what they signed before.
     */
    public static final String ORIGINAL = "alipay";

    /** The channels buyers may pay with, as configured. */
    public List<String> offered() {
        return offered;
    }

    /** The channel of a payment request that names none: Alipay, as before there were channels, when it is offered. */
    public String defaultChannel() {
        return offered.contains(ORIGINAL) ? ORIGINAL : offered.get(0);
    }

    /** An offered channel for a new trade; empty when the shop does not offer it. */
    public Optional<PaymentChannel> offeredNamed(String name) {
        return offered.contains(name) ? Optional.of(of(name)) : Optional.empty();
    }

    /** The channel of an existing trade. */
    public PaymentChannel of(String name) {
        return byName.computeIfAbsent(name, key -> {
            Instance<PaymentChannel> selected = known.select(NamedLiteral.of(key));
            if (!selected.isResolvable()) {
                throw new IllegalStateException("No payment channel named " + key);
            }
            return selected.get();
        });
    }
}
