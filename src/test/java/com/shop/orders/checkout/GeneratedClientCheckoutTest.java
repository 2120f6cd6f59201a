package com.shop.orders.checkout;

import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.type.LogicalType;

import com.shop.orders.client.generated.api.OrdersApi;
import com.shop.orders.client.generated.api.PaymentApi;
import com.shop.orders.client.generated.invoker.ApiClient;
import com.shop.orders.client.generated.invoker.ApiException;
import com.shop.orders.client.generated.model.OrderItem;
import com.shop.orders.client.generated.model.OrderLine;
import com.shop.orders.client.generated.model.OrderStatus;
import com.shop.orders.client.generated.model.OrderView;
import com.shop.orders.client.generated.model.PaymentRequest;
import com.shop.orders.client.generated.model.PaymentView;
import com.shop.orders.client.generated.model.PlaceOrderRequest;
import com.shop.orders.testsupport.Members;
import com.shop.orders.testsupport.Payments;
import com.shop.orders.testsupport.TestDb;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;

/**
 * The checkout as an integrator's code runs it: through the client openapi-generator makes from the committed contract
 * (docs/openapi.yaml; the pom's openapi-generator-maven-plugin, java/native), and nothing else of ours. Place an order,
 * ask for the wallet's code, pay it in the wallet's sandbox (the buyer's side, not our API: RestAssured), read the
 * order until it is paid. The answers are read into the generated models by a mapper stricter than the generated
 * one, so that a field the document types otherwise, or does not have, fails here.
 */
@QuarkusTest
class GeneratedClientCheckoutTest {

    private static final Duration PAID = Duration.ofSeconds(30);

    @Test
    void anAlipayCheckoutThroughTheGeneratedClient() throws ApiException {
        checkout("alipay", "https://qr.alipay.com/", Payments::pay);
    }

    @Test
    void aWechatPayCheckoutThroughTheGeneratedClient() throws ApiException {
        checkout("wechat", "weixin://wxpay/bizpayurl?pr=", Payments::payWechat);
    }

    private static void checkout(String channel, String codePrefix, Consumer<String> buyerPays) throws ApiException {
        long sku = TestDb.newSku(10, "19.99");
        ApiClient client = clientOf(Members.newMemberToken());
        OrdersApi orders = new OrdersApi(client);

        OrderView placed = orders.placeOrder(new PlaceOrderRequest().items(List.of(
                new OrderLine().skuId(sku).quantity(2))), UUID.randomUUID().toString());

        assertEquals(OrderStatus.PENDING_PAYMENT, placed.getStatus());
        assertEquals(Payments.orderNo(placed.getId().intValue()), placed.getOrderNo());
        assertEquals(0, new BigDecimal("39.98").compareTo(placed.getTotalAmount()), placed.getTotalAmount().toString());
        OrderItem line = placed.getItems().get(0);
        assertEquals(1, placed.getItems().size());
        assertEquals(sku, line.getSkuId());
        assertEquals(2, line.getQuantity());
        assertEquals(0, new BigDecimal("19.99").compareTo(line.getUnitPrice()), line.getUnitPrice().toString());
        assertNull(placed.getPaidAt());

        PaymentView payment = new PaymentApi(client).requestPayment(placed.getId(),
                new PaymentRequest().channel(channel));

        assertEquals(channel, payment.getChannel());
        assertTrue(payment.getQrCode().startsWith(codePrefix), payment.getQrCode());
        assertEquals(placed.getPayDeadline(), payment.getExpiresAt());
        assertTrue(payment.getQrImageUrl().contains("/api/payments/qr-images/" + placed.getId()), payment.getQrImageUrl());

        buyerPays.accept(payment.getQrCode());

        OrderView paid = await().atMost(PAID).until(() -> orders.getOrder(placed.getId()),
                order -> order.getStatus() == OrderStatus.PAID);
        assertEquals(placed.getOrderNo(), paid.getOrderNo());
        assertEquals(placed.getTotalAmount(), paid.getTotalAmount());
        assertEquals(placed.getCreatedAt(), paid.getCreatedAt());
        assertNotNull(paid.getPaidAt());
        assertNull(paid.getCloseReason());
    }

    /**
     * The generated ApiClient's own mapper ignores fields it does not know (FAIL_ON_UNKNOWN_PROPERTIES off) and, as
     * Jackson does by default, turns a number into a String and a "1042" or a 1.5 into a Long: an answer that broke
     * the document could still pass. This one does not.
     */
    @Test
    void theClientRefusesAnAnswerOfOtherTypesOrFields() throws JsonProcessingException {
        ObjectMapper mapper = strictMapper();
        String order = """
                {"id":1042,"orderNo":"202606010800000123456789","status":"PENDING_PAYMENT","totalAmount":118.0,
                 "createdAt":"2026-06-01T08:00:00Z","items":[{"skuId":1,"skuName":"T-shirt","unitPrice":59.0,"quantity":2}]}""";

        assertEquals(1042L, mapper.readValue(order, OrderView.class).getId());
        for (String[] broken : new String[][] { { "\"id\":1042", "\"id\":\"1042\"" }, { "\"id\":1042", "\"id\":1042.5" },
                { "\"orderNo\":\"202606010800000123456789\"", "\"orderNo\":202606010800000123456789" },
                { "\"totalAmount\":118.0", "\"totalAmount\":\"118.0\"" }, { "PENDING_PAYMENT", "PENDING" },
                { "\"quantity\":2", "\"quantity\":true" }, { "\"totalAmount\"", "\"total\":118.0,\"totalAmount\"" } }) {
            String answer = order.replace(broken[0], broken[1]);
            assertThrows(JsonProcessingException.class, () -> mapper.readValue(answer, OrderView.class), answer);
        }
        assertEquals(OrderStatus.PAID, ApiClient.createDefaultObjectMapper()
                .readValue(order.replace("PENDING_PAYMENT", "PAID").replace("\"id\":1042", "\"id\":\"1042\",\"x\":1"),
                        OrderView.class).getStatus(), "the generated mapper as it comes takes both");
    }

    /** The generated client pointed at the test service, as the member with this token. */
    private static ApiClient clientOf(String memberToken) {
        ApiClient client = new ApiClient();
        client.updateBaseUri(RestAssured.baseURI + ":" + RestAssured.port);
        client.setObjectMapper(strictMapper());
        // The java/native client applies no security scheme of the document itself: the bearer token goes on every request.
        client.setRequestInterceptor(request -> request.header("Authorization", "Bearer " + memberToken));
        return client;
    }

    /**
     * The generated mapper, with unknown fields refused and no coercion between strings, numbers and booleans; an
     * integer stays a valid amount (the document's "number" takes 118 as well as 118.0).
     */
    private static ObjectMapper strictMapper() {
        ObjectMapper mapper = ApiClient.createDefaultObjectMapper();
        mapper.enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
        mapper.coercionConfigFor(LogicalType.Textual).setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
        mapper.coercionConfigFor(LogicalType.Integer).setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
        mapper.coercionConfigFor(LogicalType.Float).setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
        return mapper;
    }
}
