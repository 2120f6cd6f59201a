package com.shop.orders.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.LongAdder;
import java.util.zip.GZIPInputStream;

import com.google.protobuf.ByteString;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;

/**
 * An OTLP/HTTP trace receiver (protobuf, {@code POST /v1/traces}), as an OpenTelemetry Collector takes spans: what a
 * packaged service exports lands here, for tests to look at. The benchmark's receiver only counts: it takes millions
 * of spans, and what it keeps of them would cost its process memory and the host CPU beside the services measured.
 */
public final class OtlpReceiver implements AutoCloseable {

    /** A received span, its ids in hex as W3C traceparent writes them. */
    public record ReceivedSpan(String service, String traceId, String spanId, String parentSpanId, String name,
            String kind, Map<String, String> attributes, List<String> linkedSpanIds, List<String> linkedTraceIds,
            boolean error) {

        public String attribute(String key) {
            return attributes.get(key);
        }

        public boolean isRoot() {
            return parentSpanId.isEmpty();
        }
    }

    private final HttpServer server;
    private final boolean keepsSpans;
    private final Queue<ReceivedSpan> spans = new ConcurrentLinkedQueue<>();
    private final Queue<String> requests = new ConcurrentLinkedQueue<>();
    private final LongAdder received = new LongAdder();

    private OtlpReceiver(HttpServer server, boolean keepsSpans) {
        this.server = server;
        this.keepsSpans = keepsSpans;
    }

    /** A receiver that keeps every span and request it receives. */
    public static OtlpReceiver start() throws IOException {
        return start(true);
    }

    /** A receiver that counts the spans it receives, and keeps none ({@link #spans()} stays empty). */
    public static OtlpReceiver counting() throws IOException {
        return start(false);
    }

    private static OtlpReceiver start(boolean keepsSpans) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        OtlpReceiver receiver = new OtlpReceiver(server, keepsSpans);
        server.createContext("/v1/traces", receiver::receive);
        server.setExecutor(Executors.newFixedThreadPool(2));
        server.start();
        return receiver;
    }

    /** What a service is given as OTEL_EXPORTER_OTLP_ENDPOINT (the signal's path is added by the exporter). */
    public String endpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    public List<ReceivedSpan> spans() {
        return List.copyOf(spans);
    }

    public List<ReceivedSpan> trace(String traceId) {
        return spans.stream().filter(span -> span.traceId().equals(traceId)).toList();
    }

    /** Spans received so far, kept or not. */
    public long spanCount() {
        return received.sum();
    }

    /** Content types of the requests received, for a test that wants to see the exporter spoke OTLP. */
    public List<String> requests() {
        return List.copyOf(requests);
    }

    private void receive(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (keepsSpans) {
                requests.add(Objects.requireNonNullElse(exchange.getRequestHeaders().getFirst("Content-Type"), ""));
            }
            InputStream body = exchange.getRequestBody();
            if ("gzip".equalsIgnoreCase(exchange.getRequestHeaders().getFirst("Content-Encoding"))) {
                body = new GZIPInputStream(body);
            }
            ExportTraceServiceRequest request = ExportTraceServiceRequest.parseFrom(body.readAllBytes());
            for (ResourceSpans resource : request.getResourceSpansList()) {
                String service = attributes(resource.getResource().getAttributesList()).get("service.name");
                for (ScopeSpans scope : resource.getScopeSpansList()) {
                    received.add(scope.getSpansCount());
                    if (!keepsSpans) {
                        continue;
                    }
                    scope.getSpansList().forEach(span -> spans.add(new ReceivedSpan(service, hex(span.getTraceId()),
                            hex(span.getSpanId()), hex(span.getParentSpanId()), span.getName(), span.getKind().name(),
                            attributes(span.getAttributesList()),
                            span.getLinksList().stream().map(link -> hex(link.getSpanId())).toList(),
                            span.getLinksList().stream().map(link -> hex(link.getTraceId())).toList(),
                            span.getStatus().getCodeValue() == 2)));
                }
            }
            byte[] answer = ExportTraceServiceResponse.getDefaultInstance().toByteArray();
            exchange.getResponseHeaders().add("Content-Type", "application/x-protobuf");
            exchange.sendResponseHeaders(200, answer.length == 0 ? -1 : answer.length);
            exchange.getResponseBody().write(answer);
        }
    }

    private static Map<String, String> attributes(List<KeyValue> values) {
        Map<String, String> map = new LinkedHashMap<>();
        for (KeyValue value : values) {
            map.put(value.getKey(), text(value.getValue()));
        }
        return map;
    }

    private static String text(AnyValue value) {
        return switch (value.getValueCase()) {
            case STRING_VALUE -> value.getStringValue();
            case INT_VALUE -> Long.toString(value.getIntValue());
            case BOOL_VALUE -> Boolean.toString(value.getBoolValue());
            case DOUBLE_VALUE -> Double.toString(value.getDoubleValue());
            case ARRAY_VALUE -> {
                List<String> items = new ArrayList<>();
                value.getArrayValue().getValuesList().forEach(item -> items.add(text(item)));
                yield items.toString();
            }
            default -> value.toString();
        };
    }

    private static String hex(ByteString bytes) {
        return HexFormat.of().formatHex(bytes.toByteArray());
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
