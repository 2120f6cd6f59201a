package com.shop.orders.sandbox.wechat;

import static com.shop.orders.sandbox.SandboxPageResource.escape;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import io.quarkus.arc.profile.IfBuildProfile;
import io.smallrye.common.annotation.NonBlocking;

/** A page for people: the WeChat sandbox's trades with buttons to scan and pay them, as the Alipay page has. */
@Path(WechatGateway.PATH_PREFIX)
@IfBuildProfile(anyOf = {"dev", "test"})
public class WechatSandboxPageResource {

    private static final String SCRIPT = """
            <script>
            async function act(action, codeUrl) {
              const answer = await fetch('/sandbox/wechat/buyer/' + action, {method: 'POST',
                  headers: {'Content-Type': 'application/json'}, body: JSON.stringify({codeUrl})});
              if (!answer.ok) { alert(action + ': ' + ((await answer.json()).error || answer.status)); }
              location.reload();
            }
            async function resetFaults() { await fetch('/sandbox/wechat/faults', {method: 'DELETE'}); location.reload(); }
            </script>
            """;

    private final WechatTrades trades;
    private final WechatFaults faults;

    public WechatSandboxPageResource(WechatTrades trades, WechatFaults faults) {
        this.trades = trades;
        this.faults = faults;
    }

    @GET
    @Produces(MediaType.TEXT_HTML)
    @NonBlocking
    public String page() {
        StringBuilder html = new StringBuilder("""
                <!DOCTYPE html>
                <html><head><meta charset="utf-8"><title>WeChat Pay sandbox</title>
                <style>body{font-family:sans-serif}td,th{padding:4px 8px;border-bottom:1px solid #ddd}</style>
                </head><body><h1>WeChat Pay sandbox</h1>
                """);
        html.append("<p>API: <code>/sandbox/wechat/v3/pay/transactions/…</code> &middot; <a href=\"/sandbox/alipay\">")
                .append("Alipay sandbox</a> &middot; <a href=\"\">refresh</a></p>");
        html.append("<p>Faults: <code>").append(escape(String.valueOf(WechatFaultSettings.of(faults))))
                .append("</code> <button onclick=\"resetFaults()\">reset faults</button></p>");
        html.append("<table><tr><th>out_trade_no</th><th>description</th><th>amount (fen)</th><th>refunded</th>")
                .append("<th>trade_state</th>")
                .append("<th>expires</th><th>transaction_id</th><th>notifies</th><th>code_url</th><th></th></tr>");
        for (WechatTradeView t : trades.trades()) {
            String code = escape(t.codeUrl());
            html.append("<tr><td>").append(escape(t.outTradeNo()))
                    .append("</td><td>").append(escape(t.description()))
                    .append("</td><td>").append(t.total())
                    .append("</td><td>").append(t.refunded()).append(refunds(t))
                    .append("</td><td>").append(t.tradeState())
                    .append("</td><td>").append(t.expiresAt())
                    .append("</td><td>").append(t.transactionId() == null ? "" : t.transactionId())
                    .append("</td><td>").append(t.notifyAttempts()).append(t.notifyAcknowledged() ? " (acknowledged)" : "")
                    .append("</td><td><code>").append(code).append("</code></td><td>")
                    .append("<button onclick=\"act('scan','").append(code).append("')\">scan</button> ")
                    .append("<button onclick=\"act('pay','").append(code).append("')\">pay</button>")
                    .append("</td></tr>");
        }
        return html.append("</table>").append(SCRIPT).append("</body></html>").toString();
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
