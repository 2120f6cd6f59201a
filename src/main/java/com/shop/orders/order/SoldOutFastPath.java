package com.shop.orders.order;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.validation.Validator;

import org.eclipse.microprofile.jwt.JsonWebToken;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;

import com.shop.orders.inventory.InsufficientStockException;
import com.shop.orders.member.CurrentMember;
import com.shop.orders.member.VerifiedTokens;
import com.shop.orders.web.BodySizeLimit;
import com.shop.orders.web.Problem;

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
 * <p>
 * A sale's losers send the same few bodies, and reading and validating each again took 12 % of the event loop's time,
 * almost half of this route's own (async-profiler, losers' run): bodies found to be valid orders within the limits are
 * remembered by their bytes with their SKUs, and the 409 body by SKU. Both are bounded; whether a SKU is sold out is
 * asked on every request.
 */
@ApplicationScoped
public class SoldOutFastPath {

    private static final String BEARER = "Bearer ";
    private static final String MEMBER_KEY = SoldOutFastPath.class.getName() + ".member";
    /** Entries of each memory at most; a full one starts again (the bodies of a sale are back at once). */
    private static final int REMEMBERED_MAX = 1024;
    /** Larger bodies are read each time: a one-line order is about 40 bytes, so this bounds a memory to about 1 MB. */
    private static final int BODY_REMEMBERED_MAX_BYTES = 1024;

    private final SoldOutSkus soldOut;
    private final OrderPlacement placement;
    private final VerifiedTokens tokens;
    private final Validator validator;
    private final ObjectMapper json;
    private final ObjectReader orderReader;
    private final BodyHandler bodyHandler;
    /** Bodies that read as valid orders within the limits (bytes as ISO-8859-1, one char per byte), with their SKUs. */
    private final Map<String, List<Long>> validBodies = new ConcurrentHashMap<>();
    /** The 409 problem body for each SKU refused. */
    private final Map<Long, String> problemBodies = new ConcurrentHashMap<>();

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
        String problem = problemBodies.get(skuId);
        if (problem == null) {
            try {
                problem = json.writeValueAsString(new InsufficientStockException(skuId).problem(OrderResource.PATH));
            } catch (JsonProcessingException e) {
                context.next();
                return;
            }
            remember(problemBodies, skuId, problem);
        }
        context.response().setStatusCode(409).putHeader(HttpHeaders.CONTENT_TYPE, Problem.MEDIA_TYPE).end(problem);
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
        byte[] bytes = body.getBytes();
        String key = bytes.length <= BODY_REMEMBERED_MAX_BYTES ? new String(bytes, StandardCharsets.ISO_8859_1) : null;
        List<Long> skus = key == null ? null : validBodies.get(key);
        if (skus == null) {
            skus = skusOfValidOrder(bytes);
            if (skus == null) {
                return null;
            }
            if (key != null) {
                remember(validBodies, key, skus);
            }
        }
        return soldOut.soldOutWithinBound(skus);
    }

    /** The SKUs of a body that reads as a valid order within the limits, or null. */
    private List<Long> skusOfValidOrder(byte[] body) {
        PlaceOrderRequest request;
        try {
            request = orderReader.readValue(body);
        } catch (IOException e) {
            return null;
        }
        return request == null || !validator.validate(request).isEmpty() ? null : placement.skusWithinLimits(request);
    }

    private static <K, V> void remember(Map<K, V> memory, K key, V value) {
        if (memory.size() >= REMEMBERED_MAX) {
            memory.clear();
        }
        memory.put(key, value);
    }

    private static boolean isJson(String contentType) {
        String json = "application/json";
        return contentType != null && contentType.regionMatches(true, 0, json, 0, json.length())
                && (contentType.length() == json.length() || contentType.charAt(json.length()) == ';');
    }
}
