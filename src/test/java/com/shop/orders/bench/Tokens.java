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

    /** The members' tokens, made now (valid an hour). */
    static List<String> of(MemberTokens tokens, int members) {
        List<String> made = new ArrayList<>();
        for (int i = 1; i <= members; i++) {
            made.add(tokens.token(member(i)));
        }
        return made;
    }

    static Path write(MemberTokens tokens, int members, Path file) {
        List<String> lines = new ArrayList<>();
        lines.add("token");
        lines.addAll(of(tokens, members));
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
