package com.shop.orders.bench;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Predicate;

import com.shop.orders.sandbox.alipay.TradeSnapshot;
import com.shop.orders.sandbox.wechat.WechatNotifier;
import com.shop.orders.sandbox.wechat.WechatTradeView;

/**
 * A payment as the benchmark drives it on either wallet (alipay, wechat): the member's request for the wallet's QR
 * code (the prepay), the buyer paying at the wallet's sandbox with the notify lost, and the wallet's notify, signed
 * (and for WeChat encrypted) as the sandbox sends it, for the benchmark to send at a rate of its own. The wallets
 * phase and the soak share it.
 */
final class WalletPayments {

    private final Bench bench;
    private final NotifyForms alipayNotifies;

    WalletPayments(Bench bench) {
        this.bench = bench;
        this.alipayNotifies = new NotifyForms(bench.stack().sandbox());
    }

    /** The member's request for the order's QR code at the wallet ({@code POST /api/orders/{id}/payment}): 200. */
    HttpRequest prepay(long orderId, String token, String wallet, Duration timeout) {
        return HttpRequest.newBuilder(URI.create(bench.service().apiUrl() + "/api/orders/" + orderId + "/payment"))
                .timeout(timeout)
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"channel\":\"" + wallet + "\"}")).build();
    }

    /**
     * The wallet's notify that the order is paid: for a trade the buyer paid at the sandbox, the notify of that
     * payment (its trade number); for an unpaid one, as if the buyer had paid it now (the sandbox's trade stays
     * unpaid).
     */
    HttpRequest notify(String wallet, String orderNo, String amount, Duration timeout) {
        HttpRequest.Builder request = HttpRequest.newBuilder(
                        URI.create(bench.service().apiUrl() + "/api/payments/" + wallet + "/notify"))
                .timeout(timeout);
        if (wallet.equals("alipay")) {
            String form = bench.stack().sandbox().trades().trade(orderNo).map(TradeSnapshot::tradeNo)
                    .map(tradeNo -> alipayNotifies.paid(orderNo, amount, tradeNo))
                    .orElseGet(() -> alipayNotifies.paid(orderNo, amount));
            return request.header("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")
                    .POST(HttpRequest.BodyPublishers.ofString(form)).build();
        }
        WechatNotifier.Notify notify = bench.stack().wechatSandbox().paymentNotify(wechatTradeNo(orderNo))
                .orElseThrow(() -> new IllegalStateException("no WeChat trade for order " + orderNo));
        notify.headers().forEach(request::header);
        return request.header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(notify.body())).build();
    }

    /** Alipay answers "success" once the order is PAID; WeChat's notify is answered 204. */
    static Predicate<HttpResponse<String>> answered(String wallet) {
        return wallet.equals("alipay") ? response -> response.statusCode() == 200 && "success".equals(response.body())
                : response -> response.statusCode() == 204;
    }

    /**
     * The buyer pays the order's code at the wallet, whose notify is lost: when it was paid there; empty when the
     * wallet has no trade for the order.
     */
    Optional<Instant> payWithoutNotify(String wallet, String orderNo) {
        if (wallet.equals("alipay")) {
            return bench.stack().sandbox().trades().trade(orderNo).map(TradeSnapshot::qrCode)
                    .flatMap(bench.stack().sandbox()::payWithoutNotify).map(TradeSnapshot::paidAt);
        }
        return bench.stack().wechatSandbox().trades().trade(wechatTradeNo(orderNo)).map(WechatTradeView::codeUrl)
                .flatMap(bench.stack().wechatSandbox()::payWithoutNotify).map(WechatTradeView::successTime);
    }

    /** WeChat's out_trade_no of an order: its number and "W". */
    private static String wechatTradeNo(String orderNo) {
        return orderNo + "W";
    }
}
