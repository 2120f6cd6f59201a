package com.shop.orders.web;

import jakarta.ws.rs.core.Application;

import org.eclipse.microprofile.openapi.annotations.Components;
import org.eclipse.microprofile.openapi.annotations.OpenAPIDefinition;
import org.eclipse.microprofile.openapi.annotations.enums.SecuritySchemeType;
import org.eclipse.microprofile.openapi.annotations.info.Info;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.ExampleObject;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityScheme;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The parts of the OpenAPI document that every endpoint shares: the bearer token scheme and the problem
 * responses. Endpoints refer to the responses by name ({@code @APIResponse(responseCode = "404", ref = NOT_FOUND)});
 * a status whose meaning depends on the endpoint (409, 422) is described there, with the {@link Problem} schema.
 * An {@link Application} because that is where the OpenAPI scanner reads the document-wide definition; it
 * leaves the set of resources as it is (all of them).
 */
@OpenAPIDefinition(
        info = @Info(title = "Order and payment-timeout service", version = "1.0",
                description = "Orders with reserved stock, Alipay face-to-face payment, and closing of unpaid orders at "
                        + "their pay deadline. Every error is `application/problem+json` (RFC 9457)."),
        tags = {
                @Tag(name = ApiContract.CATALOG, description = "SKUs and what is available to order"),
                @Tag(name = ApiContract.ORDERS, description = "A member's own orders"),
                @Tag(name = ApiContract.PAYMENT, description = "Payment channels, QR codes and the wallets' notifies"),
                @Tag(name = ApiContract.ADMIN, description = "Stock administration") },
        components = @Components(
                securitySchemes = @SecurityScheme(securitySchemeName = ApiContract.BEARER,
                        type = SecuritySchemeType.HTTP, scheme = "bearer", bearerFormat = "JWT",
                        description = "A JWT from the shop's identity provider. The member is its subject; "
                                + "groups `member` or `admin`."),
                responses = {
                        @APIResponse(name = ApiContract.BAD_REQUEST, responseCode = "400",
                                description = "Malformed JSON, or fields out of bounds (named in `violations`)",
                                content = @Content(mediaType = Problem.MEDIA_TYPE,
                                        schema = @Schema(implementation = Problem.class),
                                        examples = @ExampleObject(name = "invalid", value = """
                                                {"type":"about:blank","title":"Invalid request","status":400,\
                                                "detail":"The request has invalid fields","instance":"/api/orders",\
                                                "violations":[{"field":"items[0].quantity",\
                                                "message":"must be less than or equal to 999"}]}"""))),
                        @APIResponse(name = ApiContract.UNAUTHORIZED, responseCode = "401",
                                description = "No bearer token, or one that is invalid or expired",
                                content = @Content(mediaType = Problem.MEDIA_TYPE,
                                        schema = @Schema(implementation = Problem.class),
                                        examples = @ExampleObject(name = "unauthorized", value = """
                                                {"type":"about:blank","title":"Unauthorized","status":401,\
                                                "detail":"A valid bearer token is required","instance":"/api/orders"}\
                                                """))),
                        @APIResponse(name = ApiContract.FORBIDDEN, responseCode = "403",
                                description = "The token's groups do not allow this operation",
                                content = @Content(mediaType = Problem.MEDIA_TYPE,
                                        schema = @Schema(implementation = Problem.class),
                                        examples = @ExampleObject(name = "forbidden", value = """
                                                {"type":"about:blank","title":"Forbidden","status":403,\
                                                "detail":"This operation is not allowed for this token",\
                                                "instance":"/api/admin/skus/1/stock"}"""))),
                        @APIResponse(name = ApiContract.NOT_FOUND, responseCode = "404",
                                description = "No such resource; also another member's order, so that ids reveal nothing",
                                content = @Content(mediaType = Problem.MEDIA_TYPE,
                                        schema = @Schema(implementation = Problem.class),
                                        examples = @ExampleObject(name = "notFound", value = """
                                                {"type":"about:blank","title":"Order not found","status":404,\
                                                "detail":"Order 1042 does not exist","instance":"/api/orders/1042"}\
                                                """))),
                        @APIResponse(name = ApiContract.WECHAT_NOTIFY_NOT_VERIFIED, responseCode = "401",
                                description = "Not verified: Wechatpay-* headers missing, a signature that does not "
                                        + "verify, a serial that is not WeChat Pay's key; nothing was changed",
                                content = @Content(mediaType = Problem.MEDIA_TYPE,
                                        schema = @Schema(implementation = Problem.class),
                                        examples = @ExampleObject(name = "notVerified", value = """
                                                {"type":"about:blank","title":"Notify not verified","status":401,\
                                                "detail":"signature not verified",\
                                                "instance":"/api/payments/wechat/notify","code":"FAIL",\
                                                "message":"signature not verified"}"""))),
                        @APIResponse(name = ApiContract.WECHAT_NOTIFY_NOT_HANDLED, responseCode = "500",
                                description = "Not handled for a failure of ours (the error id finds it in the log): "
                                        + "WeChat sends it again",
                                content = @Content(mediaType = Problem.MEDIA_TYPE,
                                        schema = @Schema(implementation = Problem.class),
                                        examples = @ExampleObject(name = "internal", value = """
                                                {"type":"about:blank","title":"Notify not handled","status":500,\
                                                "detail":"not handled, error id 0b6a3c1e-9a8e-4f7e-8d0c-2f4a1e5b7c9d",\
                                                "instance":"/api/payments/wechat/notify","code":"FAIL","message":\
                                                "not handled, error id 0b6a3c1e-9a8e-4f7e-8d0c-2f4a1e5b7c9d"}"""))),
                        @APIResponse(name = ApiContract.WECHAT_NOTIFY_UNAVAILABLE, responseCode = "503",
                                description = "Not handled: the database cannot be reached right now; WeChat sends "
                                        + "it again",
                                content = @Content(mediaType = Problem.MEDIA_TYPE,
                                        schema = @Schema(implementation = Problem.class),
                                        examples = @ExampleObject(name = "unavailable", value = """
                                                {"type":"about:blank","title":"Notify not handled","status":503,\
                                                "detail":"database unavailable","instance":\
                                                "/api/payments/wechat/notify","code":"FAIL",\
                                                "message":"database unavailable"}"""))),
                        @APIResponse(name = ApiContract.PAYLOAD_TOO_LARGE, responseCode = "413",
                                description = "The request body is larger than 64 KiB",
                                content = @Content(mediaType = Problem.MEDIA_TYPE,
                                        schema = @Schema(implementation = Problem.class),
                                        examples = @ExampleObject(name = "tooLarge", value = """
                                                {"type":"about:blank","title":"Payload Too Large","status":413,\
                                                "detail":"The request body is larger than 65536 bytes"}"""))),
                        @APIResponse(name = ApiContract.UNSUPPORTED_MEDIA_TYPE, responseCode = "415",
                                description = "The request body is not of the media type the operation consumes",
                                content = @Content(mediaType = Problem.MEDIA_TYPE,
                                        schema = @Schema(implementation = Problem.class),
                                        examples = @ExampleObject(name = "unsupported", value = """
                                                {"type":"about:blank","title":"Unsupported Media Type","status":415,\
                                                "detail":"Unsupported Media Type","instance":"/api/orders"}"""))),
                        @APIResponse(name = ApiContract.BAD_GATEWAY, responseCode = "502",
                                description = "Alipay refused the call; nothing was changed",
                                content = @Content(mediaType = Problem.MEDIA_TYPE,
                                        schema = @Schema(implementation = Problem.class),
                                        examples = @ExampleObject(name = "refused", value = """
                                                {"type":"about:blank","title":"Payment provider refused","status":502,\
                                                "detail":"Alipay refused alipay.trade.precreate (40004 / ACQ.INVALID_PARAMETER)",\
                                                "instance":"/api/orders/1042/payment","providerCode":"ACQ.INVALID_PARAMETER"}\
                                                """))),
                        @APIResponse(name = ApiContract.SERVICE_UNAVAILABLE, responseCode = "503",
                                description = "A dependency is out: the database (with Retry-After), or Alipay could "
                                        + "not be reached in time or asked to call again, or too many calls to it are "
                                        + "in progress (then with Retry-After); nothing was changed, try again shortly",
                                content = @Content(mediaType = Problem.MEDIA_TYPE,
                                        schema = @Schema(implementation = Problem.class),
                                        examples = @ExampleObject(name = "unavailable", value = """
                                                {"type":"about:blank","title":"Payment provider unavailable",\
                                                "status":503,"detail":"Alipay could not be reached for \
                                                alipay.trade.precreate; try again shortly",\
                                                "instance":"/api/orders/1042/payment"}"""))),
                        @APIResponse(name = ApiContract.INTERNAL_ERROR, responseCode = "500",
                                description = "An unexpected failure; the error id finds it in the service's log",
                                content = @Content(mediaType = Problem.MEDIA_TYPE,
                                        schema = @Schema(implementation = Problem.class),
                                        examples = @ExampleObject(name = "internal", value = """
                                                {"type":"about:blank","title":"Internal error","status":500,\
                                                "detail":"The request failed; error id 0b6a3c1e-9a8e-4f7e-8d0c-2f4a1e5b7c9d",\
                                                "instance":"/api/orders"}"""))) }))
