package com.shop.orders.payment.wechat;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.Set;

import com.wechat.pay.java.core.exception.ServiceException;
import com.wechat.pay.java.service.payments.model.Transaction;
import com.wechat.pay.java.service.refund.model.Refund;
import com.wechat.pay.java.service.refund.model.RefundNotification;
import com.wechat.pay.java.service.refund.model.Status;

import com.shop.orders.payment.PaidTrade;
import com.shop.orders.payment.PaymentGatewayException;
import com.shop.orders.payment.RefundAnswer;
import com.shop.orders.payment.RefundFinding;
import com.shop.orders.payment.RefundNotice;
import com.shop.orders.payment.Trade;
import com.shop.orders.payment.TradeState;
import com.shop.orders.resilience.Causes;

/**
 * How WeChat Pay's answers are read, and the units it speaks: amounts in fen, times in RFC 3339 Beijing time, a
 * description of at most 127 characters. Pure, so that every reading is unit-tested without a gateway.
 */
final class WechatReplies {

    /** The trade was never prepaid (query). */
    static final String ORDER_NOT_EXIST = "ORDER_NOT_EXIST";
    /** The buyer paid: the trade cannot be closed (close). */
    static final String ORDERPAID = "ORDERPAID";
    /** No such refund (refund query). */
    static final String RESOURCE_NOT_EXISTS = "RESOURCE_NOT_EXISTS";
    /**
     * No bill for the day (yet): WeChat makes a day's bill after about 10:00 the next day (trade bill, 400). Its pages
     * name the bill "not there" NO_STATEMENT_EXIST (账单文件不存在) and "being made" STATEMENT_CREATING (账单生成中).
     */
    static final Set<String> BILL_NOT_MADE = Set.of("NO_STATEMENT_EXIST", "STATEMENT_CREATING");
    /** WeChat's "busy, call again with the same parameters", whatever the status. */
    static final String SYSTEM_ERROR = "SYSTEM_ERROR";
    /** Rate limits, named one way in WeChat's rules tables and another in its API pages. */
    private static final Set<String> RATE_LIMITED = Set.of("FREQUENCY_LIMITED", "RATELIMIT_EXCEEDED", "RATE_LIMITED");
    private static final int DESCRIPTION_MAX = 127;
    /** Why an ABNORMAL refund waits, for its record. */
    static final String ABNORMAL_REASON = "WeChat Pay could not pay it back to the buyer's account: "
            + "to be handled in the merchant console";
    /** WeChat's times: RFC 3339, its own zone (+08:00), to the second. */
    private static final DateTimeFormatter RFC3339 = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssXXX")
            .withZone(ZoneOffset.ofHours(8));

    /** An error answer (the SDK's ServiceException): its HTTP status and WeChat's code and message, when it sent any. */
    record Refusal(int status, String code, String message) {

        static Refusal of(ServiceException e) {
            return new Refusal(e.getHttpStatusCode(), e.getErrorCode(), e.getErrorMessage());
        }

        /** Busy, rate-limited or failing: the call's outcome is unknown and it may be made again, unchanged. */
        boolean isTryAgain() {
            return status >= 500 || status == 429 || SYSTEM_ERROR.equals(code) || RATE_LIMITED.contains(code);
        }

        boolean is(String errorCode) {
            return errorCode.equals(code);
        }

        /** The outcome tag of a call in metrics and the timeline: WeChat's code, or the status when it sent none. */
        String outcome() {
            return code != null ? code : "http_" + status;
        }

        /** The refusal as the caller's failure: try again later (503) or refused (502), WeChat's codes in the detail. */
        PaymentGatewayException failure(String method) {
            String codes = " (" + status + (code == null ? "" : " / " + code) + ")";
            Map<String, Object> extensions = code == null ? Map.of() : Map.of("providerCode", code);
            return isTryAgain()
                    ? PaymentGatewayException.tryAgain(WechatGateway.WALLET, method, codes, extensions)
                    : PaymentGatewayException.refused(WechatGateway.WALLET, method, codes, extensions);
        }
    }

    private WechatReplies() {
    }

