package com.shop.orders.sandbox.wechat;

import static com.shop.orders.sandbox.SandboxPage.escape;

import java.time.Instant;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import com.shop.orders.sandbox.SandboxPage;

import io.quarkus.arc.profile.IfBuildProfile;
import io.smallrye.common.annotation.NonBlocking;

/**
 * A page for people: the WeChat sandbox's trades and their refunds, a field to paste a weixin:// code into and pay
 * it as the buyer's phone would, and buttons to scan and pay each trade's, as the Alipay page has.
 */
@Path(WechatGateway.PATH_PREFIX)
@IfBuildProfile(anyOf = {"dev", "test"})
public class WechatSandboxPageResource {

    private final WechatTrades trades;
    private final WechatFaults faults;
    private final WechatSandboxKeys keys;

    public WechatSandboxPageResource(WechatTrades trades, WechatFaults faults, WechatSandboxKeys keys) {
        this.trades = trades;
        this.faults = faults;
        this.keys = keys;
    }

    @GET
    @Produces(MediaType.TEXT_HTML)
    @NonBlocking
    public String page() {
        StringBuilder html = SandboxPage.start("WeChat Pay sandbox", SandboxPage.WECHAT, SandboxPage.ALIPAY,
                "Alipay trades", "weixin://wxpay/bizpayurl?pr=…");
        html.append("<p>API: <code>/sandbox/wechat/v3/pay/transactions/…</code>, <code>/v3/refund/domestic/refunds")
                .append("</code>, <code>/v3/certificates</code> &middot; public-key ID <code>")
                .append(keys.publicKeyId()).append("</code> &middot; platform certificate <code>")
                .append(keys.platformCertificateSerial()).append("</code></p>\n")
                .append(SandboxPage.faults(WechatFaultSettings.of(faults)));
        html.append("<table><tr><th>out_trade_no</th><th>description</th><th>amount (fen)</th><th>refunded</th>")
                .append("<th>trade_state</th><th>expires</th><th>transaction_id</th><th>notifies</th>")
                .append("<th>code_url</th><th></th></tr>");
        for (WechatTradeView t : trades.trades()) {
            html.append("<tr><td>").append(escape(t.outTradeNo()))
                    .append("</td><td>").append(escape(t.description()))
                    .append("</td><td>").append(t.total())
                    .append("</td><td>").append(t.refunded()).append(refunds(t))
                    .append("</td><td>").append(t.tradeState())
                    .append("</td><td>").append(WechatTime.format(t.expiresAt()))
                    .append(t.expiresAt().isBefore(Instant.now()) ? " (past)" : "")
                    .append("</td><td>").append(t.transactionId() == null ? "" : t.transactionId())
                    .append("</td><td>").append(t.notifyAttempts()).append(t.notifyAcknowledged() ? " (acknowledged)" : "")
                    .append("</td><td><code>").append(escape(t.codeUrl()))
                    .append("</code></td><td>").append(SandboxPage.buttons(t.codeUrl()))
                    .append("</td></tr>");
        }
        return html.append("</table></body></html>").toString();
    }

    /** Each refund of the trade: number, amount, status, and its notify when the merchant asked for one. */
    private static String refunds(WechatTradeView trade) {
        StringBuilder list = new StringBuilder();
        for (WechatRefundView r : trade.refunds()) {
            list.append("<br><small>").append(escape(r.outRefundNo())).append(": ").append(r.amount()).append(' ')
                    .append(r.status());
            if (r.notified()) {
                list.append(", notifies ").append(r.notifyAttempts()).append(r.notifyAcknowledged() ? " (acknowledged)" : "");
            }
            list.append("</small>");
        }
        return list.toString();
    }
}
