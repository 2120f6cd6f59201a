package com.shop.orders.sandbox.wechat;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import com.shop.orders.sandbox.FaultDurations;

/**
 * The JSON form of the WeChat sandbox's fault knobs, shaped as the Alipay sandbox's where a knob applies to both. On
 * PUT only the fields present change; a method mapped to null is cleared; "*" is any API without a fault of its
 * own. Example: {"dropNotifies":true,
 * "methods":{"query":{"httpStatus":500,"times":2}}}; a close that happens unheard:
 * {"methods":{"close":{"httpStatus":504,"afterEffect":true,"times":1}}}; a merchant account short of money:
 * {"methods":{"refund":{"httpStatus":403,"code":"NOT_ENOUGH","message":"余额不足"}}}; answers WeChat's SDK refuses:
 * {"timestampSkew":"301s"} or {"wrongSerial":true}; a merchant without platform certificates:
 * {"certificates":"not-found"} (or "served"); notifies for a merchant verifying with the certificate:
 * {"notifiesSignedWith":"certificate"} (or "public-key"); the next two refunds end ABNORMAL (a person resolves them
 * at POST /sandbox/wechat/merchant/refund/resolve): {"abnormalRefunds":2}; refunds of a trade allowed back to back:
 * {"refundInterval":"0s"}; a trade bill not made yet: {"bill":{"late":true}}, or tampered with:
 * {"bill":{"damage":"wrong-hash"}} ({@link WechatBillFaults}; a bill given replaces the one before).
 */
