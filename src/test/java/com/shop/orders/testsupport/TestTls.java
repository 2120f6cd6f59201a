package com.shop.orders.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

import org.bouncycastle.asn1.x509.GeneralName;

import com.shop.orders.sandbox.CertificateIssuer;

/**
 * TLS for a test server the way the public internet has it: a certificate authority of the test's own, a server
 * certificate for 127.0.0.1 and localhost that it signed, and a truststore with only that authority, which the
 * service under test is given as its JVM-wide (or native image's) truststore; the same as PEM files for servers and
 * clients that take those (the database, Redis, RocketMQ). Made by the sandbox's CertificateIssuer, fresh for every
 * run, the server's certificate valid for two days; nothing of it is a secret.
 */
public final class TestTls {

    private static final String PASSWORD = "test-only";
    private static final Duration VALIDITY = Duration.ofDays(2);

    private final Path serverKeyStore;
    private final Path trustStore;
    private final Path caPem;

    private TestTls(Path serverKeyStore, Path trustStore, Path caPem) {
        this.serverKeyStore = serverKeyStore;
        this.trustStore = trustStore;
        this.caPem = caPem;
    }

    /** A new authority and server certificate, in {@code dir}. */
    public static TestTls generate(Path dir) {
        // In process: keytool took a JVM start for each of its nine steps, about 6 s a set.
        CertificateIssuer authority = CertificateIssuer.newAuthority("CN=Order service test CA");
        KeyPair serverKeys = CertificateIssuer.newKeyPair();
        X509Certificate server = authority.issueServer(serverKeys.getPublic(), "CN=127.0.0.1", VALIDITY,
                new GeneralName(GeneralName.iPAddress, "127.0.0.1"), new GeneralName(GeneralName.dNSName, "localhost"));
        try {
            Files.createDirectories(dir);
            Path serverKeyStore = dir.resolve("server.p12");
            KeyStore keys = emptyStore();
            keys.setKeyEntry("server", serverKeys.getPrivate(), PASSWORD.toCharArray(),
                    new Certificate[] { server, authority.certificate() });
            save(keys, serverKeyStore);
            Path trustStore = dir.resolve("truststore.p12");
            KeyStore trust = emptyStore();
            trust.setCertificateEntry("ca", authority.certificate());
            save(trust, trustStore);
            Path caPem = dir.resolve("ca.pem");
            Files.writeString(caPem, CertificateIssuer.pem(authority.certificate()));
            Files.writeString(dir.resolve("server-cert.pem"), CertificateIssuer.pem(server));
            Files.writeString(dir.resolve("server-key.pem"), pem("PRIVATE KEY", serverKeys.getPrivate().getEncoded()));
            return new TestTls(serverKeyStore, trustStore, caPem);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Cannot store the test certificates in " + dir, e);
        }
    }

    /** The server's side: its certificate chain and key. */
    public SSLContext serverContext() {
        try (InputStream in = Files.newInputStream(serverKeyStore)) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, PASSWORD.toCharArray());
            KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(store, PASSWORD.toCharArray());
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys.getKeyManagers(), null, null);
            return context;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Unusable test key store " + serverKeyStore, e);
        }
    }

    /** A client's context that trusts the test's authority only (its truststore). */
    public SSLContext clientContext() {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] { clientTrustManager() }, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Unusable test trust store " + trustStore, e);
        }
    }

    /** What {@link #clientContext()} trusts, for clients that take the manager too (OkHttp). */
    public X509TrustManager clientTrustManager() {
        try (InputStream in = Files.newInputStream(trustStore)) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, PASSWORD.toCharArray());
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(store);
            return (X509TrustManager) trust.getTrustManagers()[0];
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Unusable test trust store " + trustStore, e);
        }
    }

    /** The authority's certificate, PEM: what a client is given to verify the server. */
    public Path caPem() {
        return caPem.toAbsolutePath();
    }

    /** The server's certificate, PEM: for servers configured with files (MariaDB, Redis, RocketMQ). */
    public Path serverCertificatePem() {
        return caPem.resolveSibling("server-cert.pem").toAbsolutePath();
    }

    /** The server's private key, PEM PKCS#8 (unencrypted, as those servers read it). */
    public Path serverKeyPem() {
        return caPem.resolveSibling("server-key.pem").toAbsolutePath();
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    /** System properties that make a client process trust this authority (and only it). */
    public Map<String, String> clientTrustProperties() {
        return Map.of("javax.net.ssl.trustStore", trustStore.toAbsolutePath().toString(),
                "javax.net.ssl.trustStorePassword", PASSWORD,
                "javax.net.ssl.trustStoreType", "PKCS12");
    }

    private static KeyStore emptyStore() throws IOException, GeneralSecurityException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        return store;
    }

    private static void save(KeyStore store, Path file) throws IOException, GeneralSecurityException {
        try (OutputStream out = Files.newOutputStream(file)) {
            store.store(out, PASSWORD.toCharArray());
        }
    }
}
