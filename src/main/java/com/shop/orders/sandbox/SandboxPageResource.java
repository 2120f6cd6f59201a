package com.shop.orders.sandbox;

import io.quarkus.arc.profile.IfBuildProfile;
import io.smallrye.common.annotation.NonBlocking;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;

/** A page for people: the sandbox's trades with buttons to scan and pay them as the buyer would. */
@Path("/sandbox/alipay")
@IfBuildProfile(anyOf = {"dev", "test"})
public class SandboxPageResource {

    private static final String SCRIPT = """
            <script>
            async function act(action, qrCode) {
              const answer = await fetch('/sandbox/alipay/buyer/' + action, {method: 'POST',
                  headers: {'Content-Type': 'application/json'}, body: JSON.stringify({qrCode})});
              if (!answer.ok) { alert(action + ': ' + ((await answer.json()).error || answer.status)); }
              location.reload();
            }
            async function resetFaults() { await fetch('/sandbox/alipay/faults', {method: 'DELETE'}); location.reload(); }
            </script>
            """;

    private final SandboxTrades trades;
    private final SandboxFaults faults;

    public SandboxPageResource(SandboxTrades trades, SandboxFaults faults) {
        this.trades = trades;
        this.faults = faults;
    }

    @GET
    @Produces(MediaType.TEXT_HTML)
    @NonBlocking
    public String page() {
        StringBuilder html = new StringBuilder("""
                <!DOCTYPE html>
                <html><head><meta charset="utf-8"><title>Alipay sandbox</title>
                <style>body{font-family:sans-serif}td,th{padding:4px 8px;border-bottom:1px solid #ddd}</style>
                </head><body><h1>Alipay sandbox</h1>
                """);
        html.append("<p>Gateway: <code>POST /sandbox/alipay/gateway.do</code> &middot; <a href=\"\">refresh</a></p>");
        html.append("<p>Faults: <code>").append(escape(String.valueOf(FaultSettings.of(faults))))
                .append("</code> <button onclick=\"resetFaults()\">reset faults</button></p>");
        html.append("<table><tr><th>out_trade_no</th><th>subject</th><th>amount</th><th>refunded</th><th>status</th>")
                .append("<th>expires</th><th>trade_no</th><th>notifies</th><th>QR code</th><th></th></tr>");
        for (TradeSnapshot t : trades.trades()) {
            html.append("<tr><td>").append(escape(t.outTradeNo()))
                    .append("</td><td>").append(escape(t.subject()))
                    .append("</td><td>").append(Money.format(t.totalAmount()))
                    .append("</td><td>").append(Money.format(t.refundedAmount()))
                    .append("</td><td>").append(t.status())
                    .append("</td><td>").append(AlipayTime.format(t.expiresAt()))
                    .append(t.expiresAt().isBefore(Instant.now()) ? " (past)" : "")
                    .append("</td><td>").append(t.tradeNo() == null ? "" : t.tradeNo())
                    .append("</td><td>").append(t.notifyAttempts()).append(t.notifyAcknowledged() ? " (acknowledged)" : "")
                    .append("</td><td><code>").append(escape(t.qrCode()))
                    .append("</code></td><td>");
            String qr = escape(t.qrCode());
            html.append("<button onclick=\"act('scan','").append(qr).append("')\">scan</button> ")
                    .append("<button onclick=\"act('pay','").append(qr).append("')\">pay</button>")
                    .append("</td></tr>");
        }
        return html.append("</table>").append(SCRIPT).append("</body></html>").toString();
    }

    /** HTML text and attribute escaping, for both sandboxes' pages. */
    public static String escape(String text) {
        if (text == null) {
            return "";
        }
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                .replace("\"", "&quot;").replace("'", "&#39;");
    }
}
