package com.shop.orders.expiry;

import org.apache.rocketmq.client.impl.factory.MQClientInstance;
import org.apache.rocketmq.remoting.RemotingClient;

/** Whether a RocketMQ client can reach a name server. Blocking: it (re)connects when needed. */
final class NameServers {

    private NameServers() {
    }

    static boolean isReachable(MQClientInstance client) {
        if (client == null) {
            return false;
        }
        RemotingClient remoting = client.getMQClientAPIImpl().getRemotingClient();
        return remoting.getNameServerAddressList().stream().anyMatch(remoting::isAddressReachable);
    }
}
