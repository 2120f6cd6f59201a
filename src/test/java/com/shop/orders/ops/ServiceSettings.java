package com.shop.orders.ops;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import io.smallrye.config.ConfigMapping;

/**
 * What the service reads from its environment, known without starting it: application.properties and the
 * service's own {@code @ConfigMapping} interfaces (compiled into target/classes).
 */
final class ServiceSettings {

    private static final Path PROPERTIES = Path.of("src/main/resources/application.properties");
    private static final Path CLASSES = Path.of("target/classes");

    private ServiceSettings() {
    }

    static Properties applicationProperties() {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(PROPERTIES)) {
            properties.load(reader);
            return properties;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A property as production sees it: the %prod value if there is one, else the plain one. */
    static String production(String key) {
        Properties properties = applicationProperties();
        return properties.getProperty("%prod." + key, properties.getProperty(key));
    }

    /** A Quarkus duration ("20s", "5M", "PT1S") as a Duration. */
    static Duration duration(String value) {
        String text = value.trim();
        return text.toUpperCase(Locale.ROOT).startsWith("P") ? Duration.parse(text)
                : Duration.parse("PT" + text.toUpperCase(Locale.ROOT));
    }

    /** True when application.properties expands the environment variable ({@code ${NAME}} or {@code ${NAME:default}}). */
    static boolean expandsEnvironmentVariable(String name) {
        try {
            String text = Files.readString(PROPERTIES);
            return text.contains("${" + name + "}") || text.contains("${" + name + ":");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The environment variable of every property of the service's {@code @ConfigMapping}s, as SmallRye Config
     * matches them: {@code shop.expiry.broker-check-max} is {@code SHOP_EXPIRY_BROKER_CHECK_MAX}.
     */
    static Set<String> configMappingEnvironmentVariables() {
        Set<String> names = new TreeSet<>();
        try (Stream<Path> files = Files.walk(CLASSES)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                Class<?> type = load(file);
                ConfigMapping mapping = type.getAnnotation(ConfigMapping.class);
                if (mapping != null) {
                    collect(type, envName(mapping.prefix()), names);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (names.isEmpty()) {
            throw new AssertionError("No @ConfigMapping found under " + CLASSES + ": compile first");
        }
        return names;
    }

    private static void collect(Class<?> mapping, String prefix, Set<String> names) {
        for (Method property : mapping.getMethods()) {
            if (property.getParameterCount() > 0 || property.isDefault()
                    || Modifier.isStatic(property.getModifiers())) {
                continue;
            }
            String name = prefix + "_" + envName(property.getName().replaceAll("([a-z0-9])([A-Z])", "$1-$2"));
            Class<?> type = property.getReturnType();
            if (type.isInterface() && type.getName().startsWith("com.shop.")) {
                collect(type, name, names);
            } else {
                names.add(name);
            }
        }
    }

    private static String envName(String property) {
        return property.replaceAll("[^A-Za-z0-9]", "_").toUpperCase(Locale.ROOT);
    }

    private static Class<?> load(Path file) {
        String name = CLASSES.relativize(file).toString().replace(file.getFileSystem().getSeparator(), ".")
                .replaceAll("\\.class$", "");
        try {
            return Class.forName(name, false, ServiceSettings.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            throw new AssertionError("Cannot load " + name, e);
        }
    }
}
