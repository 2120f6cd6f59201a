package com.shop.orders.sandbox;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateEncodingException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;

import org.bouncycastle.asn1.ASN1EncodableVector;
import org.bouncycastle.asn1.ASN1Integer;
import org.bouncycastle.asn1.DERBitString;
import org.bouncycastle.asn1.DERNull;
import org.bouncycastle.asn1.DERSequence;
import org.bouncycastle.asn1.pkcs.PKCSObjectIdentifiers;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.ExtensionsGenerator;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.asn1.x509.TBSCertificate;
import org.bouncycastle.asn1.x509.Time;
import org.bouncycastle.asn1.x509.V3TBSCertificateGenerator;

/**
 * A certificate authority of the sandbox: an RSA-2048 key pair with a self-signed root certificate, issuing
 * X.509 v3 certificates signed SHA256withRSA, as Alipay's CA issues the application's and its own public-key
 * certificates. Built from BouncyCastle's ASN.1 classes (bcprov, which the Alipay SDK needs anyway), so the
 * sandbox adds no certificate-building library to the service. Tests use it for expired and foreign
 * certificates too.
 */
public final class CertificateIssuer {

    private static final SecureRandom SERIALS = new SecureRandom();
    private static final AlgorithmIdentifier SHA256_WITH_RSA =
            new AlgorithmIdentifier(PKCSObjectIdentifiers.sha256WithRSAEncryption, DERNull.INSTANCE);

    private final KeyPair keys;
    private final X509Certificate certificate;

    private CertificateIssuer(KeyPair keys, String distinguishedName, Instant notBefore, Instant notAfter) {
        this.keys = keys;
        this.certificate = sign(keys.getPublic(), new X500Name(distinguishedName), new X500Name(distinguishedName),
                notBefore, notAfter, true, null);
    }

    /** A new root CA, valid from a day ago for ten years. */
    public static CertificateIssuer newAuthority(String distinguishedName) {
        return newAuthority(distinguishedName, Instant.now());
    }

    /**
     * A new root CA, valid from a day before {@code now} for ten years: for a check that runs on a clock of its own,
     * so that the certificates and the check count from the same instant.
     */
    public static CertificateIssuer newAuthority(String distinguishedName, Instant now) {
        return new CertificateIssuer(KeyPairs.newRsaPair(), distinguishedName, now.minus(Duration.ofDays(1)),
                now.plus(Duration.ofDays(3650)));
    }

    public X509Certificate certificate() {
        return certificate;
    }

    /** An end-entity certificate for {@code subjectKey}, valid from a day ago for a year. */
    public X509Certificate issue(PublicKey subjectKey, String distinguishedName) {
        Instant now = Instant.now();
        return issue(subjectKey, distinguishedName, now.minus(Duration.ofDays(1)), now.plus(Duration.ofDays(365)));
    }

    public X509Certificate issue(PublicKey subjectKey, String distinguishedName, Instant notBefore, Instant notAfter) {
        return sign(subjectKey, new X500Name(distinguishedName),
                X500Name.getInstance(certificate.getSubjectX500Principal().getEncoded()), notBefore, notAfter, false,
                null);
    }

    /**
     * A TLS server's certificate for {@code subjectKey}, for server authentication under the names it is reached by
     * (its subject alternative names, as clients check them), valid from a day ago for {@code validity}.
     */
    public X509Certificate issueServer(PublicKey subjectKey, String distinguishedName, Duration validity,
            GeneralName... names) {
        Instant now = Instant.now();
        return sign(subjectKey, new X500Name(distinguishedName),
                X500Name.getInstance(certificate.getSubjectX500Principal().getEncoded()), now.minus(Duration.ofDays(1)),
                now.plus(validity), false, new GeneralNames(names));
    }

    /** The certificates as PEM, one block each, in the order given. */
    public static String pem(X509Certificate... certificates) {
        StringBuilder pem = new StringBuilder();
        Base64.Encoder base64 = Base64.getMimeEncoder(64, new byte[] { '\n' });
        for (X509Certificate certificate : certificates) {
            try {
                pem.append("-----BEGIN CERTIFICATE-----\n").append(base64.encodeToString(certificate.getEncoded()))
                        .append("\n-----END CERTIFICATE-----\n");
            } catch (CertificateEncodingException e) {
                throw new IllegalStateException("a certificate made here encodes", e);
            }
        }
        return pem.toString();
    }

    /** {@code serverNames}: a TLS server's names, null for any other certificate. */
    private X509Certificate sign(PublicKey subjectKey, X500Name subject, X500Name issuer, Instant notBefore,
            Instant notAfter, boolean authority, GeneralNames serverNames) {
        try {
            V3TBSCertificateGenerator tbs = new V3TBSCertificateGenerator();
            tbs.setSerialNumber(new ASN1Integer(new BigInteger(63, SERIALS).add(BigInteger.ONE)));
            tbs.setSignature(SHA256_WITH_RSA);
            tbs.setIssuer(issuer);
            tbs.setSubject(subject);
            tbs.setStartDate(new Time(Date.from(notBefore)));
            tbs.setEndDate(new Time(Date.from(notAfter)));
            tbs.setSubjectPublicKeyInfo(SubjectPublicKeyInfo.getInstance(subjectKey.getEncoded()));
            ExtensionsGenerator extensions = new ExtensionsGenerator();
            extensions.addExtension(Extension.basicConstraints, true, new BasicConstraints(authority));
            extensions.addExtension(Extension.keyUsage, true, new KeyUsage(authority
                    ? KeyUsage.keyCertSign | KeyUsage.cRLSign
                    : KeyUsage.digitalSignature | KeyUsage.keyEncipherment));
            if (serverNames != null) {
                extensions.addExtension(Extension.subjectAlternativeName, false, serverNames);
                extensions.addExtension(Extension.extendedKeyUsage, false,
                        new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
            }
            tbs.setExtensions(extensions.generate());
            TBSCertificate toSign = tbs.generateTBSCertificate();

            Signature signer = Signature.getInstance("SHA256withRSA");
            signer.initSign(keys.getPrivate());
            signer.update(toSign.getEncoded());
            ASN1EncodableVector certificate = new ASN1EncodableVector();
            certificate.add(toSign);
            certificate.add(SHA256_WITH_RSA);
            certificate.add(new DERBitString(signer.sign()));
            byte[] der = new DERSequence(certificate).getEncoded();
            return (X509Certificate) CertificateFactory.getInstance("X.509")
                    .generateCertificate(new ByteArrayInputStream(der));
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot issue a sandbox certificate", e);
        }
    }

    /** A fresh key pair with nothing issued for it yet, for callers that need one beside an issuer. */
    public static KeyPair newKeyPair() {
        return KeyPairs.newRsaPair();
    }
}
