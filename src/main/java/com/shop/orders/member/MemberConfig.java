package com.shop.orders.member;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

@ConfigMapping(prefix = "shop.member")
public interface MemberConfig {

    /**
     * Verified bearer tokens kept, so that a member's next request skips the signature check (0: none kept).
     * Sized for the members of a flash sale, who all arrive at once: a token not kept costs an RSA check and
     * jose4j's two 32 KB parse buffers. Each entry is a token and its claims, about 2.5 KB (40 MB when full).
     */
    @WithDefault("16384")
    int verifiedTokens();
}
