package com.shop.orders.payment.wechat;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import com.wechat.pay.java.service.refund.model.RefundNotification;

import com.shop.orders.order.OrderEvents;
import com.shop.orders.payment.NotifiedRefunds;
import com.shop.orders.payment.RefundNotice;

import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.mutiny.Uni;

/**
 * Believes a refund notify only once it is verified and decrypted ({@link WechatNotifyReader}, as the payment notify);
 * what it says is recorded by {@link NotifiedRefunds} (a refund of ours, on its trade, for its amount), once.
 * Nothing from a notify is logged before its signature is verified.
 */
@ApplicationScoped
public class WechatRefundNotifyHandler {

    private static final Logger LOG = Logger.getLogger(WechatRefundNotifyHandler.class);
    private static final String REFUND_EVENT = "REFUND.";

    private final WechatNotifyReader reader;
    private final NotifiedRefunds notified;
    private final OrderEvents events;
    private final MeterRegistry registry;

    public WechatRefundNotifyHandler(WechatNotifyReader reader, NotifiedRefunds notified, OrderEvents events,
            MeterRegistry registry) {
        this.reader = reader;
        this.notified = notified;
        this.events = events;
        this.registry = registry;
    }

    /** Handled (also a duplicate), refused, or a failure of ours (WeChat retries). */
    public Uni<NotifyAnswer> handle(WechatNotifyRequest notify) {
        return reader.read(notify, RefundNotification.class)
                .chain(reading -> reading instanceof WechatNotifyReader.Verified<?> v
                        ? verified(v.eventType(), (RefundNotification) v.resource())
                        : unverified((WechatNotifyReader.Refused) reading));
    }

    private Uni<NotifyAnswer> verified(String eventType, RefundNotification refund) {
        String orderNo = refund.getOutTradeNo() == null ? null : WechatTradeNo.orderNoOf(refund.getOutTradeNo());
        if (eventType == null || !eventType.startsWith(REFUND_EVENT)) {
            return rejected("other_event", "not a refund notify", orderNo);
        }
        RefundNotice notice;
        try {
            notice = WechatReplies.refundNotice(refund);
        } catch (RuntimeException e) {
            return rejected("unreadable", "refund unreadable", orderNo);
        }
        return notified.take(notice).chain(outcome -> switch (outcome) {
            case RECORDED -> accepted(orderNo, eventType);
            case UNKNOWN_REFUND -> rejected("unknown_refund", "no such refund", orderNo);
            case MISMATCH -> rejected("mismatch", "trade or amount is not the refund's", orderNo);
        });
    }

    private Uni<NotifyAnswer> unverified(WechatNotifyReader.Refused refused) {
        LOG.debugf("WeChat Pay refund notify rejected: %s", refused.reason());
        count("rejected", refused.reason());
        return Uni.createFrom().item(NotifyAnswer.refused(refused.status(), refused.message()));
    }

    /** Verified, so the order is named (and its timeline told). */
    private Uni<NotifyAnswer> rejected(String reason, String message, String orderNo) {
        LOG.warnf("WeChat Pay refund notify for %s rejected: %s", orderNo, reason);
        note(orderNo, "refund rejected: " + reason);
        count("rejected", reason);
        return Uni.createFrom().item(NotifyAnswer.refused(400, message));
    }

    private Uni<NotifyAnswer> accepted(String orderNo, String eventType) {
        note(orderNo, "refund recorded");
        count("accepted", eventType);
        return Uni.createFrom().item(NotifyAnswer.HANDLED);
    }

    private void note(String orderNo, String outcome) {
        if (orderNo != null) {
            events.note(orderNo, OrderEvents.Kind.NOTIFY, outcome, "wechat refund");
        }
    }

    private void count(String result, String reason) {
        registry.counter("refunds.notify", "channel", WechatChannel.NAME, "result", result, "reason", reason)
                .increment();
    }
}
