package com.shop.orders.sandbox.wechat;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;

import com.shop.orders.sandbox.SharedFaultKnobs;

import io.quarkus.arc.profile.IfBuildProfile;

/**
 * The WeChat sandbox's fault knobs: notifies lost, late or sent twice, or signed under the other key, answers late,
 * signed with a timestamp out of WeChat's five minutes or under a serial the merchant does not know, no platform
 * certificate to download, the trade bill's knobs ({@link WechatBillFaults}), and per API an error answer or no answer,
 * before or after the call took effect, for the next few calls or until cleared.
 */
@ApplicationScoped
@IfBuildProfile(anyOf = {"dev", "test"})
public class WechatFaults implements SharedFaultKnobs {

    /** API name that makes a fault apply to every API without one of its own, as in the Alipay sandbox. */
    public static final String ANY_METHOD = "*";

    /**
     * One API's fault: an HTTP status with WeChat's {code, message}, or an answer held back for a while (the call
     * takes effect first); afterEffect answers the status after the call took effect.
     */
    public record Fault(Integer httpStatus, String code, String message, Duration noAnswerFor, boolean afterEffect) {

        /** Whether the call runs before the answer: a held-back answer, or a status after the effect. */
        boolean letsTheCallThrough() {
            return noAnswerFor != null || afterEffect;
        }
    }

    /** An armed fault and the calls it has left (-1: until cleared). */
    record Armed(Fault fault, int remaining) {
    }

    private volatile boolean dropNotifies;
    private volatile boolean duplicateNotifies;
    private volatile Duration notifyDelay = Duration.ZERO;
    private volatile Duration latency = Duration.ZERO;
    private volatile Duration timestampSkew = Duration.ZERO;
    private volatile boolean wrongSerial;
    private volatile boolean certificatesNotFound;
    private volatile WechatSandboxConfig.SignedWith notifiesSignedWith;
    private volatile WechatBillFaults bill = WechatBillFaults.NONE;
    private final AtomicInteger abnormalRefunds = new AtomicInteger();
    /** Null: the configured shop.wechat-sandbox.refund-interval. */
    private volatile Duration refundInterval;
    private final WechatSandboxConfig.SignedWith configuredSigning;
    /** By API, or by API and number ("refund\nR1") for the faults of one trade or refund. */
    private final Map<String, Armed> methods = new ConcurrentHashMap<>();

    public WechatFaults(WechatSandboxConfig config) {
        this.configuredSigning = config.notifiesSignedWith();
        this.notifiesSignedWith = configuredSigning;
    }

    /**
     * The fault this call gets, counted against its times: one armed for its number (out_trade_no, out_refund_no)
     * first, then the API's own, then one for any API.
     */
    Optional<Fault> take(String method, String number) {
        return take(method + '\n' + number).or(() -> take(method)).or(() -> take(ANY_METHOD));
    }

    private Optional<Fault> take(String key) {
        Armed[] taken = new Armed[1];
        methods.computeIfPresent(key, (k, armed) -> {
            taken[0] = armed;
            return armed.remaining() == 1 ? null : new Armed(armed.fault(), Math.max(-1, armed.remaining() - 1));
        });
        return Optional.ofNullable(taken[0]).map(Armed::fault);
    }

    /**
     * @param method an API, or {@link #ANY_METHOD}
     * @param times the next calls it applies to; null: until cleared
     */
    public void arm(String method, Fault fault, Integer times) {
        methods.put(method, armed(fault, times));
    }

    /** Only the next {@code times} calls of the API about this number (out_trade_no, out_refund_no) get the fault. */
    public void armFor(String number, String method, Fault fault, int times) {
        methods.put(method + '\n' + number, armed(fault, times));
    }

    private static Armed armed(Fault fault, Integer times) {
        if (times != null && times < 1) {
            throw new IllegalArgumentException("times must be at least 1");
        }
        return new Armed(fault, times == null ? -1 : times);
    }

    public void clear(String method) {
        methods.remove(method);
    }

    public void reset() {
        dropNotifies = false;
        duplicateNotifies = false;
        notifyDelay = Duration.ZERO;
        latency = Duration.ZERO;
        timestampSkew = Duration.ZERO;
        wrongSerial = false;
        certificatesNotFound = false;
        notifiesSignedWith = configuredSigning;
        bill = WechatBillFaults.NONE;
        abnormalRefunds.set(0);
        refundInterval = null;
        methods.clear();
    }

    /** The armed faults for display, by API ("refund R1" for one armed for a number), sorted. */
    Map<String, Armed> armed() {
        Map<String, Armed> armed = new TreeMap<>();
        methods.forEach((key, fault) -> armed.put(key.replace('\n', ' '), fault));
        return armed;
    }

    public boolean notifiesDropped() {
        return dropNotifies;
    }

    public void dropNotifies(boolean drop) {
        dropNotifies = drop;
    }

    public boolean notifiesDuplicated() {
        return duplicateNotifies;
    }

    public void duplicateNotifies(boolean duplicate) {
        duplicateNotifies = duplicate;
    }

    public Duration notifyDelay() {
        return notifyDelay;
    }

    public void delayNotifies(Duration delay) {
        notifyDelay = delay;
    }

    public Duration latency() {
        return latency;
    }

    public void latency(Duration delay) {
        latency = delay;
    }

    /** Added to the timestamp of every signed answer and notify (WeChat's SDK refuses 5 minutes or more). */
    public Duration timestampSkew() {
        return timestampSkew;
    }

    public void skewTimestamps(Duration skew) {
        timestampSkew = skew;
    }

    /** Answers and notifies name a serial that is not the merchant's configured public-key ID. */
    public boolean wrongSerial() {
        return wrongSerial;
    }

    public void wrongSerial(boolean wrong) {
        wrongSerial = wrong;
    }

    /** GET /v3/certificates answers 404 RESOURCE_NOT_EXISTS, as for merchants WeChat moved to the public key. */
    public boolean certificatesNotFound() {
        return certificatesNotFound;
    }

    public void certificatesNotFound(boolean notFound) {
        certificatesNotFound = notFound;
    }

    /** What notifies are signed under; the configured shop.wechat-sandbox.notifies-signed-with after a reset. */
    public WechatSandboxConfig.SignedWith notifiesSignedWith() {
        return notifiesSignedWith;
    }

    /** The next {@code count} refunds made end ABNORMAL instead of SUCCESS (0: none). */
    public void abnormalRefunds(int count) {
        if (count < 0) {
            throw new IllegalArgumentException("abnormalRefunds must be 0 or more");
        }
        abnormalRefunds.set(count);
    }

    /** Refunds still to end ABNORMAL. */
    public int abnormalRefunds() {
        return abnormalRefunds.get();
    }

    /** Whether the refund just made ends ABNORMAL (counted against the knob). */
    boolean takeAbnormalRefund() {
        return abnormalRefunds.getAndUpdate(left -> Math.max(0, left - 1)) > 0;
    }

    /** The least time between two refunds of a trade, instead of the configured one until the knobs are reset. */
    public void refundInterval(Duration interval) {
        refundInterval = interval;
    }

    /** The least time between two refunds of a trade, when a knob overrides the configured one. */
    Optional<Duration> refundInterval() {
        return Optional.ofNullable(refundInterval);
    }

    public void notifiesSignedWith(WechatSandboxConfig.SignedWith signedWith) {
        notifiesSignedWith = Objects.requireNonNull(signedWith);
    }

    /** The trade bill's knobs, replacing the ones set before. */
    public void bill(WechatBillFaults faults) {
        bill = faults.validated();
    }

    public WechatBillFaults bill() {
        return bill;
    }
}
