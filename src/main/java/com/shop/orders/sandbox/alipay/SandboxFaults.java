package com.shop.orders.sandbox.alipay;

import com.shop.orders.sandbox.SharedFaultKnobs;
import io.quarkus.arc.profile.IfBuildProfile;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;

/** Knobs that make the sandbox misbehave the ways Alipay can; all off until set, {@link #reset()} turns them off. */
@ApplicationScoped
@IfBuildProfile(anyOf = {"dev", "test"})
public class SandboxFaults implements SharedFaultKnobs {

    /** Method name that makes a fault apply to every gateway method without one of its own. */
    public static final String ANY_METHOD = "*";

    private record Armed(MethodFault fault, AtomicInteger remaining) {
    }

    /** Which certificate Alipay answers under in certificate mode. */
    public enum AlipayCertificate {
        /** The one the merchant downloaded and configured. */
        ISSUED,
        /** Re-issued for the same key (new serial, new SN), as Alipay does before the old one expires. */
        REISSUED,
        /** One of a CA that is not the merchant's root: an impostor, or a root the merchant has not updated. */
        FOREIGN
    }

    private volatile boolean dropNotifies;
    private volatile boolean duplicateNotifies;
    private volatile Duration notifyDelay = Duration.ZERO;
    private volatile Duration latency = Duration.ZERO;
    private final ConcurrentMap<String, Armed> byMethod = new ConcurrentHashMap<>();
    private volatile AlipayCertificate alipayCertificate = AlipayCertificate.ISSUED;
    private volatile boolean appCertificateRenewed;
    private volatile BillFaults bill = BillFaults.NONE;

    /** While set, no notify is sent, not even a retry of an earlier one. */
    public void dropNotifies(boolean drop) {
        this.dropNotifies = drop;
    }

    public boolean notifiesDropped() {
        return dropNotifies;
    }

    /** While set, every notify attempt is sent twice, as Alipay sometimes does; the merchant must take it once. */
    public void duplicateNotifies(boolean duplicate) {
        this.duplicateNotifies = duplicate;
    }

    public boolean notifiesDuplicated() {
        return duplicateNotifies;
    }

    /** Extra wait before the first notify attempt of each payment. */
    public void delayNotifies(Duration delay) {
        this.notifyDelay = nonNegative(delay);
    }

    public Duration notifyDelay() {
        return notifyDelay;
    }

    /** Added to every gateway answer, without holding a thread. */
    public void latency(Duration latency) {
        this.latency = nonNegative(latency);
    }

    public Duration latency() {
        return latency;
    }

    /** Certificate mode: answers (and notifies) come under this certificate, signed with its key. */
    public void alipayCertificate(AlipayCertificate which) {
        this.alipayCertificate = Objects.requireNonNull(which);
    }

    public AlipayCertificate alipayCertificate() {
        return alipayCertificate;
    }

    /**
     * Certificate mode: while set, "Alipay" holds a renewed application certificate that the merchant has not
     * deployed, so requests carrying the deployed one's SN are refused.
     */
    public void appCertificateRenewed(boolean renewed) {
        this.appCertificateRenewed = renewed;
    }

    public boolean appCertificateRenewed() {
        return appCertificateRenewed;
    }

    /** The trade bill's knobs, replacing the ones set before. */
    public void bill(BillFaults faults) {
        this.bill = faults.validated();
    }

    public BillFaults bill() {
        return bill;
    }

    /** Every call of the method (or {@link #ANY_METHOD}) gets the fault until cleared. */
    public void fail(String method, MethodFault fault) {
        byMethod.put(method, new Armed(fault, null));
    }

    /** Only the next {@code times} calls of the method get the fault; later ones are answered normally. */
    public void fail(String method, MethodFault fault, int times) {
        if (times < 1) {
            throw new IllegalArgumentException("times must be at least 1");
        }
        byMethod.put(method, new Armed(fault, new AtomicInteger(times)));
    }

    /** Only the next {@code times} calls of the method about this one trade get the fault. */
    public void failFor(String outTradeNo, String method, MethodFault fault, int times) {
        if (times < 1) {
            throw new IllegalArgumentException("times must be at least 1");
        }
        byMethod.put(method + '\n' + outTradeNo, new Armed(fault, new AtomicInteger(times)));
    }

    public void clear(String method) {
        byMethod.remove(method);
    }

    /** The armed faults by method, for display. */
    public Map<String, MethodFault> methodFaults() {
        Map<String, MethodFault> faults = new TreeMap<>();
        byMethod.forEach((method, armed) -> faults.put(method.replace('\n', ' '), armed.fault()));
        return faults;
    }

    /** Calls still to be faulted for the method, -1 for every call, 0 when none is armed. */
    public int remainingFaults(String method) {
        Armed armed = byMethod.get(method);
        return armed == null ? 0 : armed.remaining() == null ? -1 : Math.max(0, armed.remaining().get());
    }

    public void reset() {
        dropNotifies = false;
        duplicateNotifies = false;
        notifyDelay = Duration.ZERO;
        latency = Duration.ZERO;
        byMethod.clear();
        alipayCertificate = AlipayCertificate.ISSUED;
        appCertificateRenewed = false;
        bill = BillFaults.NONE;
    }

    /** The fault this call of the method gets, if any (one for its trade first); consumes one of a limited fault's calls. */
    Optional<MethodFault> takeFault(String method, String outTradeNo) {
        Optional<MethodFault> forTrade = outTradeNo == null ? Optional.empty() : take(method + '\n' + outTradeNo);
        if (forTrade.isPresent()) {
            return forTrade;
        }
        Optional<MethodFault> own = take(method);
        return own.isPresent() ? own : take(ANY_METHOD);
    }

    private Optional<MethodFault> take(String method) {
        Armed armed = method == null ? null : byMethod.get(method);
        if (armed == null) {
            return Optional.empty();
        }
        if (armed.remaining() == null) {
            return Optional.of(armed.fault());
        }
        int left = armed.remaining().decrementAndGet();
        if (left <= 0) {
            byMethod.remove(method, armed);
        }
        return left >= 0 ? Optional.of(armed.fault()) : Optional.empty();
    }

    private static Duration nonNegative(Duration duration) {
        if (duration == null || duration.isNegative()) {
            throw new IllegalArgumentException("a delay is zero or more");
        }
        return duration;
    }
}
