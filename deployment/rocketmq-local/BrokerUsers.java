import java.util.Arrays;
import java.util.List;

import org.apache.rocketmq.acl.common.AclClientRPCHook;
import org.apache.rocketmq.acl.common.SessionCredentials;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;

/**
 * Creates a user of the local broker with exactly the given rights, as its super user, in one JVM (what mqadmin's
 * createUser and createAcl do, without a JVM per command). Run by rocketmq-local.sh with the broker's classpath and
 * its TLS options:
 *
 * <pre>java -cp @classpath BrokerUsers.java BROKER ADMIN ADMIN_PASSWORD NAME PASSWORD [RESOURCE=ACTIONS ...]</pre>
 *
 * e.g. {@code Topic:order-paid=Pub} or {@code Group:order-expiry-consumer=Sub}; a resource given again replaces
 * its rights. Exits 1 with the broker's answer when it refuses.
 */
public class BrokerUsers {

    public static void main(String[] args) throws Exception {
        if (args.length < 5) {
            System.err.println("usage: BrokerUsers BROKER ADMIN ADMIN_PASSWORD NAME PASSWORD [RESOURCE=ACTIONS ...]");
            System.exit(2);
        }
        String broker = args[0];
        String name = args[3];
        DefaultMQAdminExt admin = new DefaultMQAdminExt(
                new AclClientRPCHook(new SessionCredentials(args[1], args[2])), 5_000);
        admin.setInstanceName("broker-users-" + ProcessHandle.current().pid());
        admin.setNamesrvAddr(System.getProperty("namesrv", "127.0.0.1:9876"));
        try {
            admin.start();
            createUser(admin, broker, name, args[4]);
            for (String grant : Arrays.copyOfRange(args, 5, args.length)) {
                String[] resourceAndActions = grant.split("=", 2);
                admin.createAcl(broker, "User:" + name, List.of(resourceAndActions[0]),
                        Arrays.asList(resourceAndActions[1].split(",")), null, "Allow");
            }
            System.out.println("user " + name + " created with " + String.join(" ", Arrays.copyOfRange(args, 5,
                    args.length)));
        } catch (Exception e) {
            System.err.println("broker refused: " + e.getMessage());
            System.exit(1);
        }
        // Not admin.shutdown(): its thread pools take seconds to wind down, for nothing left to do.
        System.exit(0);
    }

    /** Right after its port opens the broker may not serve admin requests yet: tried again for a while. */
    private static void createUser(DefaultMQAdminExt admin, String broker, String name, String password)
            throws Exception {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (true) {
            try {
                admin.createUser(broker, name, password, "Normal");
                return;
            } catch (Exception e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(300);
            }
        }
    }
}
