package com.shop.orders.ops;

import static com.shop.orders.testsupport.Management.management;
import static com.shop.orders.testsupport.Members.as;
import static com.shop.orders.testsupport.Members.newMemberToken;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import com.shop.orders.testsupport.Payments;
import com.shop.orders.testsupport.TestDb;

import io.quarkus.test.junit.QuarkusTest;

/**
 * The dashboard and the alert rules read only metrics the service exports: a renamed or missing metric would
 * leave a panel empty and an alert silent, which nobody notices until it matters.
 */
@QuarkusTest
class MonitoredMetricsTest {

    /** Series Prometheus records for every target itself. */
    private static final Set<String> PROMETHEUS_OWN = Set.of("up");
    private static final Pattern QUANTILE_ABOVE = Pattern.compile("histogram_quantile\\(.*\\)\\s*>\\s*([0-9.]+)\\s*",
            Pattern.DOTALL);
    private static final Pattern LE = Pattern.compile("le=\"([^\"]+)\"");

    private static String exposition;

    @Test
    void everyMetricOfTheDashboardIsExported() {
        Set<String> exported = exportedSampleNames();
        List<String> missing = new ArrayList<>();
        for (String query : Monitoring.dashboardQueries()) {
            PromQl.metricNames(Monitoring.expression(query)).stream()
                    .filter(name -> !exported.contains(name) && !PROMETHEUS_OWN.contains(name)
                            && !Monitoring.CERTIFICATE_MODE_ONLY.contains(name))
                    .forEach(name -> missing.add(name + " (panel " + Monitoring.panel(query) + ")"));
        }
        for (String query : Monitoring.dashboardVariableQueries()) {
            PromQl.metricNamesOfVariableQuery(query).stream()
                    .filter(name -> !exported.contains(name))
                    .forEach(name -> missing.add(name + " (variable query " + query + ")"));
        }
        assertEquals(List.of(), missing);
    }

    @Test
    void everyMetricOfTheAlertRulesIsExported() {
        Set<String> exported = exportedSampleNames();
        List<String> missing = new ArrayList<>();
        Map<String, String> rules = Monitoring.ruleExpressions();
        assertFalse(rules.isEmpty());
        rules.forEach((alert, expression) -> PromQl.metricNames(expression).stream()
                .filter(name -> !exported.contains(name) && !PROMETHEUS_OWN.contains(name)
                        && !Monitoring.CERTIFICATE_MODE_ONLY.contains(name))
                .forEach(name -> missing.add(name + " (alert " + alert + ")")));
        assertEquals(List.of(), missing);
    }

    @Test
    void quantileAlertBoundsLieWithinTheirHistogramsBuckets() {
        String metrics = exposition();
        int checked = 0;
        for (Map.Entry<String, String> rule : Monitoring.ruleExpressions().entrySet()) {
            Matcher quantile = QUANTILE_ABOVE.matcher(rule.getValue());
            if (!quantile.matches()) {
                continue;
            }
            double bound = Double.parseDouble(quantile.group(1));
            for (String histogram : PromQl.metricNames(rule.getValue())) {
                // A quantile is never above the highest finite bucket: a bound beyond it can never be crossed.
                double highest = highestFiniteBucket(metrics, histogram);
                assertTrue(bound < highest, rule.getKey() + ": bound " + bound + " s, but " + histogram
                        + " ends at " + highest + " s");
                checked++;
            }
        }
        assertTrue(checked > 0, "no histogram_quantile(...) > bound among the rules");
    }

    /**
     * The exposition after a little traffic: an order cancelled after asking for a WeChat Pay code, one paid through
     * the Alipay sandbox.
     */
    private static synchronized String exposition() {
        if (exposition == null) {
            long sku = TestDb.newSku(10, "3.50");
            String member = newMemberToken();
            int cancelled = Payments.placeOrder(member, sku, 1);
            Payments.requestQr(member, cancelled, "wechat");
            as(member).post("/api/orders/" + cancelled + "/cancel").then().statusCode(200);
            int paid = Payments.placeOrder(member, sku, 2);
            Payments.pay(Payments.requestQr(member, paid));
            TestDb.awaitOrderStatus(paid, "PAID", Duration.ofSeconds(15));
            exposition = management().get("/q/metrics").then().statusCode(200).extract().asString();
        }
        return exposition;
    }

    private static Set<String> exportedSampleNames() {
        return Monitoring.sampleNames(exposition());
    }

    private static double highestFiniteBucket(String metrics, String bucketSeries) {
        return metrics.lines()
                .filter(line -> line.startsWith(bucketSeries + "{"))
                .map(LE::matcher)
                .filter(Matcher::find)
                .map(le -> le.group(1))
                .filter(le -> !le.equals("+Inf"))
                .mapToDouble(Double::parseDouble)
                .max()
                .orElseThrow(() -> new AssertionError("no buckets of " + bucketSeries));
    }
}
