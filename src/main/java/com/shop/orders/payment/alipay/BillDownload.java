package com.shop.orders.payment.alipay;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.LocalDate;

import jakarta.enterprise.context.ApplicationScoped;

import com.shop.orders.payment.BillLimits;
import com.shop.orders.payment.BillNotDownloadedException;
import com.shop.orders.payment.TradeBill;
import com.shop.orders.payment.UnusableBillException;
import com.shop.orders.resilience.MutinyBridge;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;

/**
 * Fetches a bill from the link Alipay handed out, bounded in time and size, on a worker thread (the JDK's client
 * reads the body blocking), and parses it there too: a big bill is never read on an event loop.
 */
@ApplicationScoped
public class BillDownload {

    private final HttpClient client = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NORMAL).build();

    /** The bill behind the link; fails with the reason when it cannot be had or used. */
    Uni<TradeBill> fetch(String url, LocalDate date, BillLimits limits) {
        long max = limits.maxBytes();
        return MutinyBridge.backOnContext(Uni.createFrom()
                .item(() -> TradeBillParser.parse(download(url, limits), date, limits.zone(), max * 10))
                .runSubscriptionOn(Infrastructure.getDefaultWorkerPool())
                .ifNoItem().after(limits.timeout().multipliedBy(2)).fail());
    }

    private byte[] download(String url, BillLimits limits) {
        long max = limits.maxBytes();
        HttpRequest request;
        try {
            request = HttpRequest.newBuilder(URI.create(url)).timeout(limits.timeout()).GET().build();
        } catch (IllegalArgumentException e) {
            throw new UnusableBillException("Alipay's bill link is not a URL: " + url);
        }
        try {
            HttpResponse<InputStream> response = client.send(request, HttpResponse.BodyHandlers.ofInputStream());
            try (InputStream body = response.body()) {
                if (response.statusCode() != 200) {
                    throw new BillNotDownloadedException("the bill's link answered HTTP " + response.statusCode());
                }
                if (response.headers().firstValueAsLong("Content-Length").orElse(0) > max) {
                    throw new UnusableBillException("the bill is larger than " + max + " bytes");
                }
                byte[] zip = body.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, max + 1));
                if (zip.length > max) {
                    throw new UnusableBillException("the bill is larger than " + max + " bytes");
                }
                return zip;
            }
        } catch (IOException e) {
            throw new BillNotDownloadedException("the bill could not be downloaded: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BillNotDownloadedException("the bill's download was interrupted");
        }
    }
}
