package com.shop.orders.testsupport;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Stops and starts the local Redis server (127.0.0.1:6379) for fault tests. */
public final class RedisServer {

    private RedisServer() {
    }

    public static void stop() {
        run(List.of("redis-cli", "-h", "127.0.0.1", "-p", "6379", "shutdown", "nosave"));
    }

    public static void start() {
        run(List.of("redis-server", "--daemonize", "yes", "--bind", "127.0.0.1", "--port", "6379", "--save", "",
                "--appendonly", "no"));
        for (int i = 0; i < 50; i++) {
            if (run(List.of("redis-cli", "-h", "127.0.0.1", "-p", "6379", "ping")) == 0) {
                return;
            }
            Pause.of(java.time.Duration.ofMillis(100));
        }
        throw new IllegalStateException("Redis did not come back");
    }

    private static int run(List<String> command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return -1;
            }
            return process.exitValue();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }
}
