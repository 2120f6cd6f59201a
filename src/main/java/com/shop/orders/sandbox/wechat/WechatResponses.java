package com.shop.orders.sandbox.wechat;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;

import com.shop.orders.sandbox.wechat.WechatSandboxConfig.SignedWith;

import io.quarkus.arc.profile.IfBuildProfile;

/**
 * A {@link WechatAnswer} as WeChat's host sends it: a Request-ID, JSON as application/json; charset=utf-8, and every
 * 2xx signed, a 204's empty body included.
 */
@ApplicationScoped
@IfBuildProfile(anyOf = {"dev", "test"})
public class WechatResponses {

    private final WechatSignedHeaders signed;

    public WechatResponses(WechatSignedHeaders signed) {
        this.signed = signed;
    }

    /** Signed under what the request's Wechatpay-Serial names. */
    Response answer(WechatAnswer answer, String requestSerial) {
        return answer(answer, signed.answering(requestSerial));
    }

    Response answer(WechatAnswer answer, SignedWith signedWith) {
        Response.ResponseBuilder response = Response.status(answer.status())
                .header("Request-ID", "08" + WechatSigning.nonce(30));
        if (answer.body() != null) {
            response.entity(answer.body()).type("application/json; charset=utf-8");
        }
        if (answer.signed()) {
            signed.of(answer.body(), signedWith).forEach(response::header);
        }
        return response.build();
    }
}
