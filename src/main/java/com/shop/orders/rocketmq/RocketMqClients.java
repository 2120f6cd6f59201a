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

import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.impl.factory.MQClientInstance;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.TransactionListener;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.apache.rocketmq.remoting.RemotingClient;

import com.alibaba.fastjson.parser.ParserConfig;
import com.alibaba.fastjson.serializer.SerializeConfig;

import com.shop.orders.resilience.Bulkhead;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ImageMode;
import io.quarkus.runtime.ShutdownEvent;

/**
 * The one place RocketMQ clients are set up, so that every producer and consumer of the service talks to
 * the broker the same way. They share one client instance (connections, heartbeats, route polling) per
 * process; groups keep them apart at the broker.
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

    public RocketMqClients(RocketMqConfig config) {
        this.config = config;
    }

    public DefaultMQProducer producer(String group) {
        DefaultMQProducer producer = new DefaultMQProducer(group);
        configure(producer);
        instances.add(() -> producer.getDefaultMQProducerImpl().getMqClientFactory());
        return producer;
    }

    /** Check-backs run on {@code checks}: RocketMQ's own default is one thread, whose overflow is dropped yet counted. */
    public TransactionMQProducer transactionalProducer(String group, TransactionListener listener,
            ExecutorService checks) {
        TransactionMQProducer producer = new TransactionMQProducer(group);
        configure(producer);
        producer.setExecutorService(checks);
        producer.setTransactionListener(listener);
        instances.add(() -> producer.getDefaultMQProducerImpl().getMqClientFactory());
        return producer;
    }

    public DefaultMQPushConsumer pushConsumer(String group) {
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(group);
        consumer.setNamesrvAddr(config.nameServer());
        consumer.setInstanceName(instanceName);
        consumer.setVipChannelEnabled(false);
        consumer.setPollNameServerInterval((int) config.pollNameServerInterval().toMillis());
        instances.add(() -> consumer.getDefaultMQPushConsumerImpl().getmQClientFactory());
        return consumer;
    }

    /** Whether the service's clients reach a name server. Blocking: it (re)connects when needed. */
    public boolean reachNameServer() {
        MQClientInstance client = instances.stream().map(Supplier::get).filter(Objects::nonNull).findFirst().orElse(null);
        if (client == null) {
            return false;
        }
        RemotingClient remoting = client.getMQClientAPIImpl().getRemotingClient();
        return remoting.getNameServerAddressList().stream().anyMatch(remoting::isAddressReachable);
    }

    private void configure(DefaultMQProducer producer) {
        producer.setNamesrvAddr(config.nameServer());
        producer.setInstanceName(instanceName);
        producer.setVipChannelEnabled(false);
        producer.setSendMsgTimeout((int) config.sendTimeout().toMillis());
        producer.setPollNameServerInterval((int) config.pollNameServerInterval().toMillis());
        // The owners retry on their own schedule (sweep, outbox backoff); a synchronous retry here only holds a thread.
        producer.setRetryTimesWhenSendFailed(0);
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
