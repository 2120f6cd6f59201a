package com.shop.orders.sandbox.wechat;

import java.time.Duration;

import javax.net.ssl.SSLContext;
import javax.net.ssl.X509TrustManager;

import com.wechat.pay.java.core.Config;
import com.wechat.pay.java.core.RSAAutoCertificateConfig;
import com.wechat.pay.java.core.RSAPublicKeyConfig;
import com.wechat.pay.java.core.http.DefaultHttpClientBuilder;
import com.wechat.pay.java.core.http.HttpClient;
import com.wechat.pay.java.core.notification.NotificationConfig;
import com.wechat.pay.java.core.notification.NotificationParser;
import com.wechat.pay.java.service.payments.nativepay.NativePayService;

import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;

/**
 * The official SDK pointed at the sandbox: its own OkHttp client with an interceptor that sends WeChat's host to the
 * sandbox's (the request is signed before, over WeChat's path), as the wechat-pay notes recommend.
 */
final class WechatSandboxClients {

    private WechatSandboxClients() {
    }

    static RSAPublicKeyConfig config(WechatSandboxKeys keys, String mchid) {
        return new RSAPublicKeyConfig.Builder().merchantId(mchid).privateKey(keys.merchantPrivateKeyPem())
                .merchantSerialNumber(keys.merchantSerial()).publicKey(keys.platformPublicKeyPem())
                .publicKeyId(keys.publicKeyId()).apiV3Key(keys.apiV3Key()).build();
    }

    /** Certificate mode: build() downloads the platform certificates from the sandbox, as from WeChat. */
    static RSAAutoCertificateConfig certificateConfig(WechatSandboxKeys keys, String mchid, int port) {
        return new RSAAutoCertificateConfig.Builder().merchantId(mchid).privateKey(keys.merchantPrivateKeyPem())
                .merchantSerialNumber(keys.merchantSerial()).apiV3Key(keys.apiV3Key())
                .httpClientBuilder(new DefaultHttpClientBuilder().okHttpClient(toSandbox(port))).build();
    }

    static NativePayService nativePay(Config config, int port, Duration readTimeout) {
        return new NativePayService.Builder().httpClient(httpClient(config, port, readTimeout)).build();
    }

    static HttpClient httpClient(Config config, int port, Duration readTimeout) {
        return new DefaultHttpClientBuilder().config(config).okHttpClient(toSandbox(port))
                .readTimeoutMs((int) readTimeout.toMillis()).build();
    }

    static NotificationParser notificationParser(NotificationConfig config) {
        return new NotificationParser(config);
    }

    private static OkHttpClient toSandbox(int port) {
        return toSandbox(new OkHttpClient.Builder(), "http", port);
    }

    /** To a sandbox serving HTTPS under a certificate that {@code trust} trusts (its only authority). */
    static NativePayService nativePayOverTls(Config config, int port, SSLContext tls, X509TrustManager trust) {
        OkHttpClient ok = toSandbox(new OkHttpClient.Builder().sslSocketFactory(tls.getSocketFactory(), trust),
                "https", port);
        return new NativePayService.Builder().httpClient(new DefaultHttpClientBuilder().config(config).okHttpClient(ok)
                .build()).build();
    }

    private static OkHttpClient toSandbox(OkHttpClient.Builder client, String scheme, int port) {
        return client.addInterceptor(chain -> {
            HttpUrl url = chain.request().url();
            HttpUrl sandbox = url.newBuilder().scheme(scheme).host("localhost").port(port)
                    .encodedPath(WechatGateway.PATH_PREFIX + url.encodedPath()).build();
            return chain.proceed(chain.request().newBuilder().url(sandbox).build());
        }).build();
    }
}
