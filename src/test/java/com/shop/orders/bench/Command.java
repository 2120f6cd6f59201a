package com.shop.orders.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs an external program (a load generator, mysqlslap, mqadmin) to its end and keeps what it printed. */
final class Command {

    record Result(int exitCode, String output) {
        Result requireSuccess(String what) {
            if (exitCode != 0) {
                throw new IllegalStateException(what + " failed (exit " + exitCode + "): " + tail(output));
            }
            return this;
        }
    }

    private Command() {
    }

    static Result run(List<String> command, Map<String, String> env, Path workDir, Duration timeout) {
        try {
            Path out = Files.createTempFile("bench-cmd", ".out");
            try {
                ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                        .redirectOutput(out.toFile());
                if (workDir != null) {
                    builder.directory(workDir.toFile());
                }
                builder.environment().putAll(env);
                Process process = builder.start();
                if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                    process.descendants().forEach(ProcessHandle::destroyForcibly);
                    process.destroyForcibly().waitFor();
                    throw new IllegalStateException(command.get(0) + " did not finish within " + timeout + ": "
                            + tail(Files.readString(out, StandardCharsets.UTF_8)));
                }
                return new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
            } finally {
                Files.deleteIfExists(out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static String tail(String text) {
        return text.length() <= 2000 ? text : "..." + text.substring(text.length() - 2000);
    }
}
