package com.shop.orders.payment.wechat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A PEM key given as content (an environment variable from a Secret) or as the path of a file holding it (a mounted
 * Secret), named the way an operator sets it: WECHAT_PRIVATE_KEY or WECHAT_PRIVATE_KEY_PATH, and so on.
 *
 * @param variable the content's environment variable; the path's is the same with {@code _PATH}
 * @param property the content's config property; the path's is the same with {@code -path}
 */
record PemSetting(String variable, String property, Optional<String> content, Optional<String> path) {

    static PemSetting privateKey(WechatConfig config) {
        return new PemSetting("WECHAT_PRIVATE_KEY", "shop.wechat.private-key", config.privateKey(),
                config.privateKeyPath());
    }

    static PemSetting publicKey(WechatConfig config) {
        return new PemSetting("WECHAT_PUBLIC_KEY", "shop.wechat.public-key", config.publicKey(), config.publicKeyPath());
    }

    /** The PEM text; {@link IllegalStateException} with one line naming the variables when it cannot be had. */
    String read() {
        Optional<String> text = content.filter(value -> !value.isBlank());
        Optional<String> file = path.filter(value -> !value.isBlank());
        if (text.isPresent() == file.isPresent()) {
            throw new IllegalStateException(text.isPresent()
                    ? names() + " are both set: give one of them"
                    : names() + " is not set");
        }
        if (text.isPresent()) {
            return text.get();
        }
        try {
            return Files.readString(Path.of(file.get().trim()), StandardCharsets.US_ASCII);
        } catch (IOException | InvalidPathException e) {
            throw new IllegalStateException(variable + "_PATH (" + property + "-path) cannot be read: " + file.get());
        }
    }

    /** The setting the key came from, for messages about the key itself. */
    String source() {
        return path.filter(value -> !value.isBlank()).isPresent()
                ? variable + "_PATH (" + property + "-path)"
                : variable + " (" + property + ")";
    }

    private String names() {
        return variable + " (" + property + ") or " + variable + "_PATH (" + property + "-path)";
    }
}
