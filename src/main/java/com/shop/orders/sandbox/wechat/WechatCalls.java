package com.shop.orders.sandbox.wechat;

import java.time.Duration;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.arc.profile.IfBuildProfile;

/**
 * What every call of the sandbox's WeChat APIs goes through: the merchant's signature checked over the raw path and
 * query (401 SIGN_ERROR otherwise), the call counted, the latency knob and the API's fault, before or after what the
 * call does.
 */
@ApplicationScoped
@IfBuildProfile(anyOf = {"dev", "test"})
public class WechatCalls {

    private static final Logger LOG = Logger.getLogger(WechatCalls.class);

    private final WechatTrades trades;
    private final WechatFaults faults;
    private final WechatSandboxKeys keys;
    private final WechatSandboxConfig config;
    private final ObjectMapper json = new ObjectMapper();

    public WechatCalls(WechatTrades trades, WechatFaults faults, WechatSandboxKeys keys, WechatSandboxConfig config) {
        this.trades = trades;
        this.faults = faults;
        this.keys = keys;
        this.config = config;
    }

    /** The merchant's signature over the raw path and query (without the sandbox's prefix) and the body. */
    WechatAnswer authenticated(String method, String rawUri, String authorization, String body,
            Supplier<WechatAnswer> call) {
        WechatSigning.Authorization token = WechatSigning.Authorization.parse(authorization);
        String prefix = WechatGateway.PATH_PREFIX;
        String signedUri = rawUri.startsWith(prefix) ? rawUri.substring(prefix.length()) : rawUri;
        if (token == null || !config.mchid().equals(token.mchid()) || !keys.merchantSerial().equals(token.serialNo())
                || !WechatSigning.verify(WechatSigning.requestMessage(method, signedUri, token.timestamp(),
                        token.nonce(), body), token.signature(), keys.merchantPublicKey())) {
            LOG.debugf("WeChat sandbox: %s %s refused, signature does not verify", method, signedUri);
            return WechatAnswer.error(401, "SIGN_ERROR", "签名错误");
        }
        return call.get();
    }

    /**
     * A POST whose JSON body WeChat checks before anything else (PARAM_ERROR with the reason {@code invalid} gives),
     * then counted and faulted under the number in {@code numberField} (out_trade_no, out_refund_no).
     */
    WechatAnswer posted(String api, String rawUri, String authorization, String body,
            Function<JsonNode, String> invalid, String numberField, BiFunction<JsonNode, String, WechatAnswer> call) {
        return authenticated("POST", rawUri, authorization, body, () -> withJson(body, request -> {
            String reason = invalid.apply(request);
            if (reason != null) {
                return WechatAnswer.error(400, "PARAM_ERROR", reason);
            }
            String number = request.path(numberField).asText();
            return faulted(api, number, () -> call.apply(request, number));
        }));
    }

    /** A JSON request body handed on, or WeChat's PARAM_ERROR for one that is not JSON. */
    WechatAnswer withJson(String body, Function<JsonNode, WechatAnswer> call) {
        JsonNode request;
        try {
            request = json.readTree(body);
        } catch (JsonProcessingException e) {
            request = null;
        }
        return request == null || !request.isObject()
                ? WechatAnswer.error(400, "PARAM_ERROR", "请求体不是合法的JSON")
                : call.apply(request);
    }

    /**
     * Counts the call (under the number it is about: out_trade_no, out_refund_no) and applies the API's fault: an
     * error instead of the call, or after it (afterEffect), or the call's own answer held back after it took effect.
     */
    WechatAnswer faulted(String api, String about, Supplier<WechatAnswer> call) {
        trades.called(api, about);
        sleep(faults.latency());
        Optional<WechatFaults.Fault> fault = faults.take(api, about);
        if (fault.isEmpty()) {
            return call.get();
        }
        WechatFaults.Fault f = fault.get();
        WechatAnswer done = f.letsTheCallThrough() ? call.get() : null;
        if (f.noAnswerFor() != null) {
            sleep(f.noAnswerFor());
            return done;
        }
        return WechatAnswer.error(f.httpStatus(), f.code(), f.message());
    }

    private static void sleep(Duration duration) {
        if (duration.isZero()) {
            return;
        }
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
