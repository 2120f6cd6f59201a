package com.shop.orders.payment.wechat;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import com.wechat.pay.java.core.exception.DecryptionException;
import com.wechat.pay.java.core.exception.ValidationException;
import com.wechat.pay.java.core.notification.Notification;
import com.wechat.pay.java.core.notification.NotificationParser;
import com.wechat.pay.java.core.notification.RequestParam;
import com.wechat.pay.java.core.util.GsonUtil;

import com.shop.orders.resilience.MutinyBridge;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;

/**
 * Verifies a notify with the SDK's parser (WeChat's signature over the raw body, under the serial it names) and
 * decrypts its resource with the APIv3 key. RSA and AES, and the first time the SDK's set-up (in certificate mode a
 * download): on a worker thread, the answer back on the caller's context.
 */
@ApplicationScoped
public class WechatNotifyReader {

    private static final Logger LOG = Logger.getLogger(WechatNotifyReader.class);

    /** What reading a notify came to. */
    public sealed interface Reading permits Verified, Refused {
    }

    /** WeChat's notify, verified and decrypted: its event and the resource it carries (a transaction, a refund). */
    public record Verified<T>(String eventType, T resource) implements Reading {
    }

    /** Not believed or not readable: the status to answer, the reason for metrics, a few words for WeChat. */
    public record Refused(int status, String reason, String message) implements Reading {
    }

    private final WechatGateway gateway;

    public WechatNotifyReader(WechatGateway gateway) {
        this.gateway = gateway;
    }

    /**
     * Verifies the notify and decrypts its resource as a {@code type} (Transaction, RefundNotification): Verified with a
     * resource of that type, or Refused. Fails only when the SDK cannot be set up (ours to fix, not the notify's).
     */
    public <T> Uni<Reading> read(WechatNotifyRequest notify, Class<T> type) {
        return MutinyBridge.backOnContext(Uni.createFrom().item(() -> readNow(notify, type))
                .runSubscriptionOn(Infrastructure.getDefaultWorkerPool()));
    }

    private <T> Reading readNow(WechatNotifyRequest notify, Class<T> type) {
        if (!notify.complete()) {
            return new Refused(401, "headers", "Wechatpay-Signature, -Timestamp, -Nonce or -Serial missing");
        }
        NotificationParser parser = gateway.notificationParser();
        T resource;
        try {
            resource = parser.parse(new RequestParam.Builder().serialNumber(notify.serial())
                    .signature(notify.signature()).timestamp(notify.timestamp()).nonce(notify.nonce())
                    .signType(notify.signatureType()).body(notify.body()).build(), type);
        } catch (ValidationException e) {
            // A wrong signature, an unknown serial, a body changed after WeChat signed it.
            return new Refused(401, "signature", "signature not verified");
        } catch (DecryptionException e) {
            // Signed by WeChat, yet not encrypted with our APIv3 key: our key is likely wrong, and no notify will read.
            LOG.error("A WeChat Pay notify verified but its resource does not decrypt: check WECHAT_API_V3_KEY");
            return new Refused(400, "undecryptable", "resource not decryptable");
        } catch (RuntimeException e) {
            // The SDK's MalformedMessageException, Gson's parse errors, a resource without nonce or associated data.
            return new Refused(400, "malformed", "malformed notify");
        }
        if (resource == null) {
            return new Refused(400, "malformed", "malformed notify");
        }
        // The envelope parsed already in the parser: its event type is read from the same verified body.
        String eventType = GsonUtil.getGson().fromJson(notify.body(), Notification.class).getEventType();
        return new Verified<>(eventType, resource);
    }
}