public class ApiContract extends Application {

    public static final String BEARER = "bearer";

    public static final String CATALOG = "Catalog";
    public static final String ORDERS = "Orders";
    public static final String PAYMENT = "Payment";
    public static final String ADMIN = "Admin";

    public static final String BAD_REQUEST = "BadRequest";
    public static final String UNAUTHORIZED = "Unauthorized";
    public static final String FORBIDDEN = "Forbidden";
    public static final String NOT_FOUND = "NotFound";
    public static final String PAYLOAD_TOO_LARGE = "PayloadTooLarge";
    public static final String UNSUPPORTED_MEDIA_TYPE = "UnsupportedMediaType";
    public static final String BAD_GATEWAY = "PaymentProviderRefused";
    public static final String SERVICE_UNAVAILABLE = "PaymentProviderUnavailable";
    public static final String INTERNAL_ERROR = "InternalError";
    /** WeChat Pay's notifies (payment, refund): WeChat's {code, message} as a problem's members. */
    public static final String WECHAT_NOTIFY_NOT_VERIFIED = "WechatNotifyNotVerified";
    public static final String WECHAT_NOTIFY_NOT_HANDLED = "WechatNotifyNotHandled";
    public static final String WECHAT_NOTIFY_UNAVAILABLE = "WechatNotifyUnavailable";

    /** The name of the problem schema, for endpoint-specific problem responses. */
    public static final String PROBLEM = "Problem";

}
