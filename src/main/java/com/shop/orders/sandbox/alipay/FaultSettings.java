package com.shop.orders.sandbox.alipay;

import com.shop.orders.sandbox.FaultDurations;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The JSON form of the fault knobs. On PUT only the fields present change; durations read like config
 * ("1500ms", "5s", "PT5S"); a method mapped to null is cleared. Example:
 * {"dropNotifies":true,"duplicateNotifies":false,"latency":"200ms","methods":{"alipay.trade.query":{"code":"20000",
 * "msg":"Service Currently Unavailable","subCode":"ACQ.SYSTEM_ERROR","subMsg":"系统繁忙","times":2}}}
 * A refund that happens unheard: {"methods":{"alipay.trade.refund":{"httpStatus":504,"afterEffect":true,"times":1}}}.
 * Certificate mode: {"alipayCertificate":"reissued"} (issued, reissued, foreign), {"appCertificateRenewed":true}.
 * The trade bill: {"bill":{...}} (see {@link BillFaults}), replacing the bill's knobs set before.
 */
public record FaultSettings(Boolean dropNotifies, Boolean duplicateNotifies, String notifyDelay, String latency,
                            Map<String, Method> methods,
                            String alipayCertificate, Boolean appCertificateRenewed, BillFaults bill) {

    /**
     * One method's fault: an Alipay error (subCode, with code defaulting to 40004), an HTTP error status
     * (httpStatus), or a held-back answer (noAnswerFor); afterEffect (default false) answers the error or
     * status after the method ran; times limits it to the next calls.
     */
    public record Method(String code, String msg, String subCode, String subMsg, Integer httpStatus,
                         String noAnswerFor, Boolean afterEffect, Integer times) {

        MethodFault toFault() {
            MethodFault fault = kindOfFault();
            return Boolean.TRUE.equals(afterEffect) ? fault.withAfterEffect() : fault;
        }

        private MethodFault kindOfFault() {
            int kinds = (subCode != null ? 1 : 0) + (httpStatus != null ? 1 : 0) + (noAnswerFor != null ? 1 : 0);
            if (kinds != 1) {
                throw new IllegalArgumentException("give exactly one of subCode, httpStatus, noAnswerFor");
            }
            if (httpStatus != null) {
                return MethodFault.httpStatus(httpStatus);
            }
            if (noAnswerFor != null) {
                return MethodFault.noAnswerFor(FaultDurations.parse(noAnswerFor));
            }
            return MethodFault.alipayError(code != null ? code : "40004", msg != null ? msg : "Business Failed",
                    subCode, subMsg != null ? subMsg : subCode);
        }

        static Method of(MethodFault fault, int remaining) {
            Integer times = remaining < 0 ? null : remaining;
            String held = fault.noAnswerFor() == null ? null : fault.noAnswerFor().toString();
            Integer status = fault.kind() == MethodFault.Kind.HTTP_STATUS ? fault.httpStatus() : null;
            return new Method(fault.code(), fault.msg(), fault.subCode(), fault.subMsg(), status, held,
                    fault.afterEffect(), times);
        }
    }

    /** Validates everything first, so a bad body changes nothing. */
    void applyTo(SandboxFaults faults) {
        Duration newNotifyDelay = notifyDelay == null ? null : FaultDurations.parse(notifyDelay);
        Duration newLatency = latency == null ? null : FaultDurations.parse(latency);
        SandboxFaults.AlipayCertificate certificate = alipayCertificate == null ? null : certificate(alipayCertificate);
        BillFaults billFaults = bill == null ? null : bill.validated();
        Map<String, MethodFault> armed = new LinkedHashMap<>();
        if (methods != null) {
            methods.forEach((method, settings) -> {
                if (settings != null && settings.times() != null && settings.times() < 1) {
                    throw new IllegalArgumentException("times must be at least 1");
                }
                armed.put(method, settings == null ? null : settings.toFault());
            });
        }
        faults.change(dropNotifies, duplicateNotifies, newNotifyDelay, newLatency);
        if (certificate != null) {
            faults.alipayCertificate(certificate);
        }
        if (appCertificateRenewed != null) {
            faults.appCertificateRenewed(appCertificateRenewed);
        }
        if (billFaults != null) {
            faults.bill(billFaults);
        }
        armed.forEach((method, fault) -> {
            Integer times = methods.get(method) == null ? null : methods.get(method).times();
            if (fault == null) {
                faults.clear(method);
            } else if (times == null) {
                faults.fail(method, fault);
            } else {
                faults.fail(method, fault, times);
            }
        });
    }

    static FaultSettings of(SandboxFaults faults) {
        Map<String, Method> methods = new LinkedHashMap<>();
        faults.methodFaults().forEach((method, fault) -> methods.put(method, Method.of(fault, faults.remainingFaults(method))));
        return new FaultSettings(faults.notifiesDropped(), faults.notifiesDuplicated(), faults.notifyDelay().toString(),
                faults.latency().toString(), methods,
                faults.alipayCertificate().name().toLowerCase(Locale.ROOT), faults.appCertificateRenewed(), faults.bill());
    }

    private static SandboxFaults.AlipayCertificate certificate(String name) {
        try {
            return SandboxFaults.AlipayCertificate.valueOf(name.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("alipayCertificate is one of issued, reissued, foreign: " + name);
        }
    }
}
