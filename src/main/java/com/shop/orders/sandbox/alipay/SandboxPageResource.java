package com.shop.orders.sandbox.alipay;

import static com.shop.orders.sandbox.SandboxPage.escape;

import com.shop.orders.sandbox.SandboxPage;
import io.quarkus.arc.profile.IfBuildProfile;
import io.smallrye.common.annotation.NonBlocking;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;

/** A page for people: the sandbox's trades with buttons to scan and pay them as the buyer would. */
@Path(SandboxPage.ALIPAY)
@IfBuildProfile(anyOf = {"dev", "test"})
public class SandboxPageResource {

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
        StringBuilder html = SandboxPage.start("Alipay sandbox", SandboxPage.ALIPAY, SandboxPage.WECHAT,
                "WeChat Pay trades", "https://qr.alipay.com/sbx…");
        html.append("<p>Gateway: <code>POST /sandbox/alipay/gateway.do</code></p>\n")
                .append(SandboxPage.faults(FaultSettings.of(faults)));
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
                    .append("</code></td><td>").append(SandboxPage.buttons(t.qrCode()))
                    .append("</td></tr>");
        }
        return html.append("</table></body></html>").toString();
    }
}
