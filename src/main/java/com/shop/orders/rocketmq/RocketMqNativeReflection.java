package com.shop.orders.rocketmq;

import org.apache.rocketmq.common.BoundaryType;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageBatch;
import org.apache.rocketmq.common.message.MessageClientExt;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.common.message.MessageQueueAssignment;
import org.apache.rocketmq.common.message.MessageQueueForC;
import org.apache.rocketmq.common.message.MessageRequestMode;
import org.apache.rocketmq.remoting.protocol.DataVersion;
import org.apache.rocketmq.remoting.protocol.LanguageCode;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RemotingSerializable;
import org.apache.rocketmq.remoting.protocol.SerializeType;
import org.apache.rocketmq.remoting.protocol.body.CMResult;
import org.apache.rocketmq.remoting.protocol.body.CheckClientRequestBody;
import org.apache.rocketmq.remoting.protocol.body.ConsumeMessageDirectlyResult;
import org.apache.rocketmq.remoting.protocol.body.ConsumeStatus;
import org.apache.rocketmq.remoting.protocol.body.ConsumerRunningInfo;
import org.apache.rocketmq.remoting.protocol.body.GetConsumerStatusBody;
import org.apache.rocketmq.remoting.protocol.body.LockBatchRequestBody;
import org.apache.rocketmq.remoting.protocol.body.LockBatchResponseBody;
import org.apache.rocketmq.remoting.protocol.body.PopProcessQueueInfo;
import org.apache.rocketmq.remoting.protocol.body.ProcessQueueInfo;
import org.apache.rocketmq.remoting.protocol.body.QueryAssignmentRequestBody;
import org.apache.rocketmq.remoting.protocol.body.QueryAssignmentResponseBody;
import org.apache.rocketmq.remoting.protocol.body.ResetOffsetBody;
import org.apache.rocketmq.remoting.protocol.body.ResetOffsetBodyForC;
import org.apache.rocketmq.remoting.protocol.body.SetMessageRequestModeRequestBody;
import org.apache.rocketmq.remoting.protocol.body.UnlockBatchRequestBody;
import org.apache.rocketmq.remoting.protocol.header.CheckTransactionStateRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.ConsumeMessageDirectlyResultRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.ConsumerSendMsgBackRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.EndTransactionRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.GetConsumerListByGroupRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.GetConsumerListByGroupResponseBody;
import org.apache.rocketmq.remoting.protocol.header.GetConsumerListByGroupResponseHeader;
import org.apache.rocketmq.remoting.protocol.header.GetConsumerRunningInfoRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.GetConsumerStatusRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.GetEarliestMsgStoretimeRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.GetEarliestMsgStoretimeResponseHeader;
import org.apache.rocketmq.remoting.protocol.header.GetMaxOffsetRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.GetMaxOffsetResponseHeader;
import org.apache.rocketmq.remoting.protocol.header.GetMinOffsetRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.GetMinOffsetResponseHeader;
import org.apache.rocketmq.remoting.protocol.header.HeartbeatRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.LockBatchMqRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.NotifyConsumerIdsChangedRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.PullMessageRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.PullMessageResponseHeader;
import org.apache.rocketmq.remoting.protocol.header.QueryConsumerOffsetRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.QueryConsumerOffsetResponseHeader;
import org.apache.rocketmq.remoting.protocol.header.ReplyMessageRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.ResetOffsetRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.SearchOffsetRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.SearchOffsetResponseHeader;
import org.apache.rocketmq.remoting.protocol.header.SendMessageRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.SendMessageRequestHeaderV2;
import org.apache.rocketmq.remoting.protocol.header.SendMessageResponseHeader;
import org.apache.rocketmq.remoting.protocol.header.UnlockBatchMqRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.UnregisterClientRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.UpdateConsumerOffsetRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.UpdateConsumerOffsetResponseHeader;
import org.apache.rocketmq.remoting.protocol.header.namesrv.GetRouteInfoRequestHeader;
import org.apache.rocketmq.remoting.protocol.heartbeat.ConsumeType;
import org.apache.rocketmq.remoting.protocol.heartbeat.ConsumerData;
import org.apache.rocketmq.remoting.protocol.heartbeat.HeartbeatData;
import org.apache.rocketmq.remoting.protocol.heartbeat.MessageModel;
import org.apache.rocketmq.remoting.protocol.heartbeat.ProducerData;
import org.apache.rocketmq.remoting.protocol.heartbeat.SubscriptionData;
import org.apache.rocketmq.remoting.protocol.route.BrokerData;
import org.apache.rocketmq.remoting.protocol.route.QueueData;
import org.apache.rocketmq.remoting.protocol.route.TopicRouteData;
import org.apache.rocketmq.remoting.protocol.statictopic.TopicQueueMappingInfo;
import org.apache.rocketmq.remoting.rpc.RpcRequestHeader;
import org.apache.rocketmq.remoting.rpc.TopicQueueRequestHeader;
import org.apache.rocketmq.remoting.rpc.TopicRequestHeader;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * Reflection metadata for the RocketMQ 5.3.3 remoting client in the native binary. The client
 * fills and reads command headers through their declared fields ({@code RemotingCommand}
 * creates a header with its no-arg constructor and copies {@code extFields} into it), and
 * encodes the command (JSON by default) and its bodies with fastjson, which in a native image reads and writes them
 * by plain reflection on fields, getters and setters (its ASM code generation is off there, see RocketMqClients). RocketMQ ships no native-image
 * configuration.
 *
 * <p>Listed: what the transactional producer ({@link com.shop.orders.expiry.ExpiryMessages}), the push consumer
 * ({@link com.shop.orders.expiry.ExpiryConsumer}) and the outbox producer ({@link com.shop.orders.events.OutboxRelay})
 * exercise, plus every protocol class reachable from their fields and superclasses (computed with {@code javap} on
 * rocketmq-remoting and rocketmq-common 5.3.3). Admin-only headers and bodies are left out on purpose. A missing
 * entry shows at run time (an empty header, a fastjson error), never at build time: the native ITs
 * ({@code PackagedServiceIT}, {@code ReplicaFaultsIT} with {@code -Dnative}, run by CI), which send, check back,
 * commit and consume through the executable, prove this list.
 */
