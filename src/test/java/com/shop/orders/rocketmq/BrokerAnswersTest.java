package com.shop.orders.rocketmq;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.apache.rocketmq.remoting.RPCHook;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RequestCode;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.remoting.protocol.SerializeType;
import org.apache.rocketmq.remoting.protocol.header.SendMessageRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.SendMessageRequestHeaderV2;
import org.junit.jupiter.api.Test;

/** The brokers' refusals of the service, remembered by kind of request until one of that kind is answered again. */
class BrokerAnswersTest {

    @Test
    void aRefusalIsRememberedWithTheBrokersReasonUntilItsKindSucceeds() {
        BrokerAnswers answers = new BrokerAnswers(null, SerializeType.ROCKETMQ);
        assertNull(answers.refused());

        answers.doAfterResponse("broker", publish("order-expiry"), refusal("User:limited has no permission to "
                + "access Topic:order-expiry from 127.0.0.1, no matched policies."));
        answers.doAfterResponse("broker", publish("order-paid"), success());
        assertEquals("publish to order-expiry refused: User:limited has no permission to access Topic:order-expiry "
                + "from 127.0.0.1, no matched policies.", answers.refused());

        answers.doAfterResponse("broker", publish("order-expiry"), success());
        assertNull(answers.refused());
    }

    @Test
    void refusalsForOneReasonAreToldTogether() {
        BrokerAnswers answers = new BrokerAnswers(null, SerializeType.ROCKETMQ);
        RemotingCommand heartbeat = RemotingCommand.createRequestCommand(RequestCode.HEART_BEAT, null);
        RemotingCommand consumers = RemotingCommand.createRequestCommand(RequestCode.GET_CONSUMER_LIST_BY_GROUP, null);
        answers.doAfterResponse("broker", heartbeat, refusal("check signature failed."));
        answers.doAfterResponse("broker", consumers, refusal("check signature failed."));
        answers.doAfterResponse("broker", publish("order-paid"), refusal("User:x is not found."));

        assertTrue(answers.refuses(BrokerAnswers.HEARTBEAT));
        assertEquals("consumer list, heartbeat refused: check signature failed.; publish to order-paid refused: "
                + "User:x is not found.", answers.refused());
        // Answers that are neither a success nor a refusal (a busy broker, a missing route) change nothing.
        answers.doAfterResponse("broker", heartbeat, RemotingCommand.createResponseCommand(ResponseCode.SYSTEM_BUSY,
                "busy"));
        assertTrue(answers.refuses(BrokerAnswers.HEARTBEAT));
    }

    @Test
    void everyRequestIsSignedByTheCredentialsHookFirst() {
        List<String> signed = new ArrayList<>();
        RPCHook signing = new RPCHook() {
            @Override
            public void doBeforeRequest(String remoteAddr, RemotingCommand request) {
                signed.add(remoteAddr + " " + request.getCode());
            }

            @Override
            public void doAfterResponse(String remoteAddr, RemotingCommand request, RemotingCommand response) {
            }
        };
        new BrokerAnswers(signing, SerializeType.ROCKETMQ).doBeforeRequest("broker", publish("order-paid"));
        assertEquals(List.of("broker " + RequestCode.SEND_MESSAGE_V2), signed);
    }

    @Test
    void everyRequestIsWrittenInTheConfiguredHeaderEncoding() {
        for (SerializeType encoding : SerializeType.values()) {
            RemotingCommand heartbeat = RemotingCommand.createRequestCommand(RequestCode.HEART_BEAT, null);
            new BrokerAnswers(null, encoding).doBeforeRequest("broker", heartbeat);
            assertEquals(encoding, heartbeat.getSerializeTypeCurrentRPC());
        }
    }

    @Test
    void aRefusedPublishNamesItsTopicFromTheHeaderTheBinaryEncodingWrites() {
        SendMessageRequestHeader header = new SendMessageRequestHeader();
        header.setTopic("order-expiry");
        RemotingCommand publish = RemotingCommand.createRequestCommand(RequestCode.SEND_MESSAGE_V2,
                SendMessageRequestHeaderV2.createSendMessageRequestHeaderV2(header));
        BrokerAnswers answers = new BrokerAnswers(null, SerializeType.ROCKETMQ);
        answers.doBeforeRequest("broker", publish);

        answers.doAfterResponse("broker", publish, refusal("no permission"));
        assertEquals("publish to order-expiry refused: no permission", answers.refused());
    }

    private static RemotingCommand publish(String topic) {
        RemotingCommand request = RemotingCommand.createRequestCommand(RequestCode.SEND_MESSAGE_V2, null);
        request.addExtField("b", topic);
        return request;
    }

    private static RemotingCommand refusal(String reason) {
        return RemotingCommand.createResponseCommand(ResponseCode.NO_PERMISSION, reason);
    }

    private static RemotingCommand success() {
        return RemotingCommand.createResponseCommand(ResponseCode.SUCCESS, null);
    }
}
