package com.shop.orders.expiry;

import org.apache.rocketmq.client.impl.factory.MQClientInstance;

/** Whether a RocketMQ client currently holds a live connection to a name server. */
final class NameServers {

    private NameServers() {
    }

    static boolean isConnected(MQClientInstance client) {
        return client != null && !client.getMQClientAPIImpl().getRemotingClient().getAvailableNameSrvList().isEmpty();
    }
}