@RegisterForReflection(targets = {
        // The command itself (JSON-serialized by default) and its enums
        DataVersion.class,
        LanguageCode.class,
        RemotingCommand.class,
        RemotingSerializable.class,
        SerializeType.class,
        // Command headers: send, transaction end/check, heartbeat, unregister, topic route, pull,
        // offsets, rebalance, send-back, and the broker-to-client requests (transaction check,
        // consumer ids changed, reset offset, consumer status and running info)
        CheckTransactionStateRequestHeader.class,
        ConsumeMessageDirectlyResultRequestHeader.class,
        ConsumerSendMsgBackRequestHeader.class,
        EndTransactionRequestHeader.class,
        GetConsumerListByGroupRequestHeader.class,
        GetConsumerListByGroupResponseBody.class,
        GetConsumerListByGroupResponseHeader.class,
        GetConsumerRunningInfoRequestHeader.class,
        GetConsumerStatusRequestHeader.class,
        GetEarliestMsgStoretimeRequestHeader.class,
        GetEarliestMsgStoretimeResponseHeader.class,
        GetMaxOffsetRequestHeader.class,
        GetMaxOffsetResponseHeader.class,
        GetMinOffsetRequestHeader.class,
        GetMinOffsetResponseHeader.class,
        GetRouteInfoRequestHeader.class,
        HeartbeatRequestHeader.class,
        LockBatchMqRequestHeader.class,
        NotifyConsumerIdsChangedRequestHeader.class,
        PullMessageRequestHeader.class,
        PullMessageResponseHeader.class,
        QueryConsumerOffsetRequestHeader.class,
        QueryConsumerOffsetResponseHeader.class,
        ReplyMessageRequestHeader.class,
        ResetOffsetRequestHeader.class,
        SearchOffsetRequestHeader.class,
        SearchOffsetResponseHeader.class,
        SendMessageRequestHeader.class,
        SendMessageRequestHeaderV2.class,
        SendMessageResponseHeader.class,
        UnlockBatchMqRequestHeader.class,
        UnregisterClientRequestHeader.class,
        UpdateConsumerOffsetRequestHeader.class,
        UpdateConsumerOffsetResponseHeader.class,
        // Superclasses of the headers (their fields are encoded too)
        RpcRequestHeader.class,
        TopicQueueRequestHeader.class,
        TopicRequestHeader.class,
        // Heartbeat body
        ConsumeType.class,
        ConsumerData.class,
        HeartbeatData.class,
        MessageModel.class,
        ProducerData.class,
        SubscriptionData.class,
        // Topic route body
        BrokerData.class,
        QueueData.class,
        TopicQueueMappingInfo.class,
        TopicRouteData.class,
        // Other JSON bodies (rebalance, locks, offsets reset, consumer status and running info)
        CMResult.class,
        CheckClientRequestBody.class,
        ConsumeMessageDirectlyResult.class,
        ConsumeStatus.class,
        ConsumerRunningInfo.class,
        GetConsumerStatusBody.class,
        LockBatchRequestBody.class,
        LockBatchResponseBody.class,
        PopProcessQueueInfo.class,
        ProcessQueueInfo.class,
        QueryAssignmentRequestBody.class,
        QueryAssignmentResponseBody.class,
        ResetOffsetBody.class,
        ResetOffsetBodyForC.class,
        SetMessageRequestModeRequestBody.class,
        UnlockBatchRequestBody.class,
        // Message and queue model (bodies carry MessageQueue keys; listeners receive MessageExt)
        BoundaryType.class,
        ConsumeFromWhere.class,
        Message.class,
        MessageBatch.class,
        MessageClientExt.class,
        MessageExt.class,
        MessageQueue.class,
        MessageQueueAssignment.class,
        MessageQueueForC.class,
        MessageRequestMode.class
})
final class RocketMqNativeReflection {

    private RocketMqNativeReflection() {
    }
}
