package com.shop.orders.resilience;

import javax.net.ssl.SSLException;

/** A failure told in one line for logs and health: what names what went wrong. */
public final class Causes {

    private static final int MAX_LENGTH = 300;

    private Causes() {
    }

    /**
     * A TLS failure as such, with the handshake's own message (it names the check that failed: the path to a trusted
     * authority, the host name); any other failure by its innermost cause. At most 300 characters.
     */
    public static String of(Throwable failure) {
        Throwable root = failure;
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof SSLException tls) {
                return shortened("TLS handshake failed: " + tls.getMessage());
            }
            root = cause;
        }
        return shortened(root.toString());
    }

    private static String shortened(String text) {
        return text.length() > MAX_LENGTH ? text.substring(0, MAX_LENGTH) + "..." : text;
    }
}
