package com.shop.orders.ops;

import static com.shop.orders.ops.Manifests.KUBERNETES;
import static com.shop.orders.ops.Manifests.selects;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.shop.orders.expiry.ExpiryConfig;
import com.shop.orders.ops.Manifests.Resource;
import com.shop.orders.testsupport.PackagedArtifact;

import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.EnvConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;

/** The wiring of deployment/kubernetes, checked without a cluster: what kubectl would accept but not run. */
class DeploymentManifestsTest {

    private static final Manifests MANIFESTS = Manifests.in(KUBERNETES);
    /** SmallRye Health's endpoint for each probe. */
    private static final Map<String, String> PROBE_PATHS = Map.of(
            "startupProbe", "/q/health/started",
            "livenessProbe", "/q/health/live",
            "readinessProbe", "/q/health/ready");
    /** The job the alert rules select (up{job="order-service"}). */
    private static final String JOB = "order-service";
    private static final Pattern PEM = Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----(.*?)-----END \\1-----",
            Pattern.DOTALL);
    /** A run of Base64 as long as a key's or certificate's body. */
    private static final Pattern KEY_LIKE_BASE64 = Pattern.compile("[A-Za-z0-9+/]{100,}={0,2}");

    @Test
    void kustomizationListsEveryManifestButTheExampleSecret() throws IOException {
        JsonNode kustomization = Manifests.read(KUBERNETES.resolve("kustomization.yaml"));
        Set<String> listed = new TreeSet<>();
        kustomization.path("resources").forEach(resource -> listed.add(resource.asText()));
        Set<String> files = new TreeSet<>();
        try (Stream<Path> all = Files.list(KUBERNETES)) {
            all.map(file -> file.getFileName().toString())
                    .filter(name -> name.endsWith(".yaml"))
                    .filter(name -> !name.equals("kustomization.yaml") && !name.equals("secret.example.yaml"))
                    .forEach(files::add);
        }
        assertEquals(files, listed);
        for (Resource resource : MANIFESTS.all()) {
            assertFalse(resource.tree().path("apiVersion").asText().isBlank(), resource + " has no apiVersion");
            if (!resource.kind().equals("Kustomization")) {
                assertFalse(resource.name().isBlank(), resource + " has no name");
            }
        }
    }

    @Test
    void containerDeclaresTheApiAndManagementPortsTheServiceListensOn() {
        Map<String, Integer> ports = new HashMap<>();
        container().path("ports").forEach(port -> ports.put(port.path("name").asText(), port.path("containerPort").asInt()));
        // Unset for production in application.properties: Quarkus's default, 8080.
        String httpPort = ServiceSettings.production("quarkus.http.port");
        int http = httpPort == null ? 8080 : Integer.parseInt(httpPort);
        int management = Integer.parseInt(ServiceSettings.production("quarkus.management.port"));
        assertEquals(Map.of("http", http, "management", management), ports);
    }

    @Test
    void probesAskTheHealthEndpointsOnTheManagementPort() {
        JsonNode container = container();
        int management = Integer.parseInt(ServiceSettings.production("quarkus.management.port"));
        PROBE_PATHS.forEach((probe, path) -> {
            JsonNode httpGet = container.path(probe).path("httpGet");
            assertEquals(path, httpGet.path("path").asText(), probe + " path");
            assertEquals(management, containerPort(container, httpGet.path("port")), probe + " port");
        });
    }

    @Test
    void scrapeAnnotationsPointAtMetricsOnTheManagementPort() {
        JsonNode annotations = podTemplate().path("metadata").path("annotations");
        assertEquals("/q/metrics", annotations.path("prometheus.io/path").asText());
        assertEquals(ServiceSettings.production("quarkus.management.port"), annotations.path("prometheus.io/port").asText());
    }

    @Test
    void deploymentAndServicesSelectThePodsAndTargetDeclaredPorts() {
        JsonNode podLabels = podTemplate().path("metadata").path("labels");
        assertTrue(selects(deployment().tree().path("spec").path("selector").path("matchLabels"), podLabels),
                "the Deployment's selector matches its pod template");
        List<Resource> services = MANIFESTS.all("Service");
        assertFalse(services.isEmpty());
        for (Resource service : services) {
            assertTrue(selects(service.tree().path("spec").path("selector"), podLabels), service + " selects the pods");
            for (JsonNode port : service.tree().path("spec").path("ports")) {
                containerPort(container(), port.path("targetPort"));
            }
        }
    }

    @Test
    void theApiServiceCarriesNoManagementPortAndTheManagementServiceNoApi() {
        assertEquals(List.of("http"), targetPorts(MANIFESTS.named("Service", "order-service")));
        assertEquals(List.of("management"), targetPorts(MANIFESTS.named("Service", "order-service-management")));
    }

    @Test
    void serviceMonitorScrapesMetricsOfTheManagementServiceOnly() {
        JsonNode monitor = MANIFESTS.one("ServiceMonitor").tree().path("spec");
        List<Resource> selected = MANIFESTS.all("Service").stream()
                .filter(service -> selects(monitor.path("selector").path("matchLabels"),
                        service.tree().path("metadata").path("labels")))
                .toList();
        assertEquals(List.of("order-service-management"), selected.stream().map(Resource::name).toList());
        JsonNode service = selected.get(0).tree();
        List<String> servicePorts = new ArrayList<>();
        service.path("spec").path("ports").forEach(port -> servicePorts.add(port.path("name").asText()));
        assertFalse(monitor.path("endpoints").isEmpty());
        for (JsonNode endpoint : monitor.path("endpoints")) {
            assertTrue(servicePorts.contains(endpoint.path("port").asText()),
                    "endpoint port " + endpoint.path("port") + " is one of " + servicePorts);
            assertEquals("/q/metrics", endpoint.path("path").asText());
        }
        // The job label comes from this Service label; the alert rules select job="order-service".
        assertEquals(JOB, service.path("metadata").path("labels").path(monitor.path("jobLabel").asText()).asText());
    }

    @Test
    void autoscalerScalesTheDeploymentOnCpuAndOwnsTheReplicaCount() {
        JsonNode hpa = MANIFESTS.one("HorizontalPodAutoscaler").tree();
        assertEquals("autoscaling/v2", hpa.path("apiVersion").asText());
        JsonNode target = hpa.path("spec").path("scaleTargetRef");
        assertEquals("apps/v1", target.path("apiVersion").asText());
        assertEquals("Deployment", target.path("kind").asText());
        assertEquals(deployment().name(), target.path("name").asText());
        int min = hpa.path("spec").path("minReplicas").asInt();
        assertTrue(min >= 2, "at least two replicas");
        assertTrue(hpa.path("spec").path("maxReplicas").asInt() > min);
        JsonNode cpu = hpa.path("spec").path("metrics").get(0).path("resource");
        assertEquals("cpu", cpu.path("name").asText());
        // Utilization is a share of the request: without one the autoscaler cannot compute it.
        assertFalse(container().path("resources").path("requests").path("cpu").isMissingNode(), "CPU request");
        assertTrue(hpa.path("spec").path("behavior").path("scaleDown").path("stabilizationWindowSeconds").asInt() > 0);
        // A replica count in the Deployment would reset the autoscaler's on every apply.
        assertTrue(deployment().tree().path("spec").path("replicas").isMissingNode(), "no spec.replicas");
    }

    @Test
    void theExecutableRunsWithTheOptionsItIsTestedAndMeasuredWith() {
        List<String> args = new ArrayList<>();
        container().path("args").forEach(arg -> args.add(arg.asText()));
        assertEquals(List.of(PackagedArtifact.DEFAULT_NATIVE_OPTIONS.split(" ")), args,
                "the deployment's args are the native ITs' and the benchmark's options");
    }

    @Test
    void disruptionBudgetSelectsThePodsAndLeavesOneToDrain() {
        JsonNode pdb = MANIFESTS.one("PodDisruptionBudget").tree().path("spec");
        assertTrue(selects(pdb.path("selector").path("matchLabels"), podTemplate().path("metadata").path("labels")));
        int minReplicas = MANIFESTS.one("HorizontalPodAutoscaler").tree().path("spec").path("minReplicas").asInt();
        assertTrue(pdb.path("minAvailable").asInt() < minReplicas, "a node drain can evict one pod");
    }

    @Test
    void gracePeriodOutlastsThePreStopSleepAndTheShutdownTimeout() {
        JsonNode grace = podTemplate().path("spec").path("terminationGracePeriodSeconds");
        assertTrue(grace.isInt(), "terminationGracePeriodSeconds is set");
        Duration shutdown = ServiceSettings.duration(ServiceSettings.production("quarkus.shutdown.timeout"));
        Duration preStop = preStopSleep(container().path("lifecycle").path("preStop"));
        assertTrue(preStop.toSeconds() > 0, "a preStop sleep lets the endpoint removal reach the ingress");
        assertTrue(Duration.ofSeconds(grace.asInt()).compareTo(preStop.plus(shutdown)) > 0,
                "grace " + grace + " s > preStop " + preStop + " + shutdown " + shutdown);
    }

    @Test
    void environmentFromTheConfigMapAndSecretNamesKeysTheyHold() {
        Resource configMap = MANIFESTS.one("ConfigMap");
        Resource secret = MANIFESTS.one("Secret");
        for (JsonNode env : environments()) {
            JsonNode from = env.path("valueFrom");
            if (from.has("configMapKeyRef")) {
                assertEquals(configMap.name(), from.path("configMapKeyRef").path("name").asText(), env.toString());
                assertTrue(configMap.tree().path("data").has(from.path("configMapKeyRef").path("key").asText()),
                        env + " names a key of " + configMap);
            } else if (from.has("secretKeyRef")) {
                assertEquals(secret.name(), from.path("secretKeyRef").path("name").asText(), env.toString());
                assertTrue(secretKeys(secret).contains(from.path("secretKeyRef").path("key").asText()),
                        env + " names a key of " + secret);
            }
        }
        for (JsonNode volume : podTemplate().path("spec").path("volumes")) {
            if (volume.has("secret")) {
                assertEquals(secret.name(), volume.path("secret").path("secretName").asText());
                volume.path("secret").path("items").forEach(item -> assertTrue(
                        secretKeys(secret).contains(item.path("key").asText()), item + " is a key of " + secret));
            }
        }
    }

    @Test
    void everyEnvironmentVariableIsOneTheServiceReads() {
        Set<String> mapped = ServiceSettings.configMappingEnvironmentVariables();
        for (JsonNode env : environments()) {
            String name = env.path("name").asText();
            assertTrue(ServiceSettings.expandsEnvironmentVariable(name) || mapped.contains(name),
                    name + " is neither expanded in application.properties nor a @ConfigMapping property");
        }
    }

    /**
     * The schema's owner runs the migrations in the init container, which exits once they are done; the service's
     * container never migrates and never holds the owner's credentials.
     */
    @Test
    void onlyTheMigrateInitContainerHoldsTheSchemaOwnersCredentials() {
        Map<String, String> migrate = variables(migrate());
        assertEquals("true", migrate.get("MIGRATE_AND_EXIT"));
        assertEquals("true", migrate.get("DB_MIGRATE_AT_START"));
        assertEquals("secret:DB_OWNER_USER", migrate.get("DB_USER"));
        assertEquals("secret:DB_OWNER_PASSWORD", migrate.get("DB_PASSWORD"));
        assertEquals(container().path("image").asText(), migrate().path("image").asText(),
                "the same executable migrates");

        Map<String, String> service = variables(container());
        assertEquals("false", service.get("DB_MIGRATE_AT_START"));
        assertEquals("secret:DB_USER", service.get("DB_USER"));
        assertFalse(service.containsKey("MIGRATE_AND_EXIT"));
        assertFalse(service.values().stream().anyMatch(value -> value.startsWith("secret:DB_OWNER")),
                "the service's container holds the owner's credentials: " + service);
    }

    /**
     * Every connection over TLS with its server verified against an authority mounted from the Secret, as its own
     * user, and the service told to refuse less (REQUIRE_TLS).
     */
    @Test
    void everyConnectionIsEncryptedVerifiedAndAuthenticated() {
        JsonNode config = MANIFESTS.one("ConfigMap").tree().path("data");
        assertEquals("true", config.path("REQUIRE_TLS").asText());
        assertEquals("VERIFY_IDENTITY", config.path("DB_SSL_MODE").asText());
        assertTrue(config.path("REDIS_URL").asText().startsWith("rediss://"), "REDIS_URL over TLS");
        assertEquals("true", config.path("ROCKETMQ_TLS").asText());

        Map<String, String> service = variables(container());
        for (String variable : List.of("REQUIRE_TLS", "DB_SSL_MODE", "REDIS_URL", "ROCKETMQ_TLS")) {
            assertEquals("configMap:" + variable, service.get(variable), variable);
        }
        for (String credential : List.of("DB_PASSWORD", "REDIS_USER", "REDIS_PASSWORD", "ROCKETMQ_ACCESS_KEY",
                "ROCKETMQ_SECRET_KEY")) {
            assertEquals("secret:" + credential, service.get(credential), credential);
        }
        Set<String> mounted = new TreeSet<>();
        for (JsonNode volume : podTemplate().path("spec").path("volumes")) {
            if (volume.path("name").asText().equals("tls-authorities")) {
                volume.path("secret").path("items").forEach(item -> mounted.add("/etc/order-service/tls/"
                        + item.path("path").asText()));
            }
        }
        for (JsonNode container : List.of(container(), migrate())) {
            assertTrue(container.path("volumeMounts").findValuesAsText("mountPath").contains("/etc/order-service/tls"),
                    container.path("name") + " mounts the authorities");
        }
        for (String authority : List.of("DB_CA_PATH", "REDIS_CA_PATH", "ROCKETMQ_CA_PATH")) {
            assertTrue(mounted.contains(service.get(authority)), authority + " " + service.get(authority)
                    + " is one of the mounted " + mounted);
        }
        assertTrue(mounted.contains(variables(migrate()).get("DB_CA_PATH")), "the migrations verify the database too");
    }

    @Test
    void brokerCheckMaxOfTheConfigMapReachesTheExpirySettings() {
        String variable = container().findValues("name").stream().map(JsonNode::asText)
                .filter(name -> name.endsWith("BROKER_CHECK_MAX")).findFirst()
                .orElseThrow(() -> new AssertionError("the Deployment does not set the broker's check max"));
        // Not the default (15), so that only a variable SmallRye Config maps can produce it.
        SmallRyeConfig config = new SmallRyeConfigBuilder()
                .withConverter(Duration.class, 100, new DurationConverter())
                .withMapping(ExpiryConfig.class)
                .withSources(new EnvConfigSource(Map.of(variable, "23"), 300))
                .build();
        assertEquals(23, config.getConfigMapping(ExpiryConfig.class).brokerCheckMax());
    }

    @Test
    void alertRulesFileHoldsThePrometheusRulesGroups() throws IOException {
        JsonNode source = Monitoring.ruleGroups();
        JsonNode file = Manifests.read(Manifests.RULES_FILE);
        assertTrue(source.isArray() && !source.isEmpty(), "the PrometheusRule has groups");
        assertEquals(Set.of("groups"), fieldNames(file));
        if (!source.equals(file.path("groups"))) {
            Path derived = Path.of("target", Manifests.RULES_FILE.getFileName().toString());
            Files.writeString(derived, derivedRulesFile());
            fail(Manifests.RULES_FILE + " differs from the groups of prometheusrule.yaml, its source: "
                    + "copy the groups there (" + derived + " has them)");
        }
    }

    @Test
    void everyAlertWaitsHasASeverityAndTellsWhatToDo() {
        int alerts = 0;
        for (JsonNode group : Monitoring.ruleGroups()) {
            for (JsonNode rule : group.path("rules")) {
                String name = rule.path("alert").asText();
                assertFalse(name.isBlank(), "every rule is an alert: " + rule);
                assertTrue(ServiceSettings.duration(rule.path("for").asText("0s")).toSeconds() > 0, name + " for:");
                assertTrue(Set.of("critical", "warning").contains(rule.path("labels").path("severity").asText()),
                        name + " severity");
                assertFalse(rule.path("annotations").path("summary").asText().isBlank(), name + " summary");
                assertFalse(rule.path("annotations").path("description").asText().isBlank(), name + " description");
                alerts++;
            }
        }
        assertTrue(alerts > 0);
    }

    @Test
    void exampleSecretHoldsPlaceholdersOnly() {
        Resource secret = MANIFESTS.one("Secret");
        assertEquals("secret.example.yaml", secret.file().getFileName().toString());
        // Base64 under data: would hide what a value is.
        assertTrue(secret.tree().path("data").isMissingNode(), "values under stringData only");
        secret.tree().path("stringData").fields().forEachRemaining(value -> assertTrue(
                value.getValue().asText().contains("REPLACE_ME"), value.getKey() + " is a placeholder"));
    }

    @Test
    void noKeyMaterialAnywhereUnderDeployment() throws IOException {
        List<Path> files;
        try (Stream<Path> all = Files.walk(Manifests.DEPLOYMENT)) {
            files = all.filter(Files::isRegularFile).toList();
        }
        assertFalse(files.isEmpty());
        for (Path file : files) {
            String text = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
            Matcher pem = PEM.matcher(text);
            while (pem.find()) {
                assertFalse(pem.group(1).contains("PRIVATE"), file + " holds a private key");
                assertTrue(pem.group(2).contains("REPLACE_ME"), file + " holds a real " + pem.group(1));
            }
            assertFalse(KEY_LIKE_BASE64.matcher(text).find(), file + " holds what looks like key material");
        }
    }

    private static Resource deployment() {
        return MANIFESTS.one("Deployment");
    }

    private static JsonNode podTemplate() {
        return deployment().tree().path("spec").path("template");
    }

    private static JsonNode container() {
        JsonNode containers = podTemplate().path("spec").path("containers");
        assertEquals(1, containers.size(), "one container");
        return containers.get(0);
    }

    /** The init container that runs the migrations. */
    private static JsonNode migrate() {
        JsonNode init = podTemplate().path("spec").path("initContainers");
        assertEquals(1, init.size(), "one init container");
        assertEquals("migrate", init.get(0).path("name").asText());
        return init.get(0);
    }

    /** Every container's environment, the init container's too. */
    private static List<JsonNode> environments() {
        List<JsonNode> env = new ArrayList<>();
        container().path("env").forEach(env::add);
        migrate().path("env").forEach(env::add);
        return env;
    }

    /** A container's variable: its literal value, or "configMap:KEY" / "secret:KEY" where it comes from. */
    private static Map<String, String> variables(JsonNode container) {
        Map<String, String> variables = new HashMap<>();
        for (JsonNode env : container.path("env")) {
            JsonNode from = env.path("valueFrom");
            variables.put(env.path("name").asText(), from.has("configMapKeyRef")
                    ? "configMap:" + from.path("configMapKeyRef").path("key").asText()
                    : from.has("secretKeyRef") ? "secret:" + from.path("secretKeyRef").path("key").asText()
                    : env.path("value").asText());
        }
        return variables;
    }

    /** The number of a container port given by name or number; fails when the container does not declare it. */
    private static int containerPort(JsonNode container, JsonNode reference) {
        for (JsonNode port : container.path("ports")) {
            if (reference.isTextual() ? port.path("name").asText().equals(reference.asText())
                    : port.path("containerPort").asInt() == reference.asInt()) {
                return port.path("containerPort").asInt();
            }
        }
        throw new AssertionError("Port " + reference + " is not declared by the container");
    }

    private static List<String> targetPorts(Resource service) {
        List<String> ports = new ArrayList<>();
        service.tree().path("spec").path("ports").forEach(port -> ports.add(port.path("targetPort").asText()));
        return ports;
    }

    private static Set<String> secretKeys(Resource secret) {
        Set<String> keys = new TreeSet<>();
        secret.tree().path("stringData").fieldNames().forEachRemaining(keys::add);
        secret.tree().path("data").fieldNames().forEachRemaining(keys::add);
        return keys;
    }

    private static Set<String> fieldNames(JsonNode node) {
        Set<String> names = new TreeSet<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    /** The kubelet's sleep action, or an exec of sleep. */
    private static Duration preStopSleep(JsonNode preStop) {
        if (preStop.has("sleep")) {
            return Duration.ofSeconds(preStop.path("sleep").path("seconds").asInt());
        }
        JsonNode command = preStop.path("exec").path("command");
        if (command.size() == 2 && command.get(0).asText().endsWith("sleep")) {
            return Duration.ofSeconds(Long.parseLong(command.get(1).asText()));
        }
        return Duration.ZERO;
    }

    /** The plain rules file as it should be: the PrometheusRule's spec, its comments kept. */
    private static String derivedRulesFile() throws IOException {
        List<String> header = Files.readAllLines(Manifests.RULES_FILE).stream()
                .takeWhile(line -> line.startsWith("#")).toList();
        List<String> source = Files.readAllLines(KUBERNETES.resolve("prometheusrule.yaml"));
        List<String> groups = source.subList(source.indexOf("  groups:"), source.size()).stream()
                .map(line -> line.startsWith("  ") ? line.substring(2) : line).toList();
        return String.join("\n", header) + "\n" + String.join("\n", groups) + "\n";
    }
}
