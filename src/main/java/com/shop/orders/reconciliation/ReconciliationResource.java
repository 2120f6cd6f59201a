package com.shop.orders.reconciliation;

import java.time.Clock;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.List;

import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.ExampleObject;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import com.shop.orders.member.Roles;
import com.shop.orders.payment.PaymentChannels;
import com.shop.orders.web.ApiContract;
import com.shop.orders.web.Problem;
import com.shop.orders.web.ProblemException;

import io.smallrye.mutiny.Uni;

@Path("/api/admin/reconciliations")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.ADMIN)
@Tag(name = ApiContract.ADMIN)
@SecurityRequirement(name = ApiContract.BEARER)
@APIResponse(responseCode = "401", ref = ApiContract.UNAUTHORIZED)
@APIResponse(responseCode = "403", ref = ApiContract.FORBIDDEN)
@APIResponse(responseCode = "500", ref = ApiContract.INTERNAL_ERROR)
@APIResponse(responseCode = "503", ref = ApiContract.SERVICE_UNAVAILABLE)
public class ReconciliationResource {

    private static final String REPORT_EXAMPLE = """
            {"run":{"billDate":"2026-12-01","channel":"alipay","status":"DONE","attempts":1,"nextAttemptAt":"2026-12-02T01:30:00Z",\
            "startedAt":"2026-12-02T01:30:02Z","finishedAt":"2026-12-02T01:30:04Z","lastError":null,\
            "billPayments":1520,"billRefunds":12,"differences":1},"differences":[{"id":7,"billDate":"2026-12-01","channel":"alipay",\
            "kind":"PAID_NOT_RECORDED","outTradeNo":"O20261201103000123456","orderId":1051,\
            "tradeNo":"2026120122001456780012345678","billAmount":59.00,"recordedAmount":null,\
            "detail":"paid at the wallet at 2026-12-01T02:31:07Z, the order is PENDING_PAYMENT here",\
            "foundAt":"2026-12-02T01:30:03Z","settlement":"CONFIRMED_PAID","settledAt":"2026-12-02T01:30:04Z",\
            "note":"confirmed by the wallet's trade query: the order is PAID (PAID_NOW)"}]}""";
    private static final String FAILED_EXAMPLE = """
            {"run":{"billDate":"2026-12-01","channel":"wechat","status":"FAILED","attempts":2,"nextAttemptAt":"2026-12-02T02:10:00Z",\
            "startedAt":"2026-12-02T01:50:00Z","finishedAt":"2026-12-02T01:50:01Z",\
            "lastError":"WeChat Pay has not published the trade bill of 2026-12-01 yet","billPayments":null,\
            "billRefunds":null,"differences":null},"differences":[]}""";
    private static final String DIFFERENCE_EXAMPLE = """
            {"id":8,"billDate":"2026-12-01","channel":"alipay","kind":"AMOUNT_MISMATCH","outTradeNo":"O20261201104500654321",\
            "orderId":1090,"tradeNo":"2026120122001456780087654321","billAmount":0.01,"recordedAmount":59.00,\
            "detail":"the bill's payment is 0.01, the order's total is 59.00","foundAt":"2026-12-02T01:30:03Z",\
            "settlement":"RESOLVED","settledAt":"2026-12-02T03:00:00Z","note":"changed in the merchant console; refunded by hand"}""";

    private final Reconciliation reconciliation;
    private final PaymentChannels channels;
    private final ReconciliationConfig config;
    private final Clock clock;

