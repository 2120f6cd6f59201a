package com.shop.orders.payment.alipay;

import java.math.BigDecimal;
import java.util.Date;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.alipay.api.AlipayApiErrorEnum;
import com.alipay.api.AlipayApiException;
import com.shop.orders.payment.PaymentGatewayException;
import com.shop.orders.payment.RefundAnswer;
import com.shop.orders.payment.Trade;

/**
 * How Alipay's answers are read: {@code code == 10000} is success (the SDK's {@code isSuccess()} only
 * means that no sub_code came), and a few sub_codes are answers rather than failures. Pure, so that
 * every reading is unit-tested without a gateway.
 */
final class AlipayReplies {

    static final String SUCCESS = "10000";
    static final String TRADE_NOT_EXIST = "ACQ.TRADE_NOT_EXIST";
    static final String TRADE_STATUS_ERROR = "ACQ.TRADE_STATUS_ERROR";
    /** Alipay's "busy, call again with the same parameters". */
    static final String SYSTEM_ERROR = "ACQ.SYSTEM_ERROR";
    static final String SERVICE_UNAVAILABLE = "20000";
    /** The bill of that day is not made yet (or never will be: a day before the app existed). */
    static final String BILL_NOT_EXIST = "isp.bill_not_exist";
    /** The refund query's "this refund was made". */
    static final String REFUND_SUCCESS = "REFUND_SUCCESS";

    /** What {@code alipay.trade.close} did. */
    enum CloseResult {
        CLOSED,
        /** Never scanned: there is no trade to close, but the QR code may still be payable. */
        NOT_EXIST,
        /** Paid, or closed already: a query tells which. */
        NOT_CLOSABLE
    }

    /** What {@code alipay.trade.cancel} did. */
    enum CancelResult {
        /** The trade (or the unscanned QR code) is closed and can no longer be paid. */
        CLOSED,
        /** It had been paid: Alipay refunded the buyer. */
        REFUNDED,
        /**
         * Alipay knows neither a trade nor a QR code under the number: the precreate never reached it, or was refused
         * (asked just before the deadline). Nothing can be paid under it.
         */
        NOT_EXIST
    }

    /** The SN after the answer node; the last match, so that nothing inside the node can stand for it. */
    private static final Pattern ALIPAY_CERT_SN = Pattern.compile("\"alipay_cert_sn\"\\s*:\\s*\"([0-9A-Za-z]+)\"");
    /** The SDK's refusal of an answer under a certificate that is not issued under the root (a message, no code). */
    private static final String UNTRUSTED_CERTIFICATE = AlipayApiErrorEnum.CHECK_ALIPAY_CERT_SN_ERROR.getErrMsg();

    private AlipayReplies() {
    }

    /** Certificate mode: the {@code alipay_cert_sn} an answer's body names, null when it names none. */
    static String alipayCertSn(String body) {
        if (body == null) {
            return null;
        }
        Matcher matcher = ALIPAY_CERT_SN.matcher(body);
        String sn = null;
        while (matcher.find()) {
            sn = matcher.group(1);
        }
        return sn;
    }

    /** Certificate mode: the SDK refused the answer's certificate (not issued under the root, or out of date). */
    static boolean isUntrustedCertificate(AlipayApiException failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof AlipayApiException && UNTRUSTED_CERTIFICATE.equals(t.getMessage())) {
                return true;
            }
        }
        return false;
    }

    static boolean isSuccess(String code) {
        return SUCCESS.equals(code);
    }

    /** Alipay asks to try again later: not a refusal of the request, an outage of Alipay. */
    static boolean isTryAgain(String code, String subCode) {
        return SERVICE_UNAVAILABLE.equals(code) || SYSTEM_ERROR.equals(subCode);
    }

    /**
     * Alipay answered with an error: a refusal of the call (502), unless it asked to be called again later
     * ({@code ACQ.SYSTEM_ERROR}), which is an outage (503). The detail names the call and Alipay's codes only.
     */
    static PaymentGatewayException answered(String method, String code, String subCode) {
        String codes = " (" + code + (subCode == null ? "" : " / " + subCode) + ")";
        Map<String, Object> extensions = subCode == null ? Map.of() : Map.of("providerCode", subCode);
        return isTryAgain(code, subCode)
                ? PaymentGatewayException.tryAgain(AlipayGateway.WALLET, method, codes, extensions)
                : PaymentGatewayException.refused(AlipayGateway.WALLET, method, codes, extensions);
    }

    /** A refund's answer: done or refused for good; null when Alipay asked to try again (the outcome is unknown). */
    static RefundAnswer refundAnswer(String code, String subCode, String subMsg) {
        if (isTryAgain(code, subCode)) {
            return null;
        }
        return new RefundAnswer(isSuccess(code), code, subCode, subMsg);
    }

    /** The outcome tag of a call in metrics: success, or what Alipay answered instead. */
    static String outcome(String code, String subCode) {
        return isSuccess(code) ? "success" : subCode == null ? String.valueOf(code) : subCode;
    }

    /** The bill's link; not published while Alipay answers that it has no bill for the day; null: refused. */
    static TradeBillLink tradeBill(String code, String subCode, String url) {
        if (isSuccess(code) && url != null && !url.isBlank()) {
            return TradeBillLink.at(url);
        }
        return BILL_NOT_EXIST.equals(subCode) ? TradeBillLink.notPublished() : null;
    }

    static CloseResult close(String code, String subCode) {
        if (isSuccess(code)) {
            return CloseResult.CLOSED;
        }
        if (TRADE_NOT_EXIST.equals(subCode)) {
            return CloseResult.NOT_EXIST;
        }
        if (TRADE_STATUS_ERROR.equals(subCode)) {
            return CloseResult.NOT_CLOSABLE;
        }
        return null;
    }

    /**
     * Cancel answers "close" or "refund" as its action, or ACQ.TRADE_NOT_EXIST for a number it never precreated;
     * anything else is no answer to rely on.
     */
    static CancelResult cancel(String code, String subCode, String action) {
        if (TRADE_NOT_EXIST.equals(subCode)) {
            return CancelResult.NOT_EXIST;
        }
        if (!isSuccess(code)) {
            return null;
        }
        return switch (action == null ? "" : action) {
            case "close" -> CancelResult.CLOSED;
            case "refund" -> CancelResult.REFUNDED;
            default -> null;
        };
    }

    /** A query answer as a trade; null when Alipay did not answer it. */
    static Trade trade(String orderNo, String code, String subCode, String tradeStatus, String tradeNo,
            String totalAmount, Date paidAt) {
        if (TRADE_NOT_EXIST.equals(subCode)) {
            return Trade.notFound(orderNo);
        }
        if (!isSuccess(code)) {
            return null;
        }
        TradeStatus status = TradeStatus.parse(tradeStatus);
        return new Trade(orderNo, status.state(), status.name(), tradeNo,
                totalAmount == null ? null : new BigDecimal(totalAmount), paidAt == null ? null : paidAt.toInstant());
    }

    /**
     * The refund query: success with a refund in it is a refund made ({@code refund_status} REFUND_SUCCESS, or
     * absent with an amount, as older answers are); success without one, or no such trade, is none; anything else
     * is no answer (null).
     */
    static Boolean refundMade(String code, String subCode, String refundStatus, String refundAmount) {
        if (TRADE_NOT_EXIST.equals(subCode)) {
            return Boolean.FALSE;
        }
        if (!isSuccess(code)) {
            return null;
        }
        if (refundStatus != null) {
            return REFUND_SUCCESS.equals(refundStatus);
        }
        return refundAmount != null && !refundAmount.isBlank();
    }
}
