package com.shop.orders.payment.wechat;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.regex.Pattern;

import jakarta.enterprise.context.ApplicationScoped;

import com.wechat.pay.java.core.util.PemUtil;

import com.shop.orders.connections.ConnectionsConfig;
import com.shop.orders.payment.PaymentConfig;
import com.shop.orders.startup.StartupCheck;

/**
 * Production must not offer WeChat Pay half set up: a merchant number, app, certificate serial, private key and APIv3
 * key that WeChat will take, WeChat Pay's public key in public-key mode, https notify URLs (payment and refund), and
 * WeChat's own host (no base URL). Checked only when WeChat is one of the shop's channels.
 */
@ApplicationScoped
public class WechatConfigCheck implements StartupCheck {

    /** AES-256: the APIv3 key's UTF-8 bytes are the key. */
    static final int API_V3_KEY_BYTES = 32;
    /** WeChat's limit on notify_url. */
    static final int NOTIFY_URL_MAX = 255;
    private static final Pattern DIGITS = Pattern.compile("[0-9]+");
    private static final Pattern HEX = Pattern.compile("[0-9A-Fa-f]+");
    private static final String PUBLIC_KEY_ID_PREFIX = "PUB_KEY_ID_";

    private final WechatConfig wechat;
    private final List<String> channels;
    private final boolean requireTls;

    public WechatConfigCheck(WechatConfig wechat, PaymentConfig payment, ConnectionsConfig connections) {
        this.wechat = wechat;
        this.channels = payment.channels();
        this.requireTls = connections.requireTls();
    }

    @Override
    public List<String> problems() {
        if (!channels.contains(WechatChannel.NAME)) {
            return List.of();
        }
        List<String> problems = new ArrayList<>();
        matching("WECHAT_MCHID (shop.wechat.mchid)", wechat.mchid(), DIGITS, "digits", problems);
        required("WECHAT_APPID (shop.wechat.appid)", wechat.appid(), problems);
        matching("WECHAT_MERCHANT_SERIAL (shop.wechat.merchant-serial)", wechat.merchantSerial(), HEX,
                "a certificate serial number (hex)", problems);
        key(PemSetting.privateKey(wechat), PemUtil::loadPrivateKeyFromString,
                "an RSA private key in PKCS#8 PEM (BEGIN PRIVATE KEY)", problems);
        apiV3Key(problems);
        if (wechat.verification() == Verification.PUBLIC_KEY) {
            publicKeyId(problems);
            key(PemSetting.publicKey(wechat), PemUtil::loadPublicKeyFromString,
                    "an RSA public key in X.509 PEM (BEGIN PUBLIC KEY)", problems);
        }
        notifyUrl("WECHAT_NOTIFY_URL (shop.wechat.notify-url)", wechat.notifyUrl(), problems);
        notifyUrl("WECHAT_REFUND_NOTIFY_URL (shop.wechat.refund-notify-url)", wechat.refundNotifyUrl(), problems);
        // REQUIRE_TLS=false says this is no production shop (a test of the packaged service): its stand-in is allowed.
        if (requireTls) {
            wechat.baseUrl().filter(url -> !url.isBlank()).ifPresent(url -> problems.add("SHOP_WECHAT_BASE_URL "
                    + "(shop.wechat.base-url) is set: WeChat Pay's calls would go to " + url + " (dev and test only)"));
        }
        return problems;
    }

    private void apiV3Key(List<String> problems) {
        String setting = "WECHAT_API_V3_KEY (shop.wechat.api-v3-key)";
        if (required(setting, wechat.apiV3Key(), problems)
                && wechat.apiV3Key().get().getBytes(StandardCharsets.UTF_8).length != API_V3_KEY_BYTES) {
            problems.add(setting + " is not " + API_V3_KEY_BYTES + " bytes long");
        }
    }

    private void publicKeyId(List<String> problems) {
        String setting = "WECHAT_PUBLIC_KEY_ID (shop.wechat.public-key-id)";
        if (required(setting, wechat.publicKeyId(), problems)
                && !wechat.publicKeyId().get().startsWith(PUBLIC_KEY_ID_PREFIX)) {
            problems.add(setting + " is not a WeChat Pay public-key ID (" + PUBLIC_KEY_ID_PREFIX + "...)");
        }
    }

    /** A notify URL WeChat takes (payment, refund). */
    private void notifyUrl(String setting, Optional<String> value, List<String> problems) {
        if (!required(setting, value, problems)) {
            return;
        }
        String url = value.get();
        try {
            URI uri = URI.create(url);
            if (("https".equals(uri.getScheme()) || !requireTls && "http".equals(uri.getScheme())) && uri.getHost() != null && uri.getRawQuery() == null
                    && url.length() <= NOTIFY_URL_MAX) {
                return;
            }
        } catch (IllegalArgumentException e) {
            // reported below
        }
        problems.add(setting + " is not an absolute https URL without a query, at most " + NOTIFY_URL_MAX
                + " characters: " + url);
    }

    private static void key(PemSetting setting, Consumer<String> load, String what, List<String> problems) {
        String pem;
        try {
            pem = setting.read();
        } catch (IllegalStateException unset) {
            problems.add(unset.getMessage());
            return;
        }
        try {
            load.accept(pem);
        } catch (RuntimeException e) {
            problems.add(setting.source() + " is not " + what);
        }
    }

    private static void matching(String setting, Optional<String> value, Pattern pattern, String what,
            List<String> problems) {
        if (required(setting, value, problems) && !pattern.matcher(value.get()).matches()) {
            problems.add(setting + " is not " + what);
        }
    }

    /** True when set; else the problem is added. */
    private static boolean required(String setting, Optional<String> value, List<String> problems) {
        if (value.isEmpty() || value.get().isBlank()) {
            problems.add(setting + " is not set");
            return false;
        }
        return true;
    }
}
