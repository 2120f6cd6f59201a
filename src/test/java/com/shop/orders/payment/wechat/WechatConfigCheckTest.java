package com.shop.orders.payment.wechat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.shop.orders.connections.ConnectionsConfig;
import com.shop.orders.payment.PaymentConfig;
import com.shop.orders.sandbox.KeyPairs;

import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;

/**
 * What a production start says of the WeChat settings: nothing while the shop does not offer WeChat, nothing when they
 * are usable (keys as content or as files), and one line naming the variable for each that is missing or unusable.
 */
class WechatConfigCheckTest {

    private static Map<String, String> valid;

    @BeforeAll
    static void validSettings() {
        KeyPair merchant = KeyPairs.newRsaPair();
        KeyPair wechat = KeyPairs.newRsaPair();
        valid = new HashMap<>();
        valid.put("shop.payment.channels", "alipay,wechat");
        valid.put("shop.wechat.mchid", "1900000001");
        valid.put("shop.wechat.appid", "wxd678efh567hg6787");
        valid.put("shop.wechat.merchant-serial", "5157F09EFDC096DE15EBE81A47057A7232F1B8E1");
        valid.put("shop.wechat.private-key", pem("PRIVATE KEY", merchant.getPrivate().getEncoded()));
        valid.put("shop.wechat.api-v3-key", "0123456789abcdefghijklmnopqrstuv");
        valid.put("shop.wechat.public-key-id", "PUB_KEY_ID_0114232603812345678901234567890");
        valid.put("shop.wechat.public-key", pem("PUBLIC KEY", wechat.getPublic().getEncoded()));
        valid.put("shop.wechat.notify-url", "https://shop.example/api/payments/wechat/notify");
        valid.put("shop.wechat.refund-notify-url", "https://shop.example/api/payments/wechat/refund-notify");
    }

    @Test
    void aShopWithoutWechatIsNotChecked() {
        assertEquals(List.of(), problems(Map.of()));
        assertEquals(List.of(), problems(Map.of("shop.payment.channels", "alipay", "shop.wechat.notify-url", "http://x")));
    }

    @Test
    void usableSettingsPassAsContentOrAsFiles() throws Exception {
        assertEquals(List.of(), problems(valid));
        Map<String, String> files = new HashMap<>(valid);
        files.remove("shop.wechat.private-key");
        files.remove("shop.wechat.public-key");
        files.put("shop.wechat.private-key-path", file("apiclient_key.pem", valid.get("shop.wechat.private-key")));
        files.put("shop.wechat.public-key-path", file("pub_key.pem", valid.get("shop.wechat.public-key")));
        assertEquals(List.of(), problems(files));
        // Certificate mode verifies with downloaded certificates: no public key needed.
        Map<String, String> certificates = new HashMap<>(valid);
        certificates.remove("shop.wechat.public-key-id");
        certificates.remove("shop.wechat.public-key");
        certificates.put("shop.wechat.verification", "certificate");
        assertEquals(List.of(), problems(certificates));
    }

    @Test
    void everyMissingSettingIsNamed() {
        Map<String, String> offered = Map.of("shop.payment.channels", "wechat");
        List<String> problems = problems(offered);
        for (String variable : new String[] { "WECHAT_MCHID", "WECHAT_APPID", "WECHAT_MERCHANT_SERIAL",
                "WECHAT_PRIVATE_KEY", "WECHAT_API_V3_KEY", "WECHAT_PUBLIC_KEY_ID", "WECHAT_PUBLIC_KEY",
                "WECHAT_NOTIFY_URL", "WECHAT_REFUND_NOTIFY_URL" }) {
            assertTrue(problems.stream().anyMatch(line -> line.startsWith(variable + " (") && line.contains("not set")),
                    variable + " not named in " + problems);
        }
        assertEquals(9, problems.size(), problems.toString());
    }

    @Test
    void everyUnusableSettingIsNamed() {
        Map<String, String> unusable = new HashMap<>(valid);
        unusable.put("shop.wechat.mchid", "19000-0001");
        unusable.put("shop.wechat.merchant-serial", "not hex");
        // PKCS#1 ("BEGIN RSA PRIVATE KEY"), which the SDK does not read.
        unusable.put("shop.wechat.private-key", "-----BEGIN RSA PRIVATE KEY-----\nMIIEow==\n-----END RSA PRIVATE KEY-----");
        unusable.put("shop.wechat.api-v3-key", "too-short");
        unusable.put("shop.wechat.public-key-id", "5157F09EFDC096DE15EBE81A47057A7232F1B8E1");
        unusable.remove("shop.wechat.public-key");
        unusable.put("shop.wechat.public-key-path", "/nonexistent/pub_key.pem");
        unusable.put("shop.wechat.notify-url", "http://shop.example/api/payments/wechat/notify?x=1");
        unusable.put("shop.wechat.refund-notify-url", "refund-notify");
        unusable.put("shop.wechat.base-url", "http://localhost:8080/sandbox/wechat");
        List<String> problems = problems(unusable);
        for (String variable : new String[] { "WECHAT_MCHID (", "WECHAT_MERCHANT_SERIAL (", "WECHAT_PRIVATE_KEY (",
                "WECHAT_API_V3_KEY (", "WECHAT_PUBLIC_KEY_ID (", "WECHAT_PUBLIC_KEY_PATH (", "WECHAT_NOTIFY_URL (",
                "WECHAT_REFUND_NOTIFY_URL (", "SHOP_WECHAT_BASE_URL (" }) {
            assertTrue(problems.stream().anyMatch(line -> line.startsWith(variable)), variable + " not in " + problems);
        }
        assertEquals(9, problems.size(), problems.toString());
        assertTrue(problems.stream().noneMatch(line -> line.contains("MIIEow")), "no key material in " + problems);
    }

    @Test
    void aTestOfThePackagedServiceMayPointWechatAtItsStandIn() {
        Map<String, String> standIn = new HashMap<>(valid);
        standIn.put("shop.connections.require-tls", "false");
        standIn.put("shop.wechat.notify-url", "http://127.0.0.1:18089/api/payments/wechat/notify");
        standIn.put("shop.wechat.refund-notify-url", "http://127.0.0.1:18089/api/payments/wechat/refund-notify");
        standIn.put("shop.wechat.base-url", "http://127.0.0.1:18090/sandbox/wechat");
        assertEquals(List.of(), problems(standIn));
    }

    /** As production runs: TLS required (REQUIRE_TLS defaults to true there) unless the settings say otherwise. */
    private static List<String> problems(Map<String, String> settings) {
        Map<String, String> all = new HashMap<>(settings);
        all.putIfAbsent("shop.connections.require-tls", "true");
        // Quarkus's own converter: its durations ("3s") are no ISO-8601.
        SmallRyeConfig config = new SmallRyeConfigBuilder().withConverter(Duration.class, 100, new DurationConverter())
                .withMapping(WechatConfig.class)
                .withMapping(PaymentConfig.class)
                .withMapping(ConnectionsConfig.class)
                .withSources(new PropertiesConfigSource(all, "test", 100)).build();
        return new WechatConfigCheck(config.getConfigMapping(WechatConfig.class),
                config.getConfigMapping(PaymentConfig.class), config.getConfigMapping(ConnectionsConfig.class))
                .problems();
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + java.util.Base64.getMimeEncoder().encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    private static String file(String name, String content) throws Exception {
        Path path = Files.createTempDirectory("wechat-keys-").resolve(name);
        return Files.writeString(path, content).toString();
    }
}
