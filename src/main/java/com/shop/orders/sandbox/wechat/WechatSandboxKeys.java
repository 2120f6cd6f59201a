package com.shop.orders.sandbox.wechat;

import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;

import jakarta.enterprise.context.ApplicationScoped;

import com.shop.orders.payment.wechat.WechatKeys;
import com.shop.orders.sandbox.CertificateIssuer;
import com.shop.orders.sandbox.KeyPairs;

import io.quarkus.arc.profile.IfBuildProfile;

/**
 * Fresh keys for every start of a dev or test build: the merchant's RSA-2048 pair with its certificate serial (the
 * merchant signs requests with the private half), WeChat Pay's platform pair with its public-key ID and its platform
 * certificate (answers and notifies are signed with it, under the one or the other), and the APIv3 key notifies and
 * the certificate download are encrypted with. The service's WeChat channel uses the same ones ({@link WechatKeys}:
 * this bean wins over the configured keys in dev and test).
 */
@ApplicationScoped
@IfBuildProfile(anyOf = {"dev", "test"})
public class WechatSandboxKeys implements WechatKeys {

    private final KeyPair merchant = KeyPairs.newRsaPair();
    private final KeyPair platform = KeyPairs.newRsaPair();
    private final String merchantSerial = HexFormat.of().withUpperCase().formatHex(randomBytes(20));
    private final String publicKeyId = "PUB_KEY_ID_" + HexFormat.of().withUpperCase().formatHex(randomBytes(16));
    private final String apiV3Key = WechatSigning.nonce(32);
    /** Issued by a root of the sandbox's own, named as WeChat's are (Tenpay.com); the SDK checks no chain. */
    private final X509Certificate platformCertificate = CertificateIssuer
            .newAuthority("CN=Sandbox Tenpay.com Root CA,OU=Sandbox Tenpay.com CA Center,O=Sandbox Tenpay.com,C=CN")
            .issue(platform.getPublic(), "CN=Sandbox Tenpay.com sign,OU=Sandbox Tenpay.com CA Center,"
                    + "O=Sandbox Tenpay.com,L=Shenzhen,ST=Guangdong,C=CN");

    public PrivateKey merchantPrivateKey() {
        return merchant.getPrivate();
    }

    /** PKCS#8 PEM: what a merchant's configuration holds (apiclient_key.pem). */
    @Override
    public String merchantPrivateKeyPem() {
        return pem("PRIVATE KEY", merchant.getPrivate().getEncoded());
    }

    public PublicKey merchantPublicKey() {
        return merchant.getPublic();
    }

    /** The serial of the merchant's API certificate, named in every request's Authorization. */
    @Override
    public String merchantSerial() {
        return merchantSerial;
    }

    PrivateKey platformPrivateKey() {
        return platform.getPrivate();
    }

    public PublicKey platformPublicKey() {
        return platform.getPublic();
    }

    /** X.509 PEM: the WeChat Pay public key a merchant downloads from its console (pub_key.pem). */
    @Override
    public String platformPublicKeyPem() {
        return pem("PUBLIC KEY", platform.getPublic().getEncoded());
    }

    @Override
    public String publicKeyId() {
        return publicKeyId;
    }

    @Override
    public String apiV3Key() {
        return apiV3Key;
    }

    /** The platform certificate for the platform key, as GET /v3/certificates serves it. */
    public X509Certificate platformCertificate() {
        return platformCertificate;
    }

    public String platformCertificatePem() {
        return CertificateIssuer.pem(platformCertificate);
    }

    /** Its serial as WeChat writes it and the SDK looks it up: upper-case hex. */
    public String platformCertificateSerial() {
        return platformCertificate.getSerialNumber().toString(16).toUpperCase(Locale.ROOT);
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[] { '\n' }).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    private static byte[] randomBytes(int count) {
        byte[] bytes = new byte[count];
        ThreadLocalRandom.current().nextBytes(bytes);
        return bytes;
    }
}
