package com.shop.orders.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/**
 * TLS for a test server the way the public internet has it: a certificate authority of the test's own, a server
 * certificate for 127.0.0.1 and localhost that it signed, and a truststore with only that authority, which the
 * service under test is given as its JVM-wide (or native image's) truststore; the same as PEM files for servers and
 * clients that take those (the database, Redis, RocketMQ). Made with the JDK's keytool, fresh for every run and valid
 * for two days; nothing of it is a secret.
 */
public final class TestTls {

    private static final String PASSWORD = "test-only";

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
        try {
            Files.createDirectories(dir);
            Path ca = dir.resolve("ca.p12");
            Path caPem = dir.resolve("ca.pem");
            Path server = dir.resolve("server.p12");
            Path csr = dir.resolve("server.csr");
            Path serverPem = dir.resolve("server.pem");
            Path trust = dir.resolve("truststore.p12");
            for (Path stale : List.of(ca, caPem, server, csr, serverPem, trust)) {
                Files.deleteIfExists(stale);
            }
            keytool("-genkeypair", "-alias", "ca", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
                    "-dname", "CN=Order service test CA", "-ext", "bc:c", "-keystore", ca.toString());
            keytool("-exportcert", "-rfc", "-alias", "ca", "-keystore", ca.toString(), "-file", caPem.toString());
            keytool("-genkeypair", "-alias", "server", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
                    "-dname", "CN=127.0.0.1", "-keystore", server.toString());
            keytool("-certreq", "-alias", "server", "-keystore", server.toString(), "-file", csr.toString());
            keytool("-gencert", "-rfc", "-alias", "ca", "-keystore", ca.toString(), "-infile", csr.toString(),
                    "-outfile", serverPem.toString(), "-validity", "2", "-ext", "san=ip:127.0.0.1,dns:localhost",
                    "-ext", "ku:c=digitalSignature,keyEncipherment", "-ext", "eku=serverAuth");
            keytool("-importcert", "-noprompt", "-alias", "ca", "-keystore", server.toString(), "-file",
                    caPem.toString());
            keytool("-importcert", "-alias", "server", "-keystore", server.toString(), "-file", serverPem.toString());
            keytool("-importcert", "-noprompt", "-alias", "ca", "-keystore", trust.toString(), "-file",
                    caPem.toString());
            TestTls tls = new TestTls(server, trust, caPem);
            tls.writePem(dir);
            return tls;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
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

    /** The server's certificate and key out of its key store, as PEM files beside the authority's. */
    private void writePem(Path dir) {
        try (InputStream in = Files.newInputStream(serverKeyStore)) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, PASSWORD.toCharArray());
            Files.writeString(dir.resolve("server-cert.pem"), pem("CERTIFICATE",
                    store.getCertificate("server").getEncoded()));
            Files.writeString(dir.resolve("server-key.pem"), pem("PRIVATE KEY",
                    store.getKey("server", PASSWORD.toCharArray()).getEncoded()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Unusable test key store " + serverKeyStore, e);
        }
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

    private static void keytool(String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        cmd.addAll(List.of(args));
        cmd.addAll(List.of("-storetype", "PKCS12", "-storepass", PASSWORD, "-keypass", PASSWORD));
        Process keytool = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try {
            String output = new String(keytool.getInputStream().readAllBytes());
            if (!keytool.waitFor(60, TimeUnit.SECONDS) || keytool.exitValue() != 0) {
                throw new IllegalStateException("keytool " + String.join(" ", args) + " failed:\n" + output);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while making test certificates", e);
        }
    }
}
