package com.shop.orders.rocketmq;

import java.time.Duration;
import java.util.Optional;

import org.apache.rocketmq.remoting.protocol.SerializeType;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** The connection every RocketMQ client of the service shares. */
@ConfigMapping(prefix = "shop.rocketmq")
public interface RocketMqConfig {

    /** Name server address list, "host:port;host:port". */
    @WithDefault("127.0.0.1:9876")
    String nameServer();

    /** Longest one send may take before it fails. */
    @WithDefault("3s")
    Duration sendTimeout();

    /** How often clients refresh topic routes from the name server (also how soon they see a broker return). */
    @WithDefault("30s")
    Duration pollNameServerInterval();

    /** Threads for blocking sends (expiry messages, outbox events); their own, never Alipay's or the default pool. */
    @WithDefault("8")
    int sendThreads();

    /** Sends waiting for a send thread; beyond it a send fails at once and is retried by its owner. */
    @WithDefault("2000")
    int sendQueue();

    /**
     * The access key (user name) of the service's user at the brokers, whose ACL (RocketMQ 5's ACL 2.0, or a managed
     * RocketMQ's) grants it its topics and groups only. Every request is then signed with the secret key. Without
     * it requests carry no credentials, which only a broker without authentication takes.
     */
    Optional<String> accessKey();

    /** The secret key of that user: a secret, from the environment, never logged. */
    Optional<String> secretKey();

    /**
     * How the clients write their requests' headers: ROCKETMQ, the remoting protocol's binary form, or JSON, the
     * client's default. Every broker, name server and proxy of RocketMQ 4 and 5 reads both, whichever it answers in.
     * The binary form writes a send's header straight into the outgoing buffer, without reflection or JSON: on the
     * JVM about a fifth of the memory a send allocated and a third of its time (566 against 3,030 bytes per header;
     * docs/native.md, "Less to collect").
     */
    @WithDefault("rocketmq")
    SerializeType headerEncoding();

    Tls tls();

    /** TLS to the name servers and brokers. */
    interface Tls {

        /**
         * Every connection over TLS, the server's certificate verified against {@link #trustCertPath()}. The client
         * uses one kind of connection for both, so the name servers and the brokers must both serve TLS. RocketMQ's
         * client checks the certificate's chain, not its host name: the authority should issue for the brokers only.
         */
        @WithDefault("false")
        boolean enabled();

        /** PEM file of the authorities that issue the name servers' and brokers' certificates; else the JDK's. */
        Optional<String> trustCertPath();
    }
}
