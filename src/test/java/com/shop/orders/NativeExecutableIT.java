package com.shop.orders;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;

import com.shop.orders.testsupport.PackagedArtifact;

/**
 * The native executable runs in the production image: it needs no shared library that the image's base
 * ({@code src/main/docker/Dockerfile.native}, the UBI 9 Quarkus micro image: glibc, libstdc++ and zlib) lacks. Only
 * for a native build ({@code ./mvnw verify -Dnative}); the jar has its own image.
 */
@EnabledIf("nativeBuild")
class NativeExecutableIT {

    private static final String RUNTIME_IMAGE = "quay.io/quarkus/ubi9-quarkus-micro-image";
    /** What the micro image provides: glibc's libraries, libstdc++ with libgcc_s, zlib, and the kernel's vDSO. */
    private static final Set<String> IN_RUNTIME_IMAGE = Set.of("linux-vdso.so.1", "ld-linux-x86-64.so.2", "libc.so.6",
            "libm.so.6", "libpthread.so.0", "libdl.so.2", "librt.so.1", "libgcc_s.so.1", "libstdc++.so.6", "libz.so.1");

    static boolean nativeBuild() {
        return PackagedArtifact.ofBuild().nativeExecutable();
    }

    @Test
    void needsOnlyLibrariesOfTheRuntimeImage() throws Exception {
        Path executable = PackagedArtifact.ofBuild().path();
        Process ldd = new ProcessBuilder("ldd", executable.toString()).redirectErrorStream(true).start();
        String output = new String(ldd.getInputStream().readAllBytes());
        assertTrue(ldd.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, ldd.exitValue(), output);

        Set<String> needed = new TreeSet<>();
        output.lines().map(String::trim).filter(line -> !line.isEmpty())
                .forEach(line -> needed.add(Path.of(line.split("\\s+")[0]).getFileName().toString()));
        Set<String> missing = new TreeSet<>(needed);
        missing.removeAll(IN_RUNTIME_IMAGE);
        assertTrue(missing.isEmpty(), "the executable needs " + missing + ", which " + RUNTIME_IMAGE
                + " lacks:\n" + output);
        assertTrue(needed.contains("libc.so.6"), "not a dynamically linked executable?\n" + output);
    }

    @Test
    void theProductionImageRunsOnThatBase() throws Exception {
        List<String> froms = Files.readAllLines(Path.of("src/main/docker/Dockerfile.native")).stream()
                .filter(line -> line.startsWith("FROM ")).toList();
        String runtime = froms.get(froms.size() - 1);
        assertTrue(runtime.startsWith("FROM " + RUNTIME_IMAGE + ":"), "the image's last stage: " + runtime);
    }
}
