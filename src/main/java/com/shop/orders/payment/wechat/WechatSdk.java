package com.shop.orders.payment.wechat;

import java.time.Duration;
import java.util.Optional;

import com.wechat.pay.java.core.Config;
import com.wechat.pay.java.core.RSAAutoCertificateConfig;
import com.wechat.pay.java.core.RSAPublicKeyConfig;
import com.wechat.pay.java.core.certificate.AutoCertificateService;
import com.wechat.pay.java.core.http.DefaultHttpClientBuilder;
import com.wechat.pay.java.core.http.HttpClient;
import com.wechat.pay.java.core.notification.NotificationConfig;
import com.wechat.pay.java.core.notification.NotificationParser;
import com.wechat.pay.java.service.billdownload.BillDownloadServiceExtension;
import com.wechat.pay.java.service.payments.nativepay.NativePayService;
import com.wechat.pay.java.service.refund.RefundService;

/**
 * The SDK's objects for the merchant, made once from its configuration and keys: the Native payment, refund and bill
 * APIs on one HTTP client, and the notify parser. The bill's download goes through that client too (signed, and sent
 * where every call goes: {@link BaseUrlRoute} rewrites the download_url's host as it does the API's). Their calls
 * block; the SDK documents no thread-safety, but they hold only final state, as its README's "build one, reuse it"
 * assumes.
 *
 * <p>In certificate mode, building downloads WeChat's platform certificates (/v3/certificates, without verifying that
 * answer: the certificates are AES-GCM encrypted with the APIv3 key instead) and registers the merchant with the SDK's
 * static refresher, which downloads them again every 60 minutes until {@link #close()}.
 */
final class WechatSdk implements AutoCloseable {

    /** The SDK's key for the merchant's certificates in its static refresher. */
    private static final String CERTIFICATE_ALGORITHM = "RSA";

    final NativePayService nativePay;
    final RefundService refunds;
    /** The trade bill: where it is (GET /v3/bill/tradebill, a signed answer) and its download (unsigned). */
    final BillDownloadServiceExtension bills;
    final NotificationParser notifies;
    /** What the merchant's requests name: its number, its app, where WeChat posts the payment and refund notifies. */
    final String mchid;
    final String appid;
    final String notifyUrl;
    final String refundNotifyUrl;
    private final boolean certificates;

    private WechatSdk(NativePayService nativePay, RefundService refunds, BillDownloadServiceExtension bills,
            NotificationParser notifies, WechatConfig config, boolean certificates) {
        this.nativePay = nativePay;
        this.refunds = refunds;
        this.bills = bills;
        this.notifies = notifies;
        this.mchid = required(config.mchid(), "mchid");
        this.appid = required(config.appid(), "appid");
        this.notifyUrl = required(config.notifyUrl(), "notify-url");
        this.refundNotifyUrl = required(config.refundNotifyUrl(), "refund-notify-url");
        this.certificates = certificates;
    }

    /**
     * Blocks (certificate mode: the download); fails with the SDK's exception when keys or download fail, and with an
     * {@link IllegalStateException} naming a merchant setting that is not set.
     */
    static WechatSdk build(WechatConfig config, WechatKeys keys) {
        String mchid = required(config.mchid(), "mchid");
        DefaultHttpClientBuilder http = new DefaultHttpClientBuilder()
                .connectTimeoutMs(millis(config.connectTimeout()))
                .readTimeoutMs(millis(config.readTimeout()))
                .writeTimeoutMs(millis(config.writeTimeout()));
        config.baseUrl().filter(url -> !url.isBlank()).ifPresent(url -> http.okHttpClient(BaseUrlRoute.client(url)));
        boolean certificates = config.verification() == Verification.CERTIFICATE;
        Config sdkConfig;
        NotificationConfig notifyConfig;
        if (certificates) {
            // The certificate download goes the same way as the calls (its builder is copied here, timeouts and all).
            RSAAutoCertificateConfig auto = new RSAAutoCertificateConfig.Builder().merchantId(mchid)
                    .privateKey(keys.merchantPrivateKeyPem()).merchantSerialNumber(keys.merchantSerial())
                    .apiV3Key(keys.apiV3Key()).httpClientBuilder(http).build();
            sdkConfig = auto;
            notifyConfig = auto;
        } else {
            RSAPublicKeyConfig publicKey = new RSAPublicKeyConfig.Builder().merchantId(mchid)
                    .privateKey(keys.merchantPrivateKeyPem()).merchantSerialNumber(keys.merchantSerial())
                    .publicKey(keys.platformPublicKeyPem()).publicKeyId(keys.publicKeyId()).apiV3Key(keys.apiV3Key())
                    .build();
            sdkConfig = publicKey;
            notifyConfig = publicKey;
        }
        HttpClient client = http.config(sdkConfig).build();
        // The bill service's builder wants a decryptor (for the encrypted bills, which are not asked for here).
        return new WechatSdk(new NativePayService.Builder().httpClient(client).build(),
                new RefundService.Builder().httpClient(client).build(),
                new BillDownloadServiceExtension.Builder().httpClient(client).decryptor(sdkConfig.createDecryptor())
                        .build(),
                new NotificationParser(notifyConfig), config, certificates);
    }

    /** Certificate mode: stops the SDK's hourly download for this merchant (its refresher thread is static). */
    @Override
    public void close() {
        if (certificates) {
            AutoCertificateService.unregister(mchid, CERTIFICATE_ALGORITHM);
        }
    }

    private static String required(Optional<String> value, String name) {
        return value.filter(v -> !v.isBlank())
                .orElseThrow(() -> new IllegalStateException("shop.wechat." + name + " is not set"));
    }

    private static int millis(Duration duration) {
        return (int) duration.toMillis();
    }
}
