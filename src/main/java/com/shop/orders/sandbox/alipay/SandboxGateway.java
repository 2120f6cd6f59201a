package com.shop.orders.sandbox.alipay;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.shop.orders.payment.alipay.SignMode;
import io.quarkus.arc.profile.IfBuildProfile;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Alipay's openapi gateway: checks the system parameters and the merchant's signature, applies the
 * armed faults, runs the method and signs the answer with Alipay's key. Pure in-memory work plus two
 * RSA operations, so it can run on the event loop.
 *
 * <p>For an app in certificate mode it also checks {@code app_cert_sn} (the application certificate "Alipay"
 * issued) and {@code alipay_root_cert_sn} (its root) on each request, answers with {@code alipay_cert_sn} (the
 * certificate it signs under, which the fault knobs can change) and serves the certificate download.
 */
@ApplicationScoped
@IfBuildProfile(anyOf = {"dev", "test"})
public class SandboxGateway {

    private static final Set<String> NOT_SIGNED = Set.of("sign");

    /** Its own mapper: the wire format must not follow the application's Jackson customizations. */
    private final ObjectMapper json = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    private final SandboxKeys keys;
    private final SandboxTrades trades;
    private final TradeMethods methods;
    private final SandboxFaults faults;
    private final SandboxConfig config;
    private final TradeBills bills;
    private final String appId;
    private final boolean certificateMode;

    public SandboxGateway(SandboxKeys keys, SandboxTrades trades, TradeMethods methods, SandboxFaults faults,
                         SandboxConfig config, TradeBills bills,
                         @ConfigProperty(name = "shop.alipay.app-id", defaultValue = "2021000000000001") String appId,
                         @ConfigProperty(name = "shop.alipay.sign-mode", defaultValue = "public-key") SignMode signMode) {
        this.keys = keys;
        this.trades = trades;
        this.methods = methods;
        this.faults = faults;
        this.config = config;
        this.bills = bills;
        this.appId = appId;
        this.certificateMode = signMode == SignMode.CERTIFICATE;
    }

    /**
     * @param rawQuery the query string as received, still URL-encoded; @param body the form body bytes;
     * @param baseUrl where this sandbox is reached ({@code …/sandbox/alipay}), for the links it hands out
     */
    GatewayReply handle(String rawQuery, byte[] body, String baseUrl) {
        Instant now = Instant.now();
        Duration latency = faults.latency();
        String charsetName = Optional.ofNullable(FormEncoding.rawValue(rawQuery, "charset"))
                .orElseGet(() -> FormEncoding.rawValue(new String(body, StandardCharsets.ISO_8859_1), "charset"));
        Charset charset = charsetNamed(charsetName);
        if (charset == null) {
            return signed(null, AlipayAnswers.invalidArgument("isv.invalid-charset", "字符集错误"),
                    StandardCharsets.UTF_8, "RSA2", latency);
        }
        Map<String, String> params = new LinkedHashMap<>();
        try {
            FormEncoding.decodeInto(rawQuery, charset, params);
            FormEncoding.decodeInto(new String(body, charset), charset, params);
        } catch (IllegalArgumentException e) {
            return signed(null, AlipayAnswers.invalidArgument("isv.invalid-parameter", "参数无效: 请求编码错误"),
                    charset, "RSA2", latency);
        }
        String method = params.get("method");
        String answerSignType = AlipaySigning.supports(params.get("sign_type")) ? params.get("sign_type") : "RSA2";
        Map<String, Object> refusal = protocolRefusal(params, charset, now);
        if (refusal != null) {
            return signed(served(method) ? method : null, refusal, charset, answerSignType, latency);
        }

        GatewayCall call;
        try {
            call = new GatewayCall(method, params, bizContent(params.get("biz_content")), now);
        } catch (TradeRejected rejected) {
            trades.countCall(method, null);
            return signed(method, AlipayAnswers.businessFailed(rejected), charset, answerSignType, latency);
        }
        String outTradeNo = methods.outTradeNoOf(call).orElse(null);
        trades.countCall(method, outTradeNo);

        MethodFault fault = faults.takeFault(method, outTradeNo).orElse(null);
        if (fault != null && !fault.letsTheCallThrough()) {
            return faulted(fault, method, charset, answerSignType, latency);
        }
        Map<String, Object> node;
        try {
            node = switch (method) {
                case SandboxCertificates.DOWNLOAD_METHOD -> certificateDownload(call);
                case TradeBills.METHOD -> bills.downloadUrl(call, baseUrl);
                default -> methods.answer(call);
            };
        } catch (TradeRejected rejected) {
            node = AlipayAnswers.businessFailed(rejected);
        }
        if (fault != null && fault.afterEffect()) {
            // the trade has changed (or refused to), but the merchant hears only the fault
            return faulted(fault, method, charset, answerSignType, latency);
        }
        Duration delay = fault == null ? latency : latency.plus(fault.noAnswerFor());
        return signed(method, node, charset, answerSignType, delay);
    }

