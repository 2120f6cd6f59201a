package com.shop.orders.payment.alipay;

import java.nio.charset.Charset;

/**
 * The charset of Alipay's trade bill: GBK, its zip entry names and its CSV files.
 *
 * <p>Initialized when the native image is built (application.properties): the charset object is then part of the
 * image, with its tables, and works there without the image carrying every charset of the JDK. Look it up through
 * this constant only: a native image finds by name only the standard charsets.
 */
public final class TradeBillCharset {

    public static final Charset GBK = Charset.forName("GBK");

    private TradeBillCharset() {
    }
}