    /**
     * A failure in one line for the log: an error answer by its status, code and message (the SDK's own message
     * carries the whole request and answer over several lines), anything else by its innermost cause.
     */
    static String describe(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ServiceException answer) {
                return "WeChat Pay answered " + answer.getHttpStatusCode() + " " + answer.getErrorCode() + ": "
                        + answer.getErrorMessage();
            }
        }
        return Causes.of(failure);
    }

    /** Yuan to fen, exactly: an amount with fractions of a fen is refused, never rounded. */
    static int fen(BigDecimal yuan) {
        return yuan.movePointRight(2).intValueExact();
    }

    static BigDecimal yuan(long fen) {
        return BigDecimal.valueOf(fen, 2);
    }

    static String time(Instant instant) {
        return RFC3339.format(instant);
    }

    static Instant instant(String rfc3339) {
        return rfc3339 == null || rfc3339.isBlank() ? null : OffsetDateTime.parse(rfc3339).toInstant();
    }

    /** The subject as WeChat's description: at most 127 characters, never a half of a surrogate pair. */
    static String description(String subject) {
        if (subject.codePointCount(0, subject.length()) <= DESCRIPTION_MAX) {
            return subject;
        }
        return subject.substring(0, subject.offsetByCodePoints(0, DESCRIPTION_MAX));
    }

    /** A trade_state in the core's terms; null when WeChat named none the SDK knows. */
    static TradeState state(Transaction.TradeStateEnum tradeState) {
        if (tradeState == null) {
            return null;
        }
        return switch (tradeState) {
            // REFUND: paid, then (partly) refunded: the money was taken.
            case SUCCESS, REFUND -> TradeState.PAID;
            case NOTPAY, USERPAYING, ACCEPT -> TradeState.WAITING;
            case CLOSED, REVOKED, PAYERROR -> TradeState.CLOSED;
        };
    }

    /** A query's transaction as a trade; null when its state cannot be read. */
    static Trade trade(String outTradeNo, Transaction transaction) {
        TradeState state = state(transaction.getTradeState());
        if (state == null) {
            return null;
        }
        Integer total = transaction.getAmount() == null ? null : transaction.getAmount().getTotal();
        return new Trade(outTradeNo, state, transaction.getTradeState().name(), transaction.getTransactionId(),
                total == null ? null : yuan(total), instant(transaction.getSuccessTime()));
    }

    /**
     * A notify's paid transaction as the core takes it; {@link IllegalArgumentException} (or a parse failure of the
     * time) when it lacks what a payment must say.
     */
    static PaidTrade paid(Transaction transaction) {
        if (transaction.getOutTradeNo() == null || transaction.getTransactionId() == null
                || transaction.getAmount() == null || transaction.getAmount().getTotal() == null) {
            throw new IllegalArgumentException("out_trade_no, transaction_id or amount.total missing");
        }
        return new PaidTrade(transaction.getOutTradeNo(), transaction.getTransactionId(),
                yuan(transaction.getAmount().getTotal()), instant(transaction.getSuccessTime()));
    }

    /**
     * A refund's answer: made (SUCCESS), closed for good, or stuck (ABNORMAL: a person must act in the merchant
     * console); null while WeChat has not decided (PROCESSING, a status the SDK does not know): then the refund notify
     * or the refund query tells later.
     */
    static RefundAnswer refundAnswer(Refund refund) {
        Status status = refund.getStatus();
        if (status == Status.SUCCESS) {
            return new RefundAnswer(true, status.name(), null, null);
        }
        if (status == Status.CLOSED) {
            return new RefundAnswer(false, status.name(), null, "refund closed by WeChat Pay");
        }
        if (status == Status.ABNORMAL) {
            return new RefundAnswer(RefundAnswer.Outcome.STUCK, status.name(), null, ABNORMAL_REASON);
        }
        return null;
    }

    /** A refund WeChat refused to take (a definitive 4xx: too much, too old, no such trade ...). */
    static RefundAnswer refusedRefund(Refusal refusal) {
        return new RefundAnswer(false, refusal.outcome(), null, refusal.message());
    }

    /** A refund's status (query or notify) in the core's terms; null while it is being processed or unknown. */
    static RefundFinding refundFinding(Status status) {
        if (status == null) {
            return null;
        }
        return switch (status) {
            case SUCCESS -> RefundFinding.MADE;
            case CLOSED -> RefundFinding.CLOSED;
            case ABNORMAL -> RefundFinding.ABNORMAL;
            case PROCESSING -> null;
        };
    }

    /**
     * A refund notify's refund as the core takes it; {@link IllegalArgumentException} when it lacks what a refund
     * notify must say, or names a status that is not an outcome.
     */
    static RefundNotice refundNotice(RefundNotification notification) {
        RefundFinding finding = refundFinding(notification.getRefundStatus());
        if (notification.getOutTradeNo() == null || notification.getOutRefundNo() == null || finding == null
                || notification.getAmount() == null || notification.getAmount().getRefund() == null
                || notification.getAmount().getTotal() == null) {
            throw new IllegalArgumentException("out_trade_no, out_refund_no, refund_status or amount missing");
        }
        return new RefundNotice(notification.getOutTradeNo(), notification.getOutRefundNo(),
                yuan(notification.getAmount().getRefund()), yuan(notification.getAmount().getTotal()), finding);
    }
}
