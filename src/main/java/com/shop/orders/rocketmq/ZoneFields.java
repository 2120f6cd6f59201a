package com.shop.orders.rocketmq;

import java.util.List;

import org.apache.commons.lang3.StringUtils;
import org.apache.rocketmq.client.impl.factory.MQClientInstance;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.remoting.RPCHook;
import org.apache.rocketmq.remoting.netty.NettyRemotingAbstract;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.rpchook.DynamicalExtFieldRPCHook;

/**
 * The zone fields that RocketMQ's client adds to every request, read once instead of on every request. The client's
 * own hook ({@link DynamicalExtFieldRPCHook}) looks up two environment variables per request, each look-up encoding
 * the variable's name into new bytes; with a check-back's answer, a half message and its end for every order, that
 * was 2 % of all the service's allocation under the placement load (JFR, docs/native.md). Same fields, same place
 * among the hooks: a system property, else the environment variable, as the client reads them.
 */
final class ZoneFields implements RPCHook {

    private final String zoneName = setting(MixAll.ROCKETMQ_ZONE_PROPERTY, MixAll.ROCKETMQ_ZONE_ENV);
    private final String zoneMode = setting(MixAll.ROCKETMQ_ZONE_MODE_PROPERTY, MixAll.ROCKETMQ_ZONE_MODE_ENV);

    /**
     * Puts this hook where the client's own is. In place ({@code set}, not a structural change): the client's threads
     * go through the list while it runs.
     */
    static void replaceIn(MQClientInstance client) {
        if (!(client.getMQClientAPIImpl().getRemotingClient() instanceof NettyRemotingAbstract remoting)) {
            return;
        }
        List<RPCHook> hooks = remoting.getRPCHook();
        for (int i = 0; i < hooks.size(); i++) {
            if (hooks.get(i) instanceof DynamicalExtFieldRPCHook) {
                hooks.set(i, new ZoneFields());
            }
        }
    }

    @Override
    public void doBeforeRequest(String remoteAddr, RemotingCommand request) {
        if (StringUtils.isNotBlank(zoneName)) {
            request.addExtField(MixAll.ZONE_NAME, zoneName);
        }
        if (StringUtils.isNotBlank(zoneMode)) {
            request.addExtField(MixAll.ZONE_MODE, zoneMode);
        }
    }

    @Override
    public void doAfterResponse(String remoteAddr, RemotingCommand request, RemotingCommand response) {
    }

    private static String setting(String property, String variable) {
        return System.getProperty(property, System.getenv(variable));
    }
}
