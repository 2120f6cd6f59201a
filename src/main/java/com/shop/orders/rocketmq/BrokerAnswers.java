package com.shop.orders.rocketmq;

import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import org.apache.rocketmq.remoting.RPCHook;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RequestCode;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.remoting.protocol.SerializeType;
import org.apache.rocketmq.remoting.protocol.header.SendMessageRequestHeaderV2;

/**
 * Every request of the service's RocketMQ clients passes here: written with the configured header encoding, signed
 * with the service's credentials when it has them ({@code signing}), and every answer that refuses the service (NO_PERMISSION: a wrong secret, an unknown user,
 * no right on a topic or group) remembered, with the broker's reason, until a request of the same kind is answered
 * again. Health reports them: a refused publish to the expiry topic leaves orders to the sweep, and an operator has to
 * know why.
 */
final class BrokerAnswers implements RPCHook {

    static final String HEARTBEAT = "heartbeat";

    private final RPCHook signing;
    private final SerializeType headerEncoding;
    private final Map<String, String> refusals = new ConcurrentHashMap<>();

    /**
     * @param signing the credentials' hook, or null when the service has none
     * @param headerEncoding how request headers are written ({@link RocketMqConfig#headerEncoding()})
     */
    BrokerAnswers(RPCHook signing, SerializeType headerEncoding) {
        this.signing = signing;
        this.headerEncoding = headerEncoding;
    }

    @Override
    public void doBeforeRequest(String remoteAddr, RemotingCommand request) {
        // Per request, not the client's static default: that one is read from a system property when the class
        // loads, which in a native image is when the image is built.
        request.setSerializeTypeCurrentRPC(headerEncoding);
        if (signing != null) {
            signing.doBeforeRequest(remoteAddr, request);
        }
    }

    @Override
    public void doAfterResponse(String remoteAddr, RemotingCommand request, RemotingCommand response) {
        if (response == null) {
            return;
        }
        if (response.getCode() == ResponseCode.NO_PERMISSION) {
            refusals.put(kind(request), String.valueOf(response.getRemark()).trim());
        } else if (response.getCode() == ResponseCode.SUCCESS && !refusals.isEmpty()) {
            refusals.remove(kind(request));
        }
    }

    /** Whether a request of this kind is refused now. */
    boolean refuses(String kind) {
        return refusals.containsKey(kind);
    }

    /**
     * What the brokers refuse the service now and why, one clause per reason: "heartbeat, consumer list refused: check
     * signature failed." Null when nothing is refused.
     */
    String refused() {
        if (refusals.isEmpty()) {
            return null;
        }
        Map<String, TreeSet<String>> kindsByReason = new TreeMap<>();
        refusals.forEach((kind, reason) -> kindsByReason.computeIfAbsent(reason, r -> new TreeSet<>()).add(kind));
        return kindsByReason.entrySet().stream()
                .map(reason -> String.join(", ", reason.getValue()) + " refused: " + reason.getKey())
                .sorted().collect(Collectors.joining("; "));
    }

    /** The request's kind, as an operator names it: what it does, and to which topic. */
    static String kind(RemotingCommand request) {
        Map<String, String> fields = request.getExtFields() == null ? Map.of() : request.getExtFields();
        return switch (request.getCode()) {
            case RequestCode.SEND_MESSAGE -> "publish to " + fields.get("topic");
            // The compact header: its fields are named a, b, c...; b is the topic. Written in the binary encoding
            // without signing, it never reaches the fields.
            case RequestCode.SEND_MESSAGE_V2, RequestCode.SEND_BATCH_MESSAGE -> "publish to "
                    + (request.readCustomHeader() instanceof SendMessageRequestHeaderV2 header ? header.getB()
                            : fields.get("b"));
            case RequestCode.PULL_MESSAGE -> "consume " + fields.get("topic");
            case RequestCode.HEART_BEAT -> HEARTBEAT;
            case RequestCode.GET_CONSUMER_LIST_BY_GROUP -> "consumer list";
            case RequestCode.QUERY_CONSUMER_OFFSET, RequestCode.UPDATE_CONSUMER_OFFSET -> "consumer offset";
            case RequestCode.CONSUMER_SEND_MSG_BACK -> "retry of a message";
            default -> "request " + request.getCode();
        };
    }
}
