package com.shop.orders.harness;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/** Free TCP ports below Linux's ephemeral range (so outgoing connections cannot take them), never handed out twice. */
final class Ports {

    private static final Set<Integer> GIVEN = ConcurrentHashMap.newKeySet();

    private Ports() {
    }

    static int free() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int attempt = 0; attempt < 500; attempt++) {
            int p = random.nextInt(12_000, 19_000);
            if (!GIVEN.contains(p) && canBind(p) && GIVEN.add(p)) {
                return p;
            }
        }
        throw new IllegalStateException("no free port");
    }

    private static boolean canBind(int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress(port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
