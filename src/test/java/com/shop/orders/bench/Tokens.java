package com.shop.orders.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import com.shop.orders.testsupport.MemberTokens;

/** Bearer tokens of the benchmark's members, one per line under a "token" header (CSV for Gatling, read by wrk). */
final class Tokens {

    private Tokens() {
    }

    /**
     * The same members' tokens, valid for {@code lifespan}: the soak outlasts the hour the file's are valid for, which
     * began when the run did.
     */
    static List<String> lasting(MemberTokens tokens, int members, Duration lifespan) {
        List<String> lasting = new ArrayList<>();
        for (int i = 1; i <= members; i++) {
            lasting.add(tokens.token(member(i), lifespan));
        }
        return lasting;
    }

    static Path write(MemberTokens tokens, int members, Path file) {
        List<String> lines = new ArrayList<>();
        lines.add("token");
        for (int i = 1; i <= members; i++) {
            lines.add(tokens.token(member(i)));
        }
        try {
            Files.createDirectories(file.getParent());
            return Files.write(file, lines);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String member(int i) {
        return "bench-member-" + i;
    }
}
