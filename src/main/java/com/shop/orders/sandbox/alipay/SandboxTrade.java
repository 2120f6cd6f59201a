package com.shop.orders.sandbox.alipay;

import java.math.BigDecimal;
import java.security.SecureRandom;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * One precreated QR code and the trade it becomes, with Alipay's state rules. Every transition is
 * synchronized: buyer actions, gateway calls and notify bookkeeping arrive on different threads.
 * Expiry is applied lazily, whenever the trade is looked at.
 */
final class SandboxTrade {

    /** The single simulated buyer and seller: Alipay ids are 16 digits starting with 2088. */
    static final String BUYER_ID = "2088102100000001";
    static final String BUYER_LOGON_ID = "sbx***@sandbox.example";
    static final String SELLER_ID = "2088102100000099";

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final DateTimeFormatter TRADE_NO_DAY = DateTimeFormatter.ofPattern("yyyyMMdd");

    /** The refund a cancel of a paid trade makes: it has no out_request_no. */
    private static final String CANCEL_REFUND = "";

    /** Result of a refund call; fundChanged is false when the out_request_no was already refunded. */
    record RefundOutcome(boolean fundChanged, BigDecimal refundedTotal, Instant refundedAt) {
    }

    final String outTradeNo;
    final String qrCode;
    final String notifyId;
    private final BigDecimal totalAmount;
    private final String subject;
    private final Instant expiresAt;
    private String notifyUrl;
    private SandboxTradeStatus status = SandboxTradeStatus.AWAITING_SCAN;
    private String closeReason;
    private String tradeNo;
    private Instant scannedAt;
    private Instant paidAt;
    private BigDecimal refunded = Money.ZERO;
    /** In the order they were made, as the snapshot lists them. */
    private final Map<String, RefundSnapshot> refundsByRequestNo = new LinkedHashMap<>();
    private int notifyAttempts;
    private boolean notifyAcknowledged;
    private volatile boolean discarded;

    SandboxTrade(String outTradeNo, BigDecimal totalAmount, String subject, Instant expiresAt, String notifyUrl) {
        this.outTradeNo = outTradeNo;
        this.totalAmount = totalAmount;
        this.subject = subject;
        this.expiresAt = expiresAt;
        this.notifyUrl = notifyUrl;
        this.qrCode = "https://qr.alipay.com/sbx" + randomLowerAlnum(22);
        this.notifyId = UUID.randomUUID().toString().replace("-", "");
    }

    /** An unscanned QR code past its expiry never became a trade: a new precreate may replace it. */
    synchronized boolean replaceableBy(Instant now) {
        return status == SandboxTradeStatus.AWAITING_SCAN && !now.isBefore(expiresAt);
    }

    /** A repeated precreate gets the same QR code while the trade can still be paid, for the same amount. */
    synchronized void precreateAgain(BigDecimal amount, String newNotifyUrl, Instant now) {
        expireIfDue(now);
        if (status == SandboxTradeStatus.TRADE_SUCCESS) {
            throw TradeRejected.hasSucceeded();
        }
        if (status == SandboxTradeStatus.TRADE_CLOSED) {
            throw TradeRejected.hasClosed();
        }
        if (amount.compareTo(totalAmount) != 0) {
            throw new TradeRejected("ACQ.CONTEXT_INCONSISTENT", "交易信息被篡改");
        }
        if (newNotifyUrl != null && !newNotifyUrl.isEmpty()) {
            notifyUrl = newNotifyUrl;
        }
    }

    synchronized boolean existsAtAlipay() {
        return tradeNo != null;
    }

    synchronized String tradeNo() {
        return tradeNo;
    }

    synchronized SandboxTradeStatus status(Instant now) {
        expireIfDue(now);
        return status;
    }

    synchronized void scan(Instant now) {
        expireIfDue(now);
        switch (status) {
            case AWAITING_SCAN -> {
                if (!now.isBefore(expiresAt)) {
                    throw new BuyerActionRefused("QR code expired");
                }
                tradeNo = newTradeNo(now);
                scannedAt = now;
                status = SandboxTradeStatus.WAIT_BUYER_PAY;
            }
            case WAIT_BUYER_PAY -> {
                // scanning again shows the same cashier page
            }
            case TRADE_SUCCESS -> throw new BuyerActionRefused("trade already paid");
            case TRADE_CLOSED -> throw new BuyerActionRefused("trade closed (" + closeReason + ")");
        }
    }

    synchronized void pay(Instant now) {
        scan(now);
        paidAt = now;
        status = SandboxTradeStatus.TRADE_SUCCESS;
    }

    synchronized void close(Instant now) {
        requireExists(now);
        if (status != SandboxTradeStatus.WAIT_BUYER_PAY) {
            // Alipay closes only trades waiting for payment; a closed or paid one is a status error
            throw TradeRejected.statusError();
        }
        closeBecause("closed by merchant");
    }

