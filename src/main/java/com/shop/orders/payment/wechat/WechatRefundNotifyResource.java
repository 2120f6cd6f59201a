package com.shop.orders.payment.wechat;

import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
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

import com.shop.orders.web.ApiContract;
import com.shop.orders.web.Problem;

import io.smallrye.mutiny.Uni;

/**
 * WeChat Pay's refund notify: how a refund ended (REFUND.SUCCESS, REFUND.CLOSED) or that it is stuck
 * (REFUND.ABNORMAL). Verified, decrypted and answered as the payment notify ({@link WechatNotifyResource}): WeChat sends
 * it again until it is answered 2xx.
 */
@Path(WechatRefundNotifyResource.PATH)
@PermitAll
@Tag(name = ApiContract.PAYMENT)
public class WechatRefundNotifyResource {

    static final String PATH = "/api/payments/wechat/refund-notify";

    private final WechatRefundNotifyHandler handler;

    public WechatRefundNotifyResource(WechatRefundNotifyHandler handler) {
        this.handler = handler;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(operationId = "receiveWechatPayRefundNotify",
            summary = "WeChat Pay's refund notify", description = "Called by WeChat Pay, not by clients, at the "
            + "notify_url each refund request names. Verified and decrypted as the payment notify; then the refund "
            + "(out_refund_no) must be one of this service's, on its trade, for its amount. REFUND.SUCCESS records the "
            + "refund made, REFUND.CLOSED failed (its amount can be refunded again), REFUND.ABNORMAL abnormal (WeChat "
            + "could not pay it back to the buyer's account: a person finishes it in the merchant console). Any answer "
            + "but 2xx makes WeChat send the notify again later.")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(type = SchemaType.OBJECT, description = "WeChat's notify envelope (id, create_time, "
                    + "event_type, resource_type, summary, resource: the refund, AEAD_AES_256_GCM encrypted, with "
                    + "refund_status)"),
            examples = @ExampleObject(name = "refunded", value = """
                    {"id":"EV-2018022511223320873","create_time":"2026-06-01T08:03:05+08:00",\
                    "resource_type":"encrypt-resource","event_type":"REFUND.SUCCESS","summary":"退款成功",\
                    "resource":{"original_type":"refund","algorithm":"AEAD_AES_256_GCM","ciphertext":"...",\
                    "associated_data":"refund","nonce":"fdasflkja484w"}}""")))
    @APIResponse(responseCode = "204", description = "Recorded (also a duplicate): WeChat stops sending it")
    @APIResponse(responseCode = "400", description = "Verified, but not acceptable (not a refund event, a resource "
            + "that does not decrypt or read, an unknown refund, a trade or amount that is not the refund's); nothing "
            + "was changed", content = @Content(mediaType = Problem.MEDIA_TYPE,
                    schema = @Schema(implementation = Problem.class),
                    examples = @ExampleObject(name = "refused", value = "{\"type\":\"about:blank\",\"title\":"
                            + "\"Notify refused\",\"status\":400,\"detail\":\"no such refund\",\"instance\":"
                            + "\"/api/payments/wechat/refund-notify\",\"code\":\"FAIL\",\"message\":"
                            + "\"no such refund\"}")))
    @APIResponse(responseCode = "401", ref = ApiContract.WECHAT_NOTIFY_NOT_VERIFIED)
    @APIResponse(responseCode = "413", ref = ApiContract.PAYLOAD_TOO_LARGE)
    @APIResponse(responseCode = "415", ref = ApiContract.UNSUPPORTED_MEDIA_TYPE)
    @APIResponse(responseCode = "500", ref = ApiContract.WECHAT_NOTIFY_NOT_HANDLED)
    @APIResponse(responseCode = "503", ref = ApiContract.WECHAT_NOTIFY_UNAVAILABLE)
    public Uni<Response> notify(@BeanParam WechatNotifyHeaders headers, String body) {
        return WechatNotifyResource.answered(handler.handle(headers.with(body)), PATH);
    }
}
