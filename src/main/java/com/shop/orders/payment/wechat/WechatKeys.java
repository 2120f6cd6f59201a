package com.shop.orders.payment.wechat;

/**
 * The key material for talking to WeChat Pay: requests are signed with the merchant's private key (named by its
 * certificate's serial), answers and notifies verified with WeChat Pay's public key (named by its ID) or, in
 * certificate mode, with the platform certificates the SDK downloads; notifies are decrypted with the APIv3 key.
 */
public interface WechatKeys {

    /** PKCS#8 PEM (apiclient_key.pem). */
    String merchantPrivateKeyPem();

    /** The serial number of the merchant's API certificate. */
    String merchantSerial();

    /** 32 characters. */
    String apiV3Key();

    /** Public-key mode: PUB_KEY_ID_... */
    String publicKeyId();

    /** Public-key mode: WeChat Pay's public key, X.509 PEM (pub_key.pem). */
    String platformPublicKeyPem();
}
