package com.shop.orders.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.shop.orders.testsupport.MemberTokens;

/** Bearer tokens of the benchmark's members, one per line under a "token" header (CSV for Gatling, read by wrk). */
final class Tokens {

    private Tokens() {
    }

    static Path write(MemberTokens tokens, int members, Path file) {
        List<String> lines = new ArrayList<>();
        lines.add("token");
        for (int i = 1; i <= members; i++) {
            lines.add(tokens.token("bench-member-" + i));
        }
        try {
            Files.createDirectories(file.getParent());
            return Files.write(file, lines);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
