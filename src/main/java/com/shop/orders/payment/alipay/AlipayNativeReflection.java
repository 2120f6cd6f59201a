package com.shop.orders.payment.alipay;

import com.alipay.api.AlipayObject;
import com.alipay.api.AlipayResponse;
import com.alipay.api.domain.AlipayDataDataserviceBillDownloadurlQueryModel;
import com.alipay.api.domain.AlipayOpenAppAlipaycertDownloadModel;
import com.alipay.api.domain.AlipayTradeCancelModel;
import com.alipay.api.domain.AlipayTradeCloseModel;
import com.alipay.api.domain.AlipayTradeFastpayRefundQueryModel;
import com.alipay.api.domain.AlipayTradePrecreateModel;
import com.alipay.api.domain.AlipayTradeQueryModel;
import com.alipay.api.domain.AlipayTradeRefundModel;
import com.alipay.api.domain.BkAgentReqInfo;
import com.alipay.api.domain.BkAgentRespInfo;
import com.alipay.api.domain.BusinessParams;
import com.alipay.api.domain.ChargeInfo;
import com.alipay.api.domain.CloseExtendParams;
import com.alipay.api.domain.ContributeDetail;
import com.alipay.api.domain.DepositBackInfo;
import com.alipay.api.domain.EnterprisePayInfo;
import com.alipay.api.domain.ExtUserInfo;
import com.alipay.api.domain.ExtendParams;
import com.alipay.api.domain.ExternalPayerInfo;
import com.alipay.api.domain.FulfillmentDetail;
import com.alipay.api.domain.GoodsDetail;
import com.alipay.api.domain.HbFqPayInfo;
import com.alipay.api.domain.IntactChargeInfo;
import com.alipay.api.domain.OpenApiRoyaltyDetailInfoPojo;
import com.alipay.api.domain.PaymentInfoWithId;
import com.alipay.api.domain.PresetPayToolInfo;
import com.alipay.api.domain.RefundChargeInfo;
import com.alipay.api.domain.RefundGoodsDetail;
import com.alipay.api.domain.RefundRoyaltyResult;
import com.alipay.api.domain.RefundSubFee;
import com.alipay.api.domain.RoyaltyDetailInfos;
import com.alipay.api.domain.RoyaltyInfo;
import com.alipay.api.domain.SettleDetailInfo;
import com.alipay.api.domain.SettleInfo;
import com.alipay.api.domain.SubFee;
import com.alipay.api.domain.SubMerchant;
import com.alipay.api.domain.TapPayInfo;
import com.alipay.api.domain.TradeFundBill;
import com.alipay.api.domain.TradeSettleDetail;
import com.alipay.api.domain.TradeSettleInfo;
import com.alipay.api.domain.VoucherDetail;
import com.alipay.api.request.AlipayDataDataserviceBillDownloadurlQueryRequest;
import com.alipay.api.request.AlipayOpenAppAlipaycertDownloadRequest;
import com.alipay.api.request.AlipayTradeCancelRequest;
import com.alipay.api.request.AlipayTradeCloseRequest;
import com.alipay.api.request.AlipayTradeFastpayRefundQueryRequest;
import com.alipay.api.request.AlipayTradePrecreateRequest;
import com.alipay.api.request.AlipayTradeQueryRequest;
import com.alipay.api.request.AlipayTradeRefundRequest;
import com.alipay.api.response.AlipayDataDataserviceBillDownloadurlQueryResponse;
import com.alipay.api.response.AlipayOpenAppAlipaycertDownloadResponse;
import com.alipay.api.response.AlipayTradeCancelResponse;
import com.alipay.api.response.AlipayTradeCloseResponse;
import com.alipay.api.response.AlipayTradeFastpayRefundQueryResponse;
import com.alipay.api.response.AlipayTradePrecreateResponse;
import com.alipay.api.response.AlipayTradeQueryResponse;
import com.alipay.api.response.AlipayTradeRefundResponse;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * Reflection metadata for the Alipay SDK in the native binary. The SDK ships no native-image
 * configuration, yet it writes the biz model into {@code biz_content} and maps the JSON reply
 * onto the response object by reflection (java.beans Introspector, declared fields with their
 * {@code @ApiField}/{@code @ApiListField} annotations, getters and setters, no-arg constructors).
 * A native image answers such reflection only for registered classes, so without this list
 * the calls would fail or come back with empty fields at run time, not at build time.
 *
 * <p>Listed: the calls of {@link AlipayGateway} (precreate, query, close, cancel, refund, refund query, and certificate mode's
 * certificate download, the trade bill's link) with their requests, responses and models, plus every domain class reachable from their fields
 * (computed with {@code javap} on alipay-sdk-java 4.40.734.ALL). Re-check when the SDK version
 * changes or {@link AlipayGateway} calls another API.
 *
 * <p>Also the BouncyCastle services the SDK asks its own provider for: in certificate mode it reads every certificate
 * with {@code new BouncyCastleProvider()} ({@code AntCertificationUtil}), and checks a certificate Alipay re-issued
 * against the root with that provider's RSA signatures. The provider loads its algorithm tables ({@code ...$Mappings})
 * and their implementations by class name; Quarkus registers only some of AES, EC, RSA and DRBG for the provider it
 * installs, so without these the SDK's provider would have no "X.509" service in the image, and no RSA signature to
 * verify a certificate with.
 */
@RegisterForReflection(targets = {
        // Base classes walked by the bean mapper
        AlipayObject.class,
        AlipayResponse.class,
        // Requests
        AlipayDataDataserviceBillDownloadurlQueryRequest.class,
        AlipayOpenAppAlipaycertDownloadRequest.class,
        AlipayTradeCancelRequest.class,
        AlipayTradeCloseRequest.class,
        AlipayTradePrecreateRequest.class,
        AlipayTradeQueryRequest.class,
        AlipayTradeRefundRequest.class,
        AlipayTradeFastpayRefundQueryRequest.class,
        // Responses
        AlipayDataDataserviceBillDownloadurlQueryResponse.class,
        AlipayOpenAppAlipaycertDownloadResponse.class,
        AlipayTradeCancelResponse.class,
        AlipayTradeCloseResponse.class,
        AlipayTradePrecreateResponse.class,
        AlipayTradeQueryResponse.class,
        AlipayTradeRefundResponse.class,
        AlipayTradeFastpayRefundQueryResponse.class,
        // Biz models written into biz_content
        AlipayDataDataserviceBillDownloadurlQueryModel.class,
        AlipayOpenAppAlipaycertDownloadModel.class,
        AlipayTradeCancelModel.class,
        AlipayTradeCloseModel.class,
        AlipayTradePrecreateModel.class,
        AlipayTradeQueryModel.class,
        AlipayTradeRefundModel.class,
        AlipayTradeFastpayRefundQueryModel.class,
        // Nested domain classes reachable from the fields of the models and responses above
        BkAgentReqInfo.class,
        BkAgentRespInfo.class,
        BusinessParams.class,
        ChargeInfo.class,
        CloseExtendParams.class,
        ContributeDetail.class,
        DepositBackInfo.class,
        EnterprisePayInfo.class,
        ExtUserInfo.class,
        ExtendParams.class,
        ExternalPayerInfo.class,
        FulfillmentDetail.class,
        GoodsDetail.class,
        HbFqPayInfo.class,
        IntactChargeInfo.class,
        OpenApiRoyaltyDetailInfoPojo.class,
        PaymentInfoWithId.class,
        PresetPayToolInfo.class,
        RefundChargeInfo.class,
        RefundRoyaltyResult.class,
        RefundGoodsDetail.class,
        RefundSubFee.class,
        RoyaltyDetailInfos.class,
        RoyaltyInfo.class,
        SettleDetailInfo.class,
        SettleInfo.class,
        SubFee.class,
        SubMerchant.class,
        TapPayInfo.class,
        TradeFundBill.class,
        TradeSettleDetail.class,
        TradeSettleInfo.class,
        VoucherDetail.class
}, classNames = {
        // The SDK's own copies of the certificate download, in com.alipay.api, which its certificate mode calls by
        // itself when an answer comes under a certificate it does not hold yet (AbstractAlipayClient)
        "com.alipay.api.AlipayOpenAppAlipaycertDownloadRequest",
        "com.alipay.api.AlipayOpenAppAlipaycertDownloadResponse",
        // BouncyCastle's X.509 certificate factory, as the SDK's provider looks it up
        "org.bouncycastle.jcajce.provider.asymmetric.X509$Mappings",
        "org.bouncycastle.jcajce.provider.asymmetric.x509.CertificateFactory",
        // and the RSA signatures certificates are signed with (SHA1withRSA on old roots, SHA256withRSA and up)
        "org.bouncycastle.jcajce.provider.asymmetric.rsa.DigestSignatureSpi$SHA1",
        "org.bouncycastle.jcajce.provider.asymmetric.rsa.DigestSignatureSpi$SHA256",
        "org.bouncycastle.jcajce.provider.asymmetric.rsa.DigestSignatureSpi$SHA384",
        "org.bouncycastle.jcajce.provider.asymmetric.rsa.DigestSignatureSpi$SHA512"
})
final class AlipayNativeReflection {

    private AlipayNativeReflection() {
    }
}
