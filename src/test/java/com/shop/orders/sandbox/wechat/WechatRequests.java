package com.shop.orders.sandbox.wechat;

import static io.restassured.RestAssured.given;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.UUID;

import com.wechat.pay.java.service.payments.model.Transaction;
import com.wechat.pay.java.service.payments.nativepay.NativePayService;
import com.wechat.pay.java.service.payments.nativepay.model.Amount;
import com.wechat.pay.java.service.payments.nativepay.model.CloseOrderRequest;
import com.wechat.pay.java.service.payments.nativepay.model.PrepayRequest;
import com.wechat.pay.java.service.payments.nativepay.model.QueryOrderByOutTradeNoRequest;

import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;

/** The requests the sandbox tests make: the SDK's models filled for the sandbox's merchant, and the buyer's API. */
final class WechatRequests {

    static final String MCHID = "1900000001";
    static final String APPID = "wxd678efh567hg6787";
    private static final DateTimeFormatter RFC3339 = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssXXX");

    private WechatRequests() {
    }

    static PrepayRequest prepay(String outTradeNo, int fen, String notifyUrl) {
        PrepayRequest request = new PrepayRequest();
        request.setAppid(APPID);
        request.setMchid(MCHID);
        request.setDescription("Order " + outTradeNo);
        request.setOutTradeNo(outTradeNo);
        request.setNotifyUrl(notifyUrl);
        request.setTimeExpire(RFC3339.format(OffsetDateTime.now(ZoneOffset.ofHours(8)).plusMinutes(5)));
        Amount amount = new Amount();
        amount.setTotal(fen);
        amount.setCurrency("CNY");
        request.setAmount(amount);
        return request;
    }

    static CloseOrderRequest close(String outTradeNo) {
        CloseOrderRequest request = new CloseOrderRequest();
        request.setMchid(MCHID);
        request.setOutTradeNo(outTradeNo);
        return request;
    }

    static Transaction query(NativePayService wechat, String outTradeNo) {
        QueryOrderByOutTradeNoRequest request = new QueryOrderByOutTradeNoRequest();
        request.setMchid(MCHID);
        request.setOutTradeNo(outTradeNo);
        return wechat.queryOrderByOutTradeNo(request);
    }

    /** The buyer's scan or pay of a code, through the sandbox's buyer API (shaped as the Alipay sandbox's). */
    static ValidatableResponse buyer(String action, String codeUrl) {
        return given().contentType(ContentType.JSON).body(Map.of("qrCode", codeUrl))
                .post("/sandbox/wechat/buyer/" + action).then();
    }

    /** A fresh number with two of the characters the SDK percent-encodes in paths. */
    static String outTradeNo() {
        return "T" + UUID.randomUUID().toString().replace("-", "").substring(0, 20) + "|x*";
    }
}