public record WechatFaultSettings(Boolean dropNotifies, Boolean duplicateNotifies, String notifyDelay, String latency,
        String timestampSkew, Boolean wrongSerial, String certificates, String notifiesSignedWith,
        Integer abnormalRefunds, String refundInterval, Map<String, Method> methods, WechatBillFaults bill) {

    /** The APIs a fault can be set on. */
    static final Set<String> METHODS = Set.of(WechatGateway.PREPAY, WechatGateway.QUERY, WechatGateway.CLOSE,
            WechatRefunds.REFUND, WechatRefunds.REFUND_QUERY, WechatCertificates.CERTIFICATES,
            WechatTradeBills.TRADE_BILL);
    private static final String NOT_FOUND = "not-found";
    private static final String SERVED = "served";

    /**
     * One API's fault: an HTTP status (4xx or 5xx) with WeChat's code and message (defaults by status), or an answer
     * held back (noAnswerFor) after the call took effect; afterEffect answers the status after the call took effect;
     * times limits it to the next calls. The same fields as the Alipay sandbox's, with WeChat's code and message.
     */
    public record Method(Integer httpStatus, String code, String message, String noAnswerFor, Boolean afterEffect,
            Integer times) {

        WechatFaults.Fault toFault() {
            if ((httpStatus == null) == (noAnswerFor == null)) {
                throw new IllegalArgumentException("give exactly one of httpStatus, noAnswerFor");
            }
            if (httpStatus != null && (httpStatus < 400 || httpStatus > 599)) {
                throw new IllegalArgumentException("httpStatus must be 4xx or 5xx");
            }
            if (noAnswerFor != null && Boolean.TRUE.equals(afterEffect)) {
                throw new IllegalArgumentException("a held-back answer always comes after the effect");
            }
            if (times != null && times < 1) {
                throw new IllegalArgumentException("times must be at least 1");
            }
            Duration held = noAnswerFor == null ? null : FaultDurations.parse(noAnswerFor);
            String errorCode = httpStatus == null ? null : code != null ? code : defaultCode(httpStatus);
            return new WechatFaults.Fault(httpStatus, errorCode, httpStatus == null ? null
                    : message != null ? message : errorCode, held, Boolean.TRUE.equals(afterEffect));
        }

        static Method of(WechatFaults.Armed armed) {
            WechatFaults.Fault fault = armed.fault();
            return new Method(fault.httpStatus(), fault.code(), fault.message(),
                    fault.noAnswerFor() == null ? null : fault.noAnswerFor().toString(), fault.afterEffect(),
                    armed.remaining() < 0 ? null : armed.remaining());
        }

        private static String defaultCode(int status) {
            return switch (status) {
                case 401 -> "SIGN_ERROR";
                case 403 -> "NO_AUTH";
                case 404 -> "RESOURCE_NOT_EXISTS";
                case 429 -> "FREQUENCY_LIMITED";
                case 500 -> "SYSTEM_ERROR";
                default -> status >= 500 ? "SERVICE_UNAVAILABLE" : "PARAM_ERROR";
            };
        }
    }

    static WechatFaultSettings of(WechatFaults faults) {
        Map<String, Method> methods = new LinkedHashMap<>();
        faults.armed().forEach((method, armed) -> methods.put(method, Method.of(armed)));
        return new WechatFaultSettings(faults.notifiesDropped(), faults.notifiesDuplicated(),
                faults.notifyDelay().toString(), faults.latency().toString(), faults.timestampSkew().toString(),
                faults.wrongSerial(), faults.certificatesNotFound() ? NOT_FOUND : SERVED,
                faults.notifiesSignedWith().name().toLowerCase(Locale.ROOT).replace('_', '-'), faults.abnormalRefunds(),
                faults.refundInterval().map(Duration::toString).orElse(null), methods, faults.bill());
    }

    /** Validates everything first, so a bad body changes nothing. */
    void applyTo(WechatFaults faults) {
        Duration newNotifyDelay = notifyDelay == null ? null : FaultDurations.parse(notifyDelay);
        Duration newLatency = latency == null ? null : FaultDurations.parse(latency);
        Duration newSkew = timestampSkew == null ? null : FaultDurations.parse(timestampSkew);
        Boolean noCertificates = certificates == null ? null : certificatesNotFound(certificates);
        WechatSandboxConfig.SignedWith signing = notifiesSignedWith == null ? null : signedWith(notifiesSignedWith);
        WechatBillFaults newBill = bill == null ? null : bill.validated();
        Duration newRefundInterval = refundInterval == null ? null : FaultDurations.parse(refundInterval);
        if (abnormalRefunds != null && abnormalRefunds < 0) {
            throw new IllegalArgumentException("abnormalRefunds must be 0 or more");
        }
        Map<String, WechatFaults.Fault> armed = new LinkedHashMap<>();
        if (methods != null) {
            methods.forEach((method, settings) -> {
                if (!METHODS.contains(method) && !WechatFaults.ANY_METHOD.equals(method)) {
                    throw new IllegalArgumentException("unknown method " + method + ": one of " + METHODS + " or "
                            + WechatFaults.ANY_METHOD);
                }
                armed.put(method, settings == null ? null : settings.toFault());
            });
        }
        faults.change(dropNotifies, duplicateNotifies, newNotifyDelay, newLatency);
        if (newSkew != null) {
            faults.skewTimestamps(newSkew);
        }
        if (wrongSerial != null) {
            faults.wrongSerial(wrongSerial);
        }
        if (noCertificates != null) {
            faults.certificatesNotFound(noCertificates);
        }
        if (signing != null) {
            faults.notifiesSignedWith(signing);
        }
        if (newBill != null) {
            faults.bill(newBill);
        }
        if (abnormalRefunds != null) {
            faults.abnormalRefunds(abnormalRefunds);
        }
        if (newRefundInterval != null) {
            faults.refundInterval(newRefundInterval);
        }
        armed.forEach((method, fault) -> {
            if (fault == null) {
                faults.clear(method);
            } else {
                faults.arm(method, fault, methods.get(method).times());
            }
        });
    }

    private static boolean certificatesNotFound(String text) {
        return switch (text.trim()) {
            case NOT_FOUND -> true;
            case SERVED -> false;
            default -> throw new IllegalArgumentException("certificates is one of served, not-found: " + text);
        };
    }

    private static WechatSandboxConfig.SignedWith signedWith(String text) {
        try {
            return WechatSandboxConfig.SignedWith.valueOf(text.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("notifiesSignedWith is one of public-key, certificate: " + text);
        }
    }
}