    public ReconciliationResource(Reconciliation reconciliation, PaymentChannels channels, ReconciliationConfig config,
            Clock clock) {
        this.reconciliation = reconciliation;
        this.channels = channels;
        this.config = config;
        this.clock = clock;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(operationId = "runReconciliation",
            summary = "Reconcile a day against a channel's trade bill, now", description = "Admins only. Downloads "
            + "the day's trade bill (China time) of the channel named (alipay or wechat, one of the shop's channels; "
            + "none: the default channel, alipay when configured), matches every payment and refund of the channel's "
            + "trades both ways, stores each difference once and settles what the payment paths can settle: a payment "
            + "the wallet has and the order does not is confirmed (the order becomes PAID) or, for a closed order, "
            + "refunded; a refund the wallet made that was not recorded (the merchant console) is recorded once the "
            + "wallet's refund query confirms it. A rerun of a day adds and settles nothing twice. The answer is the "
            + "day's reconciliation of that channel: status DONE, or FAILED with lastError (a bill not published yet, "
            + "not usable, the wallet unreachable) and the time of the next try. The job reconciles every channel by "
            + "itself.")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = RunRequest.class),
            examples = { @ExampleObject(name = "yesterday", value = "{\"billDate\":\"2026-12-01\"}"),
                    @ExampleObject(name = "wechat", value = "{\"billDate\":\"2026-12-01\",\"channel\":\"wechat\"}") }))
    @APIResponse(responseCode = "200", description = "The day's reconciliation after this run",
            content = @Content(mediaType = MediaType.APPLICATION_JSON,
                    schema = @Schema(implementation = ReconciliationReport.class),
                    examples = { @ExampleObject(name = "done", value = REPORT_EXAMPLE),
                            @ExampleObject(name = "notPublished", value = FAILED_EXAMPLE) }))
    @APIResponse(responseCode = "400", ref = ApiContract.BAD_REQUEST)
    @APIResponse(responseCode = "409", description = "Another instance is reconciling this day's bill of the channel",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(ref = ApiContract.PROBLEM),
                    examples = @ExampleObject(name = "running", value = """
                            {"type":"about:blank","title":"Reconciliation running","status":409,\
                            "detail":"The reconciliation of 2026-12-01 (wechat) is running on another instance; its \
                            result will be shown here when it is done","instance":"/api/admin/reconciliations",\
                            "billDate":"2026-12-01","channel":"wechat"}""")))
    @APIResponse(responseCode = "413", ref = ApiContract.PAYLOAD_TOO_LARGE)
    @APIResponse(responseCode = "415", ref = ApiContract.UNSUPPORTED_MEDIA_TYPE)
    public Uni<ReconciliationReport> run(@Valid @NotNull RunRequest request) {
        LocalDate date = billDate("billDate", request.billDate());
        if (date.isAfter(LocalDate.ofInstant(clock.instant(), config.zone()))) {
            throw ProblemException.invalid("billDate", "must not be in the future (the wallets' day, "
                    + config.zone() + ")");
        }
        return reconciliation.runNow(date, channel(request.channel()));
    }

    @GET
    @Path("/{billDate}")
    @Operation(operationId = "getReconciliation",
            summary = "A day's reconciliation of a channel", description = "Admins only. Its state and every "
            + "difference found, settled or not.")
    @APIResponse(responseCode = "200", description = "The day's reconciliation",
            content = @Content(mediaType = MediaType.APPLICATION_JSON,
                    schema = @Schema(implementation = ReconciliationReport.class),
                    examples = @ExampleObject(name = "done", value = REPORT_EXAMPLE)))
    @APIResponse(responseCode = "400", ref = ApiContract.BAD_REQUEST)
    @APIResponse(responseCode = "404", description = "The day was never reconciled",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(ref = ApiContract.PROBLEM),
                    examples = @ExampleObject(name = "notReconciled", value = """
                            {"type":"about:blank","title":"Not reconciled","status":404,\
                            "detail":"2026-12-01 has not been reconciled against the alipay bill","instance":"/api/admin/reconciliations/2026-12-01"}""")))
    public Uni<ReconciliationReport> report(@Parameter(description = "The wallets' day, yyyy-MM-dd", example = "2026-12-01")
            @PathParam("billDate") String billDate,
            @Parameter(description = "The channel whose bill: alipay or wechat; default: the default channel (alipay "
                    + "when configured)", example = "wechat") @QueryParam("channel") String channel) {
        LocalDate date = billDate("billDate", billDate);
        String named = channel(channel);
        return reconciliation.report(date, named).onItem().ifNull().failWith(() -> new ProblemException(404,
                "Not reconciled", date + " has not been reconciled against the " + named + " bill"));
    }

    @GET
    @Path("/differences")
    @Operation(operationId = "listUnsettledDifferences",
            summary = "Differences that wait for someone", description = "Admins only. Every unsettled difference "
            + "of every day, oldest day first (at most 500).")
    @APIResponse(responseCode = "200", description = "The unsettled differences",
            content = @Content(mediaType = MediaType.APPLICATION_JSON,
                    schema = @Schema(implementation = Difference.class, type = SchemaType.ARRAY),
                    examples = @ExampleObject(name = "open", value = "[" + """
                            {"id":9,"billDate":"2026-12-01","channel":"wechat","kind":"UNKNOWN_TRADE","outTradeNo":"X20261201000001",\
                            "orderId":null,"tradeNo":"2026120122001456780011112222","billAmount":12.00,\
                            "recordedAmount":null,"detail":"no order X20261201000001 was created by this service",\
                            "foundAt":"2026-12-02T01:30:03Z","settlement":null,"settledAt":null,"note":null}""" + "]")))
    public Uni<List<Difference>> open() {
        return reconciliation.open(500);
    }

    @POST
    @Path("/differences/{id}/resolution")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(operationId = "resolveDifference",
            summary = "Settle a flagged difference by hand", description = "Admins only. Records what was done "
            + "about it; it then no longer counts as waiting (metric reconciliation_differences_unsettled).")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = ResolutionRequest.class),
            examples = @ExampleObject(name = "resolved", value = "{\"note\":\"changed in the merchant console; refunded by hand\"}")))
    @APIResponse(responseCode = "200", description = "The difference, settled",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = Difference.class),
                    examples = @ExampleObject(name = "resolved", value = DIFFERENCE_EXAMPLE)))
    @APIResponse(responseCode = "400", ref = ApiContract.BAD_REQUEST)
    @APIResponse(responseCode = "404", ref = ApiContract.NOT_FOUND)
    @APIResponse(responseCode = "409", description = "The difference is settled already",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(ref = ApiContract.PROBLEM),
                    examples = @ExampleObject(name = "settled", value = """
                            {"type":"about:blank","title":"Difference settled already","status":409,\
                            "detail":"Difference 7 was settled (CONFIRMED_PAID) at 2026-12-02T01:30:04Z",\
                            "instance":"/api/admin/reconciliations/differences/7/resolution","settlement":"CONFIRMED_PAID"}""")))
    @APIResponse(responseCode = "413", ref = ApiContract.PAYLOAD_TOO_LARGE)
    @APIResponse(responseCode = "415", ref = ApiContract.UNSUPPORTED_MEDIA_TYPE)
    public Uni<Difference> resolve(@Parameter(description = "The difference's id", example = "8") @PathParam("id") long id,
            @Valid @NotNull ResolutionRequest request) {
        return reconciliation.resolve(id, request.note().strip());
    }

    /** The channel named, one that is reconciled; none: the default channel. */
    private String channel(String name) {
        if (name == null) {
            return channels.defaultChannel();
        }
        if (!reconciliation.channels().contains(name)) {
            throw ProblemException.invalid("channel", "must be one of " + reconciliation.channels());
        }
        return name;
    }

    private static LocalDate billDate(String field, String text) {
        try {
            return LocalDate.parse(text);
        } catch (DateTimeParseException | NullPointerException e) {
            throw ProblemException.invalid(field, "must be a date like 2026-12-01");
        }
    }
}
