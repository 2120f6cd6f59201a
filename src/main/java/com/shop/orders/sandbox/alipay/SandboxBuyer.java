package com.shop.orders.sandbox.alipay;

import io.quarkus.arc.profile.IfBuildProfile;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.Optional;

/** The simulated buyer with the Alipay app: scans QR codes and pays, which starts the payment notify. */
@ApplicationScoped
@IfBuildProfile(anyOf = {"dev", "test"})
public class SandboxBuyer {

    private final SandboxTrades trades;
    private final NotifySender notifier;

    public SandboxBuyer(SandboxTrades trades, NotifySender notifier) {
        this.trades = trades;
        this.notifier = notifier;
    }

    /**
     * Scanning makes the precreated QR code a trade in WAIT_BUYER_PAY. Empty for an unknown QR code;
     * throws {@link BuyerActionRefused} for an expired, closed or paid one.
     */
    public Optional<TradeSnapshot> scan(String qrCode) {
        return trades.byQrCode(qrCode).map(trade -> {
            Instant now = Instant.now();
            trade.scan(now);
            return trade.snapshot(now);
        });
    }

    /** Scans if needed, then pays; same answers as {@link #scan}. */
    public Optional<TradeSnapshot> pay(String qrCode) {
        return trades.byQrCode(qrCode).map(trade -> {
            Instant now = Instant.now();
            trade.pay(now);
            notifier.paymentMade(trade);
            return trade.snapshot(now);
        });
    }
}
