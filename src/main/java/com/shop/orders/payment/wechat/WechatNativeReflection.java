package com.shop.orders.payment.wechat;

import com.wechat.pay.java.core.certificate.model.Data;
import com.wechat.pay.java.core.certificate.model.DownloadCertificateResponse;
import com.wechat.pay.java.core.certificate.model.EncryptCertificate;
import com.wechat.pay.java.core.cipher.SignatureResult;
import com.wechat.pay.java.core.http.HttpHeaders;
import com.wechat.pay.java.core.http.HttpMethod;
import com.wechat.pay.java.core.http.HttpRequest;
import com.wechat.pay.java.core.http.HttpResponse;
import com.wechat.pay.java.core.http.JsonRequestBody;
import com.wechat.pay.java.core.http.JsonResponseBody;
import com.wechat.pay.java.core.notification.Notification;
import com.wechat.pay.java.core.notification.RequestParam;
import com.wechat.pay.java.core.notification.Resource;
import com.wechat.pay.java.service.billdownload.model.BillType;
import com.wechat.pay.java.service.billdownload.model.GetTradeBillRequest;
import com.wechat.pay.java.service.billdownload.model.HashType;
import com.wechat.pay.java.service.billdownload.model.QueryBillEntity;
import com.wechat.pay.java.service.billdownload.model.TarType;
import com.wechat.pay.java.service.payments.model.PromotionDetail;
import com.wechat.pay.java.service.payments.model.PromotionGoodsDetail;
import com.wechat.pay.java.service.payments.model.Transaction;
import com.wechat.pay.java.service.payments.model.TransactionAmount;
import com.wechat.pay.java.service.payments.model.TransactionPayer;
import com.wechat.pay.java.service.payments.nativepay.model.CloseOrderRequest;
import com.wechat.pay.java.service.payments.nativepay.model.Detail;
import com.wechat.pay.java.service.payments.nativepay.model.PrepayRequest;
import com.wechat.pay.java.service.payments.nativepay.model.PrepayResponse;
import com.wechat.pay.java.service.payments.nativepay.model.QueryOrderByOutTradeNoRequest;
import com.wechat.pay.java.service.payments.nativepay.model.SceneInfo;
import com.wechat.pay.java.service.payments.nativepay.model.SettleInfo;
import com.wechat.pay.java.service.payments.nativepay.model.StoreInfo;
import com.wechat.pay.java.service.refund.model.Account;
import com.wechat.pay.java.service.refund.model.AmountReq;
import com.wechat.pay.java.service.refund.model.Channel;
import com.wechat.pay.java.service.refund.model.CreateRequest;
import com.wechat.pay.java.service.refund.model.FundsAccount;
import com.wechat.pay.java.service.refund.model.FundsFromItem;
import com.wechat.pay.java.service.refund.model.Promotion;
import com.wechat.pay.java.service.refund.model.QueryByOutRefundNoRequest;
import com.wechat.pay.java.service.refund.model.Refund;
import com.wechat.pay.java.service.refund.model.RefundNotification;
import com.wechat.pay.java.service.refund.model.ReqFundsAccount;
import com.wechat.pay.java.service.refund.model.Scope;
import com.wechat.pay.java.service.refund.model.Status;
import com.wechat.pay.java.service.refund.model.Type;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * Reflection metadata for the WeChat Pay SDK in the native binary. The SDK ships no native-image configuration, and
 * Gson ({@code GsonUtil}: field naming, {@code @SerializedName} and {@code @Expose} on declared fields, no-arg
 * constructors, enum constants by their fields) writes every request body and reads every answer, notify and error
 * body by reflection. A native image answers such reflection only for registered classes, so without this list the
 * calls would go out empty or come back with null fields at run time, not at build time.
 *
 * <p>Listed: the models of the calls {@link WechatGateway} makes (Native prepay, query by out_trade_no, close; refund
 * and refund query by out_refund_no; the trade bill's location) with every class reachable from their fields, nested
 * enums included; the notify's
 * envelope and its decrypted transaction; certificate mode's download answer; and the SDK's HTTP classes it writes with
 * Gson into its exception messages ({@code toString}). Computed with {@code javap} on wechatpay-java 0.2.17; re-check
 * when the SDK version changes or {@link WechatGateway} calls another API.
 *
 * <p>Classes initialized at run time (quarkus.native.additional-build-args in application.properties): the SDK's nonce
 * source (a SecureRandom), its default OkHttp client (TLS state), its static certificate refresher and OkHttp's task
 * runner (thread pools).
 */
@RegisterForReflection(targets = {
        // Native prepay, query and close (payments.nativepay.model)
        PrepayRequest.class,
        PrepayRequest.LimitPayEnum.class,
        com.wechat.pay.java.service.payments.nativepay.model.Amount.class,
        Detail.class,
        com.wechat.pay.java.service.payments.nativepay.model.GoodsDetail.class,
        SceneInfo.class,
        StoreInfo.class,
        SettleInfo.class,
        PrepayResponse.class,
        CloseOrderRequest.class,
        QueryOrderByOutTradeNoRequest.class,
        // The transaction a query answers and a notify carries (payments.model)
        Transaction.class,
        Transaction.TradeStateEnum.class,
        Transaction.TradeTypeEnum.class,
        TransactionAmount.class,
        TransactionPayer.class,
        PromotionDetail.class,
        PromotionDetail.ScopeEnum.class,
        PromotionDetail.TypeEnum.class,
        PromotionGoodsDetail.class,
        // Refund and refund query (refund.model)
        CreateRequest.class,
        AmountReq.class,
        FundsFromItem.class,
        Account.class,
        ReqFundsAccount.class,
        com.wechat.pay.java.service.refund.model.GoodsDetail.class,
        Refund.class,
        com.wechat.pay.java.service.refund.model.Amount.class,
        Promotion.class,
        Scope.class,
        Type.class,
        Channel.class,
        FundsAccount.class,
        Status.class,
        QueryByOutRefundNoRequest.class,
        // The trade bill: its request (written into the query and the SDK's messages) and where it is
        // (billdownload.model)
        GetTradeBillRequest.class,
        BillType.class,
        TarType.class,
        QueryBillEntity.class,
        HashType.class,
        // The refund a refund notify carries (refund.model; its amount, status ... are above)
        RefundNotification.class,
        // The notify (core.notification)
        Notification.class,
        Resource.class,
        RequestParam.class,
        // Certificate mode's /v3/certificates answer (core.certificate.model)
        DownloadCertificateResponse.class,
        Data.class,
        EncryptCertificate.class,
        // Written with Gson into the SDK's messages (ServiceException, ValidationException, debug logs)
        HttpRequest.class,
        HttpHeaders.class,
        HttpMethod.class,
        JsonRequestBody.class,
        HttpResponse.class,
        JsonResponseBody.class,
        SignatureResult.class
})
final class WechatNativeReflection {

    private WechatNativeReflection() {
    }
}
