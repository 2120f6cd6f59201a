package com.shop.orders.connections;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.util.Optional;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.PemTrustOptions;

/** The authorities a server's certificate must chain to, given as PEM content or as a PEM file. */
record TrustedAuthorities(Optional<String> content, Optional<String> path) {

    boolean given() {
        return content.isPresent() || path.isPresent();
    }

    /** For a Vert.x client; the content wins over the file. */
    PemTrustOptions trustOptions() {
        PemTrustOptions options = new PemTrustOptions();
        content.ifPresentOrElse(pem -> options.addCertValue(Buffer.buffer(pem, StandardCharsets.UTF_8.name())),
                () -> path.ifPresent(options::addCertPath));
        return options;
    }

    /** Why these cannot be used (with the variable to fix), or null: the content or file holds X.509 certificates. */
    String problem(String contentVariable, String pathVariable) {
        try {
            byte[] pem;
            String variable;
            if (content.isPresent()) {
                pem = content.get().getBytes(StandardCharsets.UTF_8);
                variable = contentVariable;
            } else if (path.isPresent()) {
                variable = pathVariable;
                if (!Files.isReadable(Path.of(path.get()))) {
                    return pathVariable + ": no readable file at " + path.get();
                }
                pem = Files.readAllBytes(Path.of(path.get()));
            } else {
                return null;
            }
            if (CertificateFactory.getInstance("X.509").generateCertificates(new ByteArrayInputStream(pem)).isEmpty()) {
                return variable + ": no certificate in it";
            }
            return null;
        } catch (IOException | CertificateException e) {
            return (content.isPresent() ? contentVariable : pathVariable) + ": not PEM certificates (" + e.getMessage()
                    + ")";
        }
    }
}
