package com.shop.orders.testsupport;

import static com.shop.orders.testsupport.Management.management;

/** Reads one sample from the application's Prometheus endpoint. */
public final class Metrics {

    private Metrics() {
    }

    /** The value of the sample named exactly {@code series} (name plus labels as printed), 0 when absent. */
    public static double value(String series) {
        String text = management().get("/q/metrics").then().statusCode(200).extract().asString();
        return text.lines()
                .filter(line -> line.startsWith(series + " "))
                .mapToDouble(line -> Double.parseDouble(line.substring(series.length() + 1).trim().split(" ")[0]))
                .sum();
    }
}