    /** An Alipay error or HTTP status fault's answer, given instead of the method's. */
    private GatewayReply faulted(MethodFault fault, String method, Charset charset, String signType, Duration latency) {
        if (fault.kind() == MethodFault.Kind.HTTP_STATUS) {
            String page = "<html><body><h1>" + fault.httpStatus() + "</h1></body></html>";
            return new GatewayReply(fault.httpStatus(), "text/html;charset=utf-8", page.getBytes(StandardCharsets.UTF_8), latency);
        }
        return signed(method, AlipayAnswers.error(fault.code(), fault.msg(), fault.subCode(), fault.subMsg()),
                charset, signType, latency);
    }

    /** Alipay's checks of the system parameters, in its order; null when the call may proceed. */
    private Map<String, Object> protocolRefusal(Map<String, String> params, Charset charset, Instant now) {
        String method = params.get("method");
        if (isEmpty(method)) {
            return AlipayAnswers.missingArgument("isv.missing-method", "缺少方法名参数");
        }
        if (!served(method)) {
            return AlipayAnswers.invalidArgument("isv.invalid-method", "不存在的方法名");
        }
        if (isEmpty(params.get("app_id"))) {
            return AlipayAnswers.missingArgument("isv.missing-app-id", "缺少AppID参数");
        }
        if (!appId.equals(params.get("app_id"))) {
            return AlipayAnswers.invalidArgument("isv.invalid-app-id", "无效的AppID参数");
        }
        if (isEmpty(params.get("version"))) {
            return AlipayAnswers.missingArgument("isv.missing-version", "缺少版本参数");
        }
        if (params.containsKey("format") && !"json".equalsIgnoreCase(params.get("format"))) {
            return AlipayAnswers.invalidArgument("isv.invalid-format", "无效的数据格式");
        }
        String timestamp = params.get("timestamp");
        if (isEmpty(timestamp)) {
            return AlipayAnswers.missingArgument("isv.missing-timestamp", "缺少时间戳参数");
        }
        Optional<Instant> sentAt = AlipayTime.parse(timestamp);
        if (sentAt.isEmpty() || Duration.between(sentAt.get(), now).abs().compareTo(config.maxTimestampSkew()) > 0) {
            return AlipayAnswers.invalidArgument("isv.invalid-timestamp", "非法的时间戳参数");
        }
        if (isEmpty(params.get("sign_type"))) {
            return AlipayAnswers.missingArgument("isv.missing-signature-type", "缺少签名类型参数");
        }
        if (!AlipaySigning.supports(params.get("sign_type"))) {
            return AlipayAnswers.invalidArgument("isv.invalid-signature-type", "无效的签名类型参数");
        }
        if (isEmpty(params.get("sign"))) {
            return AlipayAnswers.missingArgument("isv.missing-signature", "缺少签名参数");
        }
        if (certificateMode) {
            Map<String, Object> certificateRefusal = certificateRefusal(params);
            if (certificateRefusal != null) {
                return certificateRefusal;
            }
        }
        String content = AlipaySigning.contentToSign(params, NOT_SIGNED);
        if (!AlipaySigning.verify(content, params.get("sign"), keys.merchantVerificationKey(), params.get("sign_type"), charset)) {
            // like Alipay, show the string the gateway checked so a merchant can compare it with its own
            return AlipayAnswers.invalidArgument("isv.invalid-signature",
                    "验签出错，建议检查签名字符串或签名私钥与应用公钥是否匹配，网关生成的验签字符串为：" + content);
        }
        return null;
    }

