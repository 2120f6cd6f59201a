package com.shop.orders.payment.wechat;

import java.util.Map;
import java.util.UUID;

import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.ExampleObject;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import org.jboss.logging.Logger;

import com.shop.orders.sql.DatabaseUnavailable;
import com.shop.orders.web.ApiContract;
import com.shop.orders.web.Problem;

import io.smallrye.mutiny.Uni;

/**
 * WeChat Pay's payment notify. WeChat sends it again until it is answered 2xx (it reads the status, not the body), so
 * anything not safely handled answers 4xx or 5xx, with the body WeChat's rules ask for ({"code":"FAIL","message"}),
 * here as extension members of the problem. Unauthenticated: the body is read raw, because the signature covers its
 * exact bytes, and no malformed body reaches a framework error.
 */
@Path(WechatNotifyResource.PATH)
@PermitAll
@Tag(name = ApiContract.PAYMENT)
public class WechatNotifyResource {

    static final String PATH = "/api/payments/wechat/notify";
    private static final Logger LOG = Logger.getLogger(WechatNotifyResource.class);

    private final WechatNotifyHandler handler;

    public WechatNotifyResource(WechatNotifyHandler handler) {
        this.handler = handler;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(operationId = "receiveWechatPayNotify",
            summary = "WeChat Pay's payment notify", description = "Called by WeChat Pay, not by clients. The body's "
            + "signature is verified against WeChat Pay's public key (or platform certificate) named by "
            + "Wechatpay-Serial, its resource decrypted with the APIv3 key, then the merchant, the app, the trade and "
            + "its amount checked. Any answer but 2xx makes WeChat send the notify again later.")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(type = SchemaType.OBJECT, description = "WeChat's notify envelope (id, create_time, "
                    + "event_type, resource_type, summary, resource: the transaction, AEAD_AES_256_GCM encrypted)"),
            examples = @ExampleObject(name = "paid", value = """
                    {"id":"EV-2018022511223320873","create_time":"2026-06-01T08:03:05+08:00",\
                    "resource_type":"encrypt-resource","event_type":"TRANSACTION.SUCCESS","summary":"支付成功",\
                    "resource":{"original_type":"transaction","algorithm":"AEAD_AES_256_GCM","ciphertext":"...",\
                    "associated_data":"transaction","nonce":"fdasflkja484w"}}""")))
    @APIResponse(responseCode = "204", description = "Handled (also a duplicate, a payment that came after the order "
            + "closed and was given back, and a notify of another event): WeChat stops sending it")
    @APIResponse(responseCode = "400", description = "Verified, but not ours or not acceptable (another merchant or "
            + "app, a resource that does not decrypt or read, an amount that is not the order's, an unknown trade); "
            + "nothing was changed", content = @Content(mediaType = Problem.MEDIA_TYPE,
                    schema = @Schema(implementation = Problem.class),
                    examples = @ExampleObject(name = "refused", value = "{\"type\":\"about:blank\",\"title\":"
                            + "\"Notify refused\",\"status\":400,\"detail\":\"not this app's notify\",\"instance\":"
                            + "\"/api/payments/wechat/notify\",\"code\":\"FAIL\",\"message\":\"not this app's notify\"}")))
    @APIResponse(responseCode = "401", ref = ApiContract.WECHAT_NOTIFY_NOT_VERIFIED)
    @APIResponse(responseCode = "413", ref = ApiContract.PAYLOAD_TOO_LARGE)
    @APIResponse(responseCode = "415", ref = ApiContract.UNSUPPORTED_MEDIA_TYPE)
    @APIResponse(responseCode = "500", ref = ApiContract.WECHAT_NOTIFY_NOT_HANDLED)
    @APIResponse(responseCode = "503", ref = ApiContract.WECHAT_NOTIFY_UNAVAILABLE)
    public Uni<Response> notify(@BeanParam WechatNotifyHeaders headers, String body) {
        return answered(handler.handle(headers.with(body)), PATH);
    }

    /** A notify's answer as WeChat reads it (any notify at {@code path}: payment, refund). */
    static Uni<Response> answered(Uni<NotifyAnswer> handled, String path) {
        return handled.map(answer -> answer(answer, path))
                // WeChat will send it again: nothing is lost by answering 5xx now.
                .onFailure().recoverWithItem(failure -> notHandled(failure, path));
    }

    private static Response answer(NotifyAnswer answer, String path) {
        if (answer.handled()) {
            return Response.noContent().build();
        }
        return fail(answer.status(), answer.status() == 401 ? "Notify not verified" : "Notify refused",
                answer.message(), path).build();
    }

    private static Response notHandled(Throwable failure, String path) {
        if (DatabaseUnavailable.isCause(failure)) {
            LOG.warnf("WeChat Pay notify not handled: the database is unavailable (%s)", failure.toString());
            return fail(503, "Notify not handled", "database unavailable", path)
                    .header(HttpHeaders.RETRY_AFTER, "2").build();
        }
        String errorId = UUID.randomUUID().toString();
        LOG.warnf("WeChat Pay notify not handled, error id %s: %s", errorId, WechatReplies.describe(failure));
        return fail(500, "Notify not handled", "not handled, error id " + errorId, path).build();
    }

    /** A problem that is also WeChat's failure answer: code FAIL and a message, short, no stack trace. */
    private static Response.ResponseBuilder fail(int status, String title, String message, String path) {
        return Response.fromResponse(Problem.of(status, title, message, path)
                .with(Map.of("code", "FAIL", "message", message)).toResponse());
    }
}
