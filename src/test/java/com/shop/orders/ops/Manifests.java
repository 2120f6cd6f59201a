package com.shop.orders.ops;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

/** Every YAML document of the deployment files, as trees, found by kind and name. */
final class Manifests {

    static final Path DEPLOYMENT = Path.of("deployment");
    static final Path KUBERNETES = DEPLOYMENT.resolve("kubernetes");
    static final Path RULES_FILE = DEPLOYMENT.resolve("prometheus/order-service-rules.yaml");
    static final Path DASHBOARD = DEPLOYMENT.resolve("grafana/order-service-dashboard.json");

    static final ObjectMapper YAML = new YAMLMapper();
    static final ObjectMapper JSON = new ObjectMapper();

    /** One document: a Kubernetes resource, or the kustomization. */
    record Resource(Path file, JsonNode tree) {

        String kind() {
            return tree.path("kind").asText();
        }

        String name() {
            return tree.path("metadata").path("name").asText();
        }

        @Override
        public String toString() {
            return kind() + " " + name() + " (" + file + ")";
        }
    }

    private final List<Resource> resources;

    private Manifests(List<Resource> resources) {
        this.resources = resources;
    }

    /** The documents of every *.yaml file in {@code folder}; a file may hold several, separated by "---". */
    static Manifests in(Path folder) {
        try (Stream<Path> files = Files.list(folder)) {
            List<Resource> resources = new ArrayList<>();
            for (Path file : files.filter(f -> f.toString().endsWith(".yaml") || f.toString().endsWith(".yml"))
                    .sorted().toList()) {
                readAll(file).forEach(tree -> resources.add(new Resource(file, tree)));
            }
            return new Manifests(resources);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<JsonNode> readAll(Path file) {
        try (MappingIterator<JsonNode> documents = YAML.readerFor(JsonNode.class)
                .readValues(new YAMLFactory().createParser(file.toFile()))) {
            return documents.readAll().stream().filter(tree -> tree != null && !tree.isNull()).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static JsonNode read(Path file) {
        List<JsonNode> documents = readAll(file);
        if (documents.size() != 1) {
            throw new AssertionError(file + " holds " + documents.size() + " documents, expected one");
        }
        return documents.get(0);
    }

    static JsonNode readJson(Path file) {
        try {
            return JSON.readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    List<Resource> all() {
        return resources;
    }

    List<Resource> all(String kind) {
        return resources.stream().filter(r -> r.kind().equals(kind)).toList();
    }

    /** The only resource of that kind; fails when there is none or more than one. */
    Resource one(String kind) {
        List<Resource> found = all(kind);
        if (found.size() != 1) {
            throw new AssertionError("Expected one " + kind + ", found " + found);
        }
        return found.get(0);
    }

    Resource named(String kind, String name) {
        return all(kind).stream().filter(r -> r.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("No " + kind + " named " + name + " in " + resources));
    }

    /** True when every label of {@code selector} is among {@code labels} with the same value. */
    static boolean selects(JsonNode selector, JsonNode labels) {
        Map<String, String> wanted = YAML.convertValue(selector, YAML.getTypeFactory()
                .constructMapType(Map.class, String.class, String.class));
        return !wanted.isEmpty() && wanted.entrySet().stream()
                .allMatch(label -> label.getValue().equals(labels.path(label.getKey()).asText(null)));
    }
}
