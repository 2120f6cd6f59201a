package com.shop.orders.order;

import java.io.IOException;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.validation.Validator;

import org.eclipse.microprofile.jwt.JsonWebToken;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.shop.orders.common.BodySizeLimit;
import com.shop.orders.common.Problem;
import com.shop.orders.inventory.InsufficientStockException;
import com.shop.orders.member.CurrentMember;
import com.shop.orders.member.VerifiedTokens;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RequestBody;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;

/**
 * Refuses a sold-out flash sale's losers before the REST layer. While {@link SoldOutSkus} remembers a SKU sold out,
 * a placement that the REST layer would refuse from that memory (a member's token this instance has verified before,
 * a JSON body that is a valid order within the limits, a line on a SKU remembered sold out within the bound) is
 * answered here on the event loop with the same 409. Lazy security, resource matching, method validation, context
 * propagation and the exception mapping took about half of the event loop's time per loser (JFR, flash-sale
 * benchmark). Every other request goes on to the REST layer unchanged, with its body if this read it: another
 * token, an Idempotency-Key (a retry may get its order back), another content type, a chunked body, anything that
 * does not read as a valid order, and the one re-check per bound that asks the database.
 */
@ApplicationScoped
public class SoldOutFastPath {

    private static final String BEARER = "Bearer ";
    private static final String MEMBER_KEY = SoldOutFastPath.class.getName() + ".member";

    private final SoldOutSkus soldOut;
    private final OrderPlacement placement;
    private final VerifiedTokens tokens;
    private final Validator validator;
    private final ObjectMapper json;
    private final ObjectReader orderReader;
    private final BodyHandler bodyHandler;

    public SoldOutFastPath(SoldOutSkus soldOut, OrderPlacement placement, VerifiedTokens tokens, Validator validator,
            ObjectMapper json, BodySizeLimit bodySizeLimit) {
        this.soldOut = soldOut;
        this.placement = placement;
        this.tokens = tokens;
        this.validator = validator;
        this.json = json;
        this.orderReader = json.readerFor(PlaceOrderRequest.class);
        this.bodyHandler = BodyHandler.create(false).setBodyLimit(bodySizeLimit.maxBodySize());
    }

    void install(@Observes Router router) {
        // After BodySizeLimit (-100), before the REST layer.
        router.post(OrderResource.PATH).order(-90).handler(this::readBodyWhenJudgeable).handler(this::refuseSoldOut);
    }

    /** Reads the body only while a SKU is remembered sold out and the request is one this can judge. */
    void readBodyWhenJudgeable(RoutingContext context) {
        JsonWebToken member = soldOut.anyRemembered() ? judgeableMember(context.request()) : null;
        if (member == null) {
            context.next();
            return;
        }
        context.put(MEMBER_KEY, member);
        bodyHandler.handle(context);
    }

    void refuseSoldOut(RoutingContext context) {
        RequestBody body = context.body();
        Long skuId = context.get(MEMBER_KEY) == null || body == null || body.buffer() == null ? null
                : soldOutSku(body.buffer());
        if (skuId == null) {
            context.next();
            return;
        }
        try {
            String problem = json.writeValueAsString(new InsufficientStockException(skuId).problem(OrderResource.PATH));
            context.response().setStatusCode(409).putHeader(HttpHeaders.CONTENT_TYPE, Problem.MEDIA_TYPE).end(problem);
        } catch (JsonProcessingException e) {
            context.next();
        }
    }

    /** The member of a placement without Idempotency-Key, with a JSON body of a stated length, or null. */
    private JsonWebToken judgeableMember(HttpServerRequest request) {
        String authorization = request.getHeader(HttpHeaders.AUTHORIZATION);
        if (authorization == null || !authorization.startsWith(BEARER) || request.getHeader("Idempotency-Key") != null
                || request.getHeader(HttpHeaders.CONTENT_LENGTH) == null || !isJson(request.getHeader(HttpHeaders.CONTENT_TYPE))) {
            return null;
        }
        JsonWebToken token = tokens.verifiedBefore(authorization.substring(BEARER.length()));
        return token != null && CurrentMember.namesMember(token) ? token : null;
    }

    /** The SKU the placement would refuse this body for from memory, or null when it is not a valid order. */
    private Long soldOutSku(Buffer body) {
        PlaceOrderRequest request;
        try {
            request = orderReader.readValue(body.getBytes());
        } catch (IOException e) {
            return null;
        }
        return request == null || !validator.validate(request).isEmpty() ? null : placement.soldOutFromMemory(request);
    }

    private static boolean isJson(String contentType) {
        String json = "application/json";
        return contentType != null && contentType.regionMatches(true, 0, json, 0, json.length())
                && (contentType.length() == json.length() || contentType.charAt(json.length()) == ';');
    }
}