    /**
     * A certificate-mode app names the application certificate it signs under and the root it trusts; both must
     * be the ones "Alipay" holds (a root SN may list several roots, joined by '_').
     */
    private Map<String, Object> certificateRefusal(Map<String, String> params) {
        SandboxCertificates certificates = keys.certificates();
        String appCertSn = params.get("app_cert_sn");
        if (isEmpty(appCertSn)) {
            return AlipayAnswers.missingArgument("isv.missing-app-cert-sn", "缺少应用公钥证书序列号");
        }
        if (!certificates.expectedAppSn(faults.appCertificateRenewed()).equals(appCertSn)) {
            return AlipayAnswers.invalidArgument("isv.app-cert-sn-not-match", "应用公钥证书序列号不匹配");
        }
        String rootCertSn = params.get("alipay_root_cert_sn");
        if (isEmpty(rootCertSn)) {
            return AlipayAnswers.missingArgument("isv.missing-alipay-root-cert-sn", "缺少支付宝根证书序列号");
        }
        if (!Set.of(rootCertSn.split("_")).contains(certificates.rootSn())) {
            return AlipayAnswers.invalidArgument("isv.alipay-root-cert-sn-not-match", "支付宝根证书序列号不匹配");
        }
        return null;
    }

    private Map<String, Object> certificateDownload(GatewayCall call) {
        String sn = call.required("alipay_cert_sn", 64);
        return keys.certificates().download(sn)
                .map(content -> AlipayAnswers.success("alipay_cert_content", content))
                .orElseThrow(() -> new TradeRejected("isv.alipay-cert-not-exist", "支付宝公钥证书不存在"));
    }

    private static boolean served(String method) {
        return TradeMethods.METHODS.contains(method) || SandboxCertificates.DOWNLOAD_METHOD.equals(method)
                || TradeBills.METHOD.equals(method);
    }

    private JsonNode bizContent(String text) {
        if (isEmpty(text)) {
            return json.createObjectNode();
        }
        try {
            JsonNode biz = json.readTree(text);
            if (biz == null || !biz.isObject()) {
                throw TradeRejected.invalidParameter("biz_content must be a JSON object");
            }
            return biz;
        } catch (JsonProcessingException e) {
            throw TradeRejected.invalidParameter("biz_content is not JSON");
        }
    }

    /**
     * {"<method>_response":{...},"sign":"..."} with the signature over the exact node text written here;
     * answers to no known method use Alipay's "error_response" node. In certificate mode
     * {"<method>_response":{...},"alipay_cert_sn":"...","sign":"..."}, signed with that certificate's key.
     */
    private GatewayReply signed(String method, Map<String, Object> node, Charset charset, String signType, Duration delay) {
        String root = method == null ? "error_response" : method.replace('.', '_') + "_response";
        String nodeText;
        try {
            nodeText = json.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("an answer node is plain strings", e);
        }
        SandboxFaults.AlipayCertificate under = certificateMode ? faults.alipayCertificate() : SandboxFaults.AlipayCertificate.ISSUED;
        String sign = AlipaySigning.sign(nodeText, keys.certificates().signingKey(under), signType, charset);
        String certificate = certificateMode
                ? ",\"alipay_cert_sn\":\"" + SandboxCertificates.sn(keys.certificates().answeringCertificate(under)) + "\""
                : "";
        String body = "{\"" + root + "\":" + nodeText + certificate + ",\"sign\":\"" + sign + "\"}";
        return new GatewayReply(200, "application/json;charset=" + charset.name().toLowerCase(), body.getBytes(charset), delay);
    }

    private static Charset charsetNamed(String name) {
        if (name == null || name.isEmpty()) {
            return StandardCharsets.UTF_8;
        }
        try {
            return Charset.forName(name);
        } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
            return null;
        }
    }

    private static boolean isEmpty(String value) {
        return value == null || value.isEmpty();
    }
}
