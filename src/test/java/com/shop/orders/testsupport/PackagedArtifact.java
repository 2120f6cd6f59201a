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
import java.util.stream.Stream;

/**
 * The packaged service of this build, as Quarkus recorded it in {@code target/quarkus-artifact.properties}: the
 * production jar, or the native executable after {@code ./mvnw package -Dnative}. The tests and the benchmark that
 * start the service as a process of their own start whichever was built, with the same settings. A jar runs on
 * {@code javaHome} with {@code runtimeOptions}; the executable takes {@code runtimeOptions} only.
 */
public record PackagedArtifact(boolean nativeExecutable, Path path, Path javaHome, String runtimeOptions) {

    /** Options of the runtime for every start, e.g. {@code -Dharness.service.jvm-options="-Xmx512m"}. */
    public static final String PROP_JVM_OPTIONS = "harness.service.jvm-options";
    public static final String PROP_NATIVE_OPTIONS = "harness.service.native-options";
    /**
     * Which of the two the process starts, {@code jvm} or {@code native}, when both were built (the benchmark's
     * comparison builds the executable, then the jar); by default what the last {@code package} recorded.
     */
    public static final String PROP_ARTIFACT = "harness.service.artifact";
    /** The JDK that runs the jar; by default the one running the tests. */
    public static final String PROP_JAVA_HOME = "harness.service.java-home";
    /**
     * A fixed heap, as the JVM image runs (its initial heap is its maximum): G1 otherwise keeps a small heap until a
     * load makes it grow, so a benchmark phase ran faster after the phases before it than alone.
     */
    public static final String DEFAULT_JVM_OPTIONS = "-Xms512m -Xmx512m -XX:+ExitOnOutOfMemoryError";
    /**
     * The executable as the deployment runs it (deployment/kubernetes/deployment.yaml, its args; DeploymentManifestsTest
     * holds the two equal): a heap cap, and a young generation of 32 MB. Smaller, the serial collector ran a young
     * collection every 30 ms under load and, counting their pauses, a full one every second (docs/native.md, "Heap settings").
     */
    public static final String DEFAULT_NATIVE_OPTIONS = "-Xmx256m -Xmn32m";
    private static final Path TARGET = Path.of("target");

    /** What the last {@code package} of the project folder built, with the runtime the system properties name. */
    public static PackagedArtifact ofBuild() {
        Path recorded = TARGET.resolve("quarkus-artifact.properties");
        Properties artifact = new Properties();
        try (Reader in = Files.newBufferedReader(recorded)) {
            artifact.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("No packaged service: run ./mvnw package first (" + recorded + ")", e);
        }
        Path path = TARGET.resolve(artifact.getProperty("path")).toAbsolutePath();
        boolean nativeExecutable = "native".equals(artifact.getProperty("type"));
        String chosen = System.getProperty(PROP_ARTIFACT, nativeExecutable ? "native" : "jvm");
        if (!chosen.equals(nativeExecutable ? "native" : "jvm")) {
            nativeExecutable = chosen.equals("native");
            path = built(nativeExecutable);
        }
        return new PackagedArtifact(nativeExecutable, path,
                Path.of(System.getProperty(PROP_JAVA_HOME, System.getProperty("java.home"))),
                nativeExecutable ? System.getProperty(PROP_NATIVE_OPTIONS, DEFAULT_NATIVE_OPTIONS)
                        : System.getProperty(PROP_JVM_OPTIONS, DEFAULT_JVM_OPTIONS));
    }

    /** The other of the two, built before the last {@code package}: the jar, or the executable ({@code *-runner}). */
    private static Path built(boolean nativeExecutable) {
        Path path;
        if (nativeExecutable) {
            try (Stream<Path> files = Files.list(TARGET)) {
                path = files.filter(file -> file.getFileName().toString().endsWith("-runner")).findFirst()
                        .orElse(TARGET.resolve("*-runner"));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        } else {
            path = TARGET.resolve("quarkus-app/quarkus-run.jar");
        }
        if (!Files.isRegularFile(path)) {
            throw new IllegalStateException(PROP_ARTIFACT + " names " + path + ", which was not built");
        }
        return path.toAbsolutePath();
    }

    /** The same jar on another JDK with other options (the benchmark's cold-start variants). */
    public PackagedArtifact onJvm(Path otherJavaHome, String otherOptions) {
        if (nativeExecutable) {
            throw new IllegalStateException("a native executable has no JVM: " + path);
        }
        return new PackagedArtifact(false, path, otherJavaHome, otherOptions);
    }

    /** The command line that starts it with these system properties (both runtimes take {@code -Dk=v}). */
    public List<String> command(Map<String, String> properties) {
        List<String> cmd = new ArrayList<>();
        cmd.add(nativeExecutable ? path.toString() : javaHome.resolve("bin/java").toString());
        for (String option : runtimeOptions.trim().split("\\s+")) {
            if (!option.isEmpty()) {
                cmd.add(option);
            }
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
}
