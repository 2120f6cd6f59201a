package com.shop.orders.testsupport;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * The packaged service of this build, as Quarkus recorded it in {@code target/quarkus-artifact.properties}: the
 * production jar, or the native executable after {@code ./mvnw package -Dnative}. The tests and the benchmark that
 * start the service as a process of their own start whichever was built, with the same settings.
 */
public record PackagedArtifact(boolean nativeExecutable, Path path) {

    /** Options of the runtime for every start, e.g. {@code -Dharness.service.jvm-options="-Xmx512m"}. */
    public static final String PROP_JVM_OPTIONS = "harness.service.jvm-options";
    public static final String PROP_NATIVE_OPTIONS = "harness.service.native-options";
    private static final Path TARGET = Path.of("target");

    /** What the last {@code package} of the project folder built. */
    public static PackagedArtifact ofBuild() {
        Path recorded = TARGET.resolve("quarkus-artifact.properties");
        Properties artifact = new Properties();
        try (Reader in = Files.newBufferedReader(recorded)) {
            artifact.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("No packaged service: run ./mvnw package first (" + recorded + ")", e);
        }
        Path path = TARGET.resolve(artifact.getProperty("path")).toAbsolutePath();
        return new PackagedArtifact("native".equals(artifact.getProperty("type")), path);
    }

    /** The command line that starts it with these system properties (both runtimes take {@code -Dk=v}). */
    public List<String> command(Map<String, String> properties) {
        List<String> cmd = new ArrayList<>();
        if (nativeExecutable) {
            cmd.add(path.toString());
            addOptions(cmd, System.getProperty(PROP_NATIVE_OPTIONS, "-Xmx512m"));
        } else {
            cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            addOptions(cmd, System.getProperty(PROP_JVM_OPTIONS, "-Xmx512m -XX:+ExitOnOutOfMemoryError"));
        }
        properties.forEach((k, v) -> cmd.add("-D" + k + "=" + v));
        if (!nativeExecutable) {
            cmd.add("-jar");
            cmd.add(path.toString());
        }
        return cmd;
    }

    /** "native" or "jvm", for reports. */
    public String kind() {
        return nativeExecutable ? "native" : "jvm";
    }

    private static void addOptions(List<String> cmd, String options) {
        for (String option : options.trim().split("\\s+")) {
            if (!option.isEmpty()) {
                cmd.add(option);
            }
        }
    }
}