    /** Alipay's cancel: closes an unpaid trade (even one never scanned), refunds a paid one; answers the action. */
    synchronized String cancel(Instant now) {
        expireIfDue(now);
        if (tradeNo == null) {
            // the QR code must never become payable after a cancel, so the trade now exists, closed
            tradeNo = newTradeNo(now);
        }
        switch (status) {
            case AWAITING_SCAN, WAIT_BUYER_PAY -> closeBecause("cancelled by merchant");
            case TRADE_SUCCESS -> {
                refunded = totalAmount;
                // Alipay's bill lists a cancel's refund like any other, without a request number.
                refundsByRequestNo.put(CANCEL_REFUND, new RefundSnapshot(CANCEL_REFUND, totalAmount, now));
                closeBecause("cancelled by merchant, refunded");
            }
            case TRADE_CLOSED -> {
                // cancel is repeatable: answer what it did
            }
        }
        return paidAt == null ? "close" : "refund";
    }

    synchronized RefundOutcome refund(String outRequestNo, BigDecimal amount, Instant now) {
        requireExists(now);
        RefundSnapshot earlier = refundsByRequestNo.get(outRequestNo);
        if (earlier != null) {
            if (earlier.amount().compareTo(amount) != 0) {
                throw TradeRejected.invalidParameter("out_request_no already used with another refund_amount");
            }
            return new RefundOutcome(false, refunded, earlier.at());
        }
        if (status == SandboxTradeStatus.WAIT_BUYER_PAY) {
            throw TradeRejected.statusError();
        }
        if (status == SandboxTradeStatus.TRADE_CLOSED) {
            throw TradeRejected.hasClosed();
        }
        if (refunded.add(amount).compareTo(totalAmount) > 0) {
            throw new TradeRejected("ACQ.REFUND_AMT_NOT_EQUAL_TOTAL", "退款金额超限");
        }
        refundsByRequestNo.put(outRequestNo, new RefundSnapshot(outRequestNo, amount, now));
        refunded = refunded.add(amount);
        if (refunded.compareTo(totalAmount) == 0) {
            closeBecause("fully refunded");
        }
        return new RefundOutcome(true, refunded, now);
    }

    /** This trade's rows in the trade bill of the day from {@code dayStart} (inclusive) to {@code dayEnd}. */
    synchronized List<BillLine> billLines(Instant dayStart, Instant dayEnd) {
        List<BillLine> lines = new ArrayList<>();
        if (paidAt != null && !paidAt.isBefore(dayStart) && paidAt.isBefore(dayEnd)) {
            lines.add(new BillLine(tradeNo, outTradeNo, BillLine.Type.PAYMENT, subject, scannedAt, paidAt,
                    totalAmount, totalAmount, ""));
        }
        for (RefundSnapshot refund : refundsByRequestNo.values()) {
            if (!refund.at().isBefore(dayStart) && refund.at().isBefore(dayEnd)) {
                lines.add(new BillLine(tradeNo, outTradeNo, BillLine.Type.REFUND, subject, scannedAt, refund.at(),
                        totalAmount, refund.amount().negate(), refund.requestNo()));
            }
        }
        return lines;
    }

    synchronized void recordNotifyAttempt() {
        notifyAttempts++;
    }

    synchronized void acknowledgeNotify() {
        notifyAcknowledged = true;
    }

    synchronized int notifyAttempts() {
        return notifyAttempts;
    }

    synchronized TradeSnapshot snapshot(Instant now) {
        expireIfDue(now);
        return new TradeSnapshot(outTradeNo, tradeNo, status, totalAmount, refunded, subject, qrCode, notifyUrl,
                expiresAt, scannedAt, paidAt, notifyAttempts, notifyAcknowledged,
                List.copyOf(refundsByRequestNo.values()));
    }

    /** Pending notifies of a trade dropped by a reset must stop. */
    void discard() {
        discarded = true;
    }

    boolean discarded() {
        return discarded;
    }

    private void requireExists(Instant now) {
        expireIfDue(now);
        if (tradeNo == null) {
            throw TradeRejected.notExist();
        }
    }

    private void expireIfDue(Instant now) {
        if (status == SandboxTradeStatus.WAIT_BUYER_PAY && !now.isBefore(expiresAt)) {
            closeBecause("expired unpaid");
        }
    }

    private void closeBecause(String reason) {
        status = SandboxTradeStatus.TRADE_CLOSED;
        closeReason = reason;
    }

    /** Alipay's trade numbers: the day, "22001", then digits; 28 in all. */
    private static String newTradeNo(Instant now) {
        StringBuilder no = new StringBuilder(TRADE_NO_DAY.format(now.atZone(AlipayTime.CHINA))).append("22001");
        while (no.length() < 28) {
            no.append(RANDOM.nextInt(10));
        }
        return no.toString();
    }

    private static String randomLowerAlnum(int length) {
        String alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
        StringBuilder text = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            text.append(alphabet.charAt(RANDOM.nextInt(alphabet.length())));
        }
        return text.toString();
    }
}
