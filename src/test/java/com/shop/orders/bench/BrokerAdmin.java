package com.shop.orders.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.shop.orders.harness.ServiceStack;

/**
 * Asks the broker with mqadmin (from the rocketmq-local distribution's classpath) how many half messages it has
 * discarded after transactionCheckMax checks: the max offsets of TRANS_CHECK_MAX_TIME_TOPIC.
 */
final class BrokerAdmin {

    static final String DISCARDED_TOPIC = "TRANS_CHECK_MAX_TIME_TOPIC";
    /** One queue line of topicStatus: broker name, queue id, min offset, max offset, ... */
    private static final Pattern QUEUE = Pattern.compile("^\\S+\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)\\s+.*$");

    private final ServiceStack stack;
    private final Path classpathFile;

    BrokerAdmin(ServiceStack stack, Path projectRoot) {
        this.stack = stack;
        this.classpathFile = projectRoot.resolve("deployment/rocketmq-local/target/classpath.txt");
    }

    /** Messages in TRANS_CHECK_MAX_TIME_TOPIC (0 when the broker never created it). */
    long discardedHalfMessages() {
        try {
            Path home = Files.createDirectories(stack.dir().resolve("mqadmin"));
            List<String> command = List.of("java", "-Xmx128m", "-Duser.home=" + home, "-Drocketmq.home.dir=" + home,
                    "-cp", Files.readString(classpathFile).trim(), "org.apache.rocketmq.tools.command.MQAdminStartup",
                    "topicStatus", "-n", stack.rocketMq().nameServerAddress(), "-t", DISCARDED_TOPIC);
            String output = Command.run(command, Map.of("ROCKETMQ_HOME", home.toString()), null, Duration.ofMinutes(1))
                    .output();
            if (output.contains("not exist") || output.contains("No topic route info")) {
                return 0;
            }
            long messages = 0;
            boolean any = false;
            for (String line : output.split("\n")) {
                Matcher m = QUEUE.matcher(line.trim());
                if (m.matches()) {
                    messages += Long.parseLong(m.group(3)) - Long.parseLong(m.group(2));
                    any = true;
                }
            }
            if (!any) {
                throw new IllegalStateException("mqadmin topicStatus printed no queue: " + Command.tail(output));
            }
            return messages;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
