package com.shop.orders.rocketmq;

import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Named;
import jakarta.inject.Singleton;

import org.apache.rocketmq.acl.common.AclClientRPCHook;
import org.apache.rocketmq.acl.common.SessionCredentials;
import org.apache.rocketmq.client.ClientConfig;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.rebalance.AllocateMessageQueueAveragely;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.impl.factory.MQClientInstance;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.TransactionListener;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.apache.rocketmq.remoting.RemotingClient;
import org.apache.rocketmq.remoting.netty.TlsSystemConfig;

import com.alibaba.fastjson.parser.ParserConfig;
import com.alibaba.fastjson.serializer.SerializeConfig;

import com.shop.orders.resilience.Bulkhead;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ImageMode;
import io.quarkus.runtime.ShutdownEvent;

/**
 * The one place RocketMQ clients are set up, so that every producer and consumer of the service talks to
 * the broker the same way: as the service's user (its requests signed), over TLS when configured. They share one
 * client instance (connections, heartbeats, route polling) per process; groups keep them apart at the broker.
 */
@ApplicationScoped
public class RocketMqClients {

    static {
        // The client's JSON (fastjson 1, command headers and bodies) generates its readers and writers as classes
        // with ASM at run time, which a native image cannot load: there it reads and writes them by reflection
        // (RocketMqNativeReflection), before any client is made.
        if (ImageMode.current().isNativeImage()) {
            ParserConfig.getGlobalInstance().setAsmEnable(false);
            SerializeConfig.getGlobalInstance().setAsmEnable(false);
        }
    }

    private final RocketMqConfig config;
    private final String instanceName = "orders-" + UUID.randomUUID();
    /** The client instance behind each client made here, once it is started. */
    private final List<Supplier<MQClientInstance>> instances = new CopyOnWriteArrayList<>();
    private final BrokerAnswers answers;

    public RocketMqClients(RocketMqConfig config) {
        this.config = config;
        this.answers = new BrokerAnswers(config.accessKey()
                .map(key -> new AclClientRPCHook(new SessionCredentials(key, config.secretKey().orElse(""))))
                .orElse(null), config.headerEncoding());
        if (config.tls().enabled()) {
            trustOnlyVerifiedServers(config.tls());
        }
    }

    /**
     * RocketMQ's client reads its TLS settings from static fields, set from system properties when the class loads
     * (in a native image, when the image is built). Its defaults trust every certificate ("test mode"); here a
     * server's certificate must chain to the configured authorities (or the JDK's), and no file on the machine
     * ({@code /etc/rocketmq/tls.properties}) may say otherwise.
     */
    private static void trustOnlyVerifiedServers(RocketMqConfig.Tls tls) {
        TlsSystemConfig.tlsConfigFile = "";
        TlsSystemConfig.tlsTestModeEnable = false;
        TlsSystemConfig.tlsClientAuthServer = true;
        TlsSystemConfig.tlsClientTrustCertPath = tls.trustCertPath().orElse(null);
    }

    /** Starts a producer made here; its client instance then reads the zone fields once ({@link ZoneFields}). */
    public void start(DefaultMQProducer producer) throws MQClientException {
        producer.start();
        ZoneFields.replaceIn(producer.getDefaultMQProducerImpl().getMqClientFactory());
    }

    /** Starts a consumer made here; its client instance then reads the zone fields once ({@link ZoneFields}). */
    public void start(DefaultMQPushConsumer consumer) throws MQClientException {
        consumer.start();
        ZoneFields.replaceIn(consumer.getDefaultMQPushConsumerImpl().getmQClientFactory());
    }

    public DefaultMQProducer producer(String group) {
        DefaultMQProducer producer = new DefaultMQProducer(group, answers);
        configure(producer);
        instances.add(() -> producer.getDefaultMQProducerImpl().getMqClientFactory());
        return producer;
    }

    /** Check-backs run on {@code checks}: RocketMQ's own default is one thread, whose overflow is dropped yet counted. */
    public TransactionMQProducer transactionalProducer(String group, TransactionListener listener,
            ExecutorService checks) {
        TransactionMQProducer producer = new TransactionMQProducer(group, answers);
        configure(producer);
        producer.setExecutorService(checks);
        producer.setTransactionListener(listener);
        instances.add(() -> producer.getDefaultMQProducerImpl().getMqClientFactory());
        return producer;
    }

    public DefaultMQPushConsumer pushConsumer(String group) {
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(group, answers, new AllocateMessageQueueAveragely());
        connect(consumer);
        instances.add(() -> consumer.getDefaultMQPushConsumerImpl().getmQClientFactory());
        return consumer;
    }

    /**
     * Why the service cannot use the broker now, or null when it can: no client started yet, no name server
     * reachable, or a broker refusing the service's requests (its credentials, or its rights on a topic or group).
     * The client's heartbeat checks the credentials (every broker authenticates it, and authorizes it for the
     * consumer groups); a refused kind of request stays refused until one of its kind succeeds (the client's own
     * heartbeat every 30 s, the next publish). Blocking: it (re)connects when needed.
     */
    public String unusableBecause() {
        MQClientInstance client = instances.stream().map(Supplier::get).filter(Objects::nonNull).findFirst().orElse(null);
        if (client == null) {
            return "no client started yet";
        }
        RemotingClient remoting = client.getMQClientAPIImpl().getRemotingClient();
        if (remoting.getNameServerAddressList().stream().noneMatch(remoting::isAddressReachable)) {
            return "no name server reachable at " + config.nameServer();
        }
        // Once refused, the client's own heartbeats say when it is taken again: one refusal logged per 30 s, not 5.
        if (!answers.refuses(BrokerAnswers.HEARTBEAT)) {
            client.sendHeartbeatToAllBrokerWithLock();
        }
        return answers.refused();
    }

    private void configure(DefaultMQProducer producer) {
        connect(producer);
        producer.setSendMsgTimeout((int) config.sendTimeout().toMillis());
        // The owners retry on their own schedule (sweep, outbox backoff); a synchronous retry here only holds a thread.
        producer.setRetryTimesWhenSendFailed(0);
    }

    private void connect(ClientConfig client) {
        client.setNamesrvAddr(config.nameServer());
        client.setInstanceName(instanceName);
        client.setVipChannelEnabled(false);
        client.setPollNameServerInterval((int) config.pollNameServerInterval().toMillis());
        client.setUseTLS(config.tls().enabled());
    }

    /** Blocking RocketMQ sends, on their own threads. */
    @Produces
    @Singleton
    @Named("rocketmq")
    Bulkhead sends(MeterRegistry registry) {
        return new Bulkhead("rocketmq", config.sendThreads(), config.sendQueue(), registry);
    }

    void stopSends(@Observes ShutdownEvent event, @Named("rocketmq") Bulkhead sends) {
        sends.shutdown(5_000);
    }
}
