package com.shop.orders.rocketmq;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.apache.rocketmq.client.ClientConfig;
import org.apache.rocketmq.client.impl.factory.MQClientInstance;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.remoting.RPCHook;
import org.apache.rocketmq.remoting.netty.NettyRemotingAbstract;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RequestCode;
import org.apache.rocketmq.remoting.protocol.SerializeType;
import org.apache.rocketmq.remoting.rpchook.DynamicalExtFieldRPCHook;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The client's zone fields, read once, in the place of the client's own hook that read them on every request. */
class ZoneFieldsTest {

    @AfterEach
    void clearZone() {
        System.clearProperty(MixAll.ROCKETMQ_ZONE_PROPERTY);
        System.clearProperty(MixAll.ROCKETMQ_ZONE_MODE_PROPERTY);
    }

    @Test
    void takesTheClientsOwnHooksPlaceAndAddsTheSameFields() {
        BrokerAnswers answers = new BrokerAnswers(null, SerializeType.ROCKETMQ);
        MQClientInstance client = new MQClientInstance(new ClientConfig(), 0, "zone-fields-test", answers);
        List<RPCHook> hooks = ((NettyRemotingAbstract) client.getMQClientAPIImpl().getRemotingClient()).getRPCHook();
        int clientsOwn = indexOf(hooks, DynamicalExtFieldRPCHook.class);
        RemotingCommand byTheClient = request();
        hooks.get(clientsOwn).doBeforeRequest("broker", byTheClient);
        List<RPCHook> before = List.copyOf(hooks);

        System.setProperty(MixAll.ROCKETMQ_ZONE_PROPERTY, "zone-a");
        System.setProperty(MixAll.ROCKETMQ_ZONE_MODE_PROPERTY, "true");
        ZoneFields.replaceIn(client);

        assertEquals(before.size(), hooks.size());
        assertEquals(-1, indexOf(hooks, DynamicalExtFieldRPCHook.class));
        assertInstanceOf(ZoneFields.class, hooks.get(clientsOwn));
        for (int i = 0; i < hooks.size(); i++) {
            if (i != clientsOwn) {
                assertSame(before.get(i), hooks.get(i), "every other hook stays where it was");
            }
        }
        assertTrue(hooks.contains(answers), "the service's own hook (signing) is still there");
        RemotingCommand request = request();
        hooks.get(clientsOwn).doBeforeRequest("broker", request);
        assertEquals("zone-a", request.getExtFields().get(MixAll.ZONE_NAME));
        assertEquals("true", request.getExtFields().get(MixAll.ZONE_MODE));
        // Read once: a later change is not seen, as nothing sets these while the service runs.
        System.setProperty(MixAll.ROCKETMQ_ZONE_PROPERTY, "zone-b");
        RemotingCommand later = request();
        hooks.get(clientsOwn).doBeforeRequest("broker", later);
        assertEquals("zone-a", later.getExtFields().get(MixAll.ZONE_NAME));
        // Without the settings neither hook adds a field.
        assertNull(byTheClient.getExtFields());
    }

    @Test
    void addsNothingWithoutAZone() {
        ZoneFields fields = new ZoneFields();
        RemotingCommand request = request();
        fields.doBeforeRequest("broker", request);
        assertNull(request.getExtFields());
    }

    private static int indexOf(List<RPCHook> hooks, Class<?> type) {
        for (int i = 0; i < hooks.size(); i++) {
            if (type.isInstance(hooks.get(i))) {
                return i;
            }
        }
        return -1;
    }

    private static RemotingCommand request() {
        return RemotingCommand.createRequestCommand(RequestCode.HEART_BEAT, null);
    }
}
