package com.shop.orders.testsupport;

import static com.shop.orders.testsupport.Members.as;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import java.util.Map;

import io.restassured.http.ContentType;

/** Drives the payment flow: an order's QR code and the sandbox buyer who scans and pays it. */
public final class Payments {

    private Payments() {
    }

    public static int placeOrder(String member, long skuId, int quantity) {
        return as(member).contentType(ContentType.JSON).body(Members.orderOf(skuId, quantity))
                .post("/api/orders").then().statusCode(201).extract().path("id");
    }

    public static String orderNo(int orderId) {
        return TestDb.scalar("SELECT order_no FROM orders WHERE id = ?", orderId);
    }

    public static String requestQr(String member, int orderId) {
        return as(member).post("/api/orders/" + orderId + "/payment").then().statusCode(200).extract().path("qrCode");
    }

    /** The QR code of the order's trade on this channel (alipay, wechat), the channel's answer checked. */
    public static String requestQr(String member, int orderId, String channel) {
        return as(member).contentType(ContentType.JSON).body(Map.of("channel", channel))
                .post("/api/orders/" + orderId + "/payment").then().statusCode(200).body("channel", equalTo(channel))
                .extract().path("qrCode");
    }

    public static void scan(String qrCode) {
        given().contentType(ContentType.JSON).body(Map.of("qrCode", qrCode))
                .post("/sandbox/alipay/buyer/scan").then().statusCode(200);
    }

    public static void pay(String qrCode) {
        given().contentType(ContentType.JSON).body(Map.of("qrCode", qrCode))
                .post("/sandbox/alipay/buyer/pay").then().statusCode(200);
    }

    /** The buyer pays a WeChat Pay code (code_url) at the WeChat sandbox. */
    public static void payWechat(String codeUrl) {
        given().contentType(ContentType.JSON).body(Map.of("codeUrl", codeUrl))
                .post("/sandbox/wechat/buyer/pay").then().statusCode(200);
    }
}
