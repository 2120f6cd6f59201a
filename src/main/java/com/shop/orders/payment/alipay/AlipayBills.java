package com.shop.orders.payment.alipay;

import java.time.LocalDate;

import jakarta.enterprise.context.ApplicationScoped;

import com.shop.orders.payment.BillLimits;
import com.shop.orders.payment.BillNotPublishedException;
import com.shop.orders.payment.ChannelBills;
import com.shop.orders.payment.TradeBill;

import io.smallrye.mutiny.Uni;

/**
 * Alipay's trade bill of a day: the link query ({@code alipay.data.dataservice.bill.downloadurl.query}), then the zip
 * behind the link, parsed by {@link TradeBillParser}.
 */
@ApplicationScoped
public class AlipayBills implements ChannelBills {

    private final AlipayGateway alipay;
    private final BillDownload download;

    public AlipayBills(AlipayGateway alipay, BillDownload download) {
        this.alipay = alipay;
        this.download = download;
    }

    @Override
    public String channel() {
        return AlipayChannel.NAME;
    }

    @Override
    public Uni<TradeBill> of(LocalDate date, BillLimits limits) {
        return alipay.tradeBill(date).chain(link -> link.published()
                ? download.fetch(link.url(), date, limits)
                : Uni.createFrom().failure(new BillNotPublishedException("Alipay", date)));
    }
}
