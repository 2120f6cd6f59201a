package com.shop.orders.member;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

@ConfigMapping(prefix = "shop.member")
public interface MemberConfig {

    /**
     * Verified bearer tokens kept, so that a member's next request skips the signature check (0: none kept).
     * Each entry is a token and its claims, a few KB.
     */
    @WithDefault("4096")
    int verifiedTokens();
}
