package com.shop.orders.payment.alipay;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * One certificate of certificate mode, given as PEM content (an environment variable from a Secret) or as the
 * path of a file holding it (a mounted Secret), named the way an operator sets it.
 *
 * @param variable the content's environment variable; the path's is the same with {@code _PATH}
 * @param property the content's config property; the path's is the same with {@code -path}
 */
record CertificateSetting(String variable, String property, Optional<String> content, Optional<String> path) {

    static CertificateSetting app(AlipayConfig config) {
        return new CertificateSetting("ALIPAY_APP_CERT", "shop.alipay.app-cert", config.appCert(), config.appCertPath());
    }

    static CertificateSetting alipay(AlipayConfig config) {
        return new CertificateSetting("ALIPAY_CERT", "shop.alipay.alipay-cert", config.alipayCert(),
                config.alipayCertPath());
    }

    static CertificateSetting root(AlipayConfig config) {
        return new CertificateSetting("ALIPAY_ROOT_CERT", "shop.alipay.root-cert", config.rootCert(),
                config.rootCertPath());
    }

    /** The PEM text; {@link IllegalStateException} with one line naming the variable when it cannot be had. */
    String read() {
        Optional<String> text = content.filter(value -> !value.isBlank());
        Optional<String> file = path.filter(value -> !value.isBlank());
        if (text.isEmpty() && file.isEmpty()) {
            throw new IllegalStateException(contentName() + " or " + pathName()
                    + " is not set (needed with ALIPAY_SIGN_MODE=certificate)");
        }
        if (text.isPresent() && file.isPresent()) {
            throw new IllegalStateException(contentName() + " and " + pathName() + " are both set: give one of them");
        }
        if (text.isPresent()) {
            return text.get();
        }
        try {
            return Files.readString(Path.of(file.get().trim()), StandardCharsets.US_ASCII);
        } catch (IOException | InvalidPathException e) {
            throw new IllegalStateException(pathName() + " cannot be read: " + file.get());
        }
    }

    /** The setting the certificate came from, for messages about the certificate itself. */
    String source() {
        return path.filter(value -> !value.isBlank()).isPresent() ? pathName() : contentName();
    }

    private String contentName() {
        return variable + " (" + property + ")";
    }

    private String pathName() {
        return variable + "_PATH (" + property + "-path)";
    }
}
