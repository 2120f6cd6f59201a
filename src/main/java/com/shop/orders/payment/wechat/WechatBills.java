package com.shop.orders.payment.wechat;

import java.time.LocalDate;

import jakarta.enterprise.context.ApplicationScoped;

import com.shop.orders.payment.BillLimits;
import com.shop.orders.payment.BillNotPublishedException;
import com.shop.orders.payment.ChannelBills;
import com.shop.orders.payment.TradeBill;
import com.shop.orders.payment.UnusableBillException;
import com.shop.orders.resilience.MutinyBridge;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;

/**
 * WeChat Pay's trade bill of a day (bill_type ALL): asked for and downloaded through the SDK on the WeChat bulkhead
 * ({@link WechatGateway#tradeBill}), checked against its SHA-1, then parsed on a worker thread
 * ({@link WechatBillParser}): a big bill is never read on an event loop.
 */
@ApplicationScoped
public class WechatBills implements ChannelBills {

    private final WechatGateway wechat;
    private final WechatConfig config;

    public WechatBills(WechatGateway wechat, WechatConfig config) {
        this.wechat = wechat;
        this.config = config;
    }

    @Override
    public String channel() {
        return WechatChannel.NAME;
    }

    @Override
    public Uni<TradeBill> of(LocalDate date, BillLimits limits) {
        // The whole download is bounded too: the SDK's client bounds each read only.
        return wechat.tradeBill(date, limits.maxBytes() * 10)
                .ifNoItem().after(limits.timeout().multipliedBy(2)).fail()
                .chain(file -> {
                    if (file.isEmpty()) {
                        return Uni.createFrom().failure(new BillNotPublishedException(WechatGateway.WALLET, date));
                    }
                    if (file.get().damage() != null) {
                        return Uni.createFrom().failure(new UnusableBillException(file.get().damage()));
                    }
                    return parse(file.get().content(), date, limits);
                });
    }

    private Uni<TradeBill> parse(byte[] content, LocalDate date, BillLimits limits) {
        String mchid = config.mchid().orElse("");
        return MutinyBridge.backOnContext(Uni.createFrom()
                .item(() -> WechatBillParser.parse(content, date, limits.zone(), mchid))
                .runSubscriptionOn(Infrastructure.getDefaultWorkerPool()));
    }
}
