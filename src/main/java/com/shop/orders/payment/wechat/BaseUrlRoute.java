package com.shop.orders.payment.wechat;

import java.io.IOException;

import okhttp3.HttpUrl;
import okhttp3.Interceptor;
import okhttp3.OkHttpClient;
import okhttp3.Response;

/**
 * Sends the SDK's requests, which it addresses to WeChat Pay's host, to another base URL: the sandbox in dev and test.
 * The SDK has signed each request over WeChat's own path before it reaches OkHttp, and verifies the answer after, so
 * neither changes; only where the bytes go does.
 */
final class BaseUrlRoute implements Interceptor {

    private final HttpUrl base;
    /** The base URL's path without its trailing slash, put before WeChat's path ("" for none). */
    private final String pathPrefix;

    private BaseUrlRoute(HttpUrl base) {
        this.base = base;
        String path = base.encodedPath();
        this.pathPrefix = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    }

    /** An OkHttp client of its own for the SDK, whose every request goes to {@code baseUrl}. */
    static OkHttpClient client(String baseUrl) {
        return new OkHttpClient.Builder().addInterceptor(new BaseUrlRoute(HttpUrl.get(baseUrl))).build();
    }

    @Override
    public Response intercept(Chain chain) throws IOException {
        HttpUrl wechat = chain.request().url();
        HttpUrl routed = wechat.newBuilder().scheme(base.scheme()).host(base.host()).port(base.port())
                .encodedPath(pathPrefix + wechat.encodedPath()).build();
        return chain.proceed(chain.request().newBuilder().url(routed).build());
    }
}
