package com.shop.orders.sandbox.wechat;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import com.shop.orders.sandbox.ErrorAnswer;

import io.quarkus.arc.profile.IfBuildProfile;
import io.smallrye.common.annotation.NonBlocking;

/**
 * The merchant's side at WeChat Pay's console, as the Alipay sandbox's: {"outTradeNo": "...", "amount": 100,
 * "outRefundNo": "..."} in (amount in fen, as WeChat counts; "outRequestNo", the Alipay sandbox's name, is taken
 * too); 200 with the trade, 400 for a missing field or a bad amount, 404 for a trade WeChat does not know, 409 with
 * WeChat's reason when it refuses the refund. POST /refund/resolve ends an ABNORMAL refund as a person does there:
 * {"outRefundNo": "...", "status": "SUCCESS"} (paid back some other way) or "CLOSED" (nothing moved); 200 with the
 * refund, 404 for an unknown one, 409 when it is not ABNORMAL.
 */
@Path(WechatGateway.PATH_PREFIX + "/merchant")
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
@IfBuildProfile(anyOf = {"dev", "test"})
public class WechatMerchantResource {

    public record RefundRequest(String outTradeNo, Integer amount, String outRefundNo, String outRequestNo) {

        String number() {
            return outRefundNo != null ? outRefundNo : outRequestNo;
        }
    }

    private final WechatRefunds refunds;

    public WechatMerchantResource(WechatRefunds refunds) {
        this.refunds = refunds;
    }

    /** A person's fix of an ABNORMAL refund in the console: {"outRefundNo":"...","status":"SUCCESS"} (or "CLOSED"). */
    public record ResolveRequest(String outRefundNo, String status) {
    }

    @POST
    @Path("/refund/resolve")
    @NonBlocking
    public Response resolve(ResolveRequest request) {
        if (request == null || request.outRefundNo() == null
                || !("SUCCESS".equals(request.status()) || "CLOSED".equals(request.status()))) {
            return ErrorAnswer.of(Response.Status.BAD_REQUEST, "outRefundNo and status (SUCCESS or CLOSED) are required");
        }
        try {
            return refunds.resolve(request.outRefundNo(), "SUCCESS".equals(request.status()))
                    .map(refund -> Response.ok(refund).build())
                    .orElseGet(() -> ErrorAnswer.of(Response.Status.NOT_FOUND, "unknown refund"));
        } catch (WechatRejected refused) {
            return ErrorAnswer.of(Response.Status.CONFLICT, refused.getMessage());
        }
    }

    @POST
    @Path("/refund")
    @NonBlocking
    public Response refund(RefundRequest request) {
        if (request == null || request.outTradeNo() == null || request.number() == null) {
            return ErrorAnswer.of(Response.Status.BAD_REQUEST, "outTradeNo and outRefundNo are required");
        }
        if (!WechatRefunds.OUT_REFUND_NO.matcher(request.number()).matches()) {
            return ErrorAnswer.of(Response.Status.BAD_REQUEST, "outRefundNo is 1 to 64 of [0-9A-Za-z_-|*@]");
        }
        if (request.amount() == null || request.amount() < 1) {
            return ErrorAnswer.of(Response.Status.BAD_REQUEST, "amount is a positive number of fen");
        }
        try {
            return refunds.byMerchant(request.outTradeNo().trim(), request.amount(), request.number())
                    .map(trade -> Response.ok(trade).build())
                    .orElseGet(() -> ErrorAnswer.of(Response.Status.NOT_FOUND, "unknown trade"));
        } catch (WechatRejected refused) {
            return ErrorAnswer.of(Response.Status.CONFLICT, refused.getMessage());
        }
    }
}
