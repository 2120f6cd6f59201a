package com.shop.orders.sandbox.wechat;

import java.time.Duration;

import com.wechat.pay.java.core.RSAPublicKeyConfig;
import com.wechat.pay.java.core.http.DefaultHttpClientBuilder;
import com.wechat.pay.java.core.http.HttpClient;
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

    static NativePayService nativePay(RSAPublicKeyConfig config, int port, Duration readTimeout) {
        OkHttpClient toSandbox = new OkHttpClient.Builder().addInterceptor(chain -> {
            HttpUrl url = chain.request().url();
            HttpUrl sandbox = url.newBuilder().scheme("http").host("localhost").port(port)
                    .encodedPath(WechatGateway.PATH_PREFIX + url.encodedPath()).build();
            return chain.proceed(chain.request().newBuilder().url(sandbox).build());
        }).build();
        HttpClient client = new DefaultHttpClientBuilder().config(config).okHttpClient(toSandbox)
                .readTimeoutMs((int) readTimeout.toMillis()).build();
        return new NativePayService.Builder().httpClient(client).build();
    }

    static NotificationParser notificationParser(RSAPublicKeyConfig config) {
        return new NotificationParser(config);
    }
}
