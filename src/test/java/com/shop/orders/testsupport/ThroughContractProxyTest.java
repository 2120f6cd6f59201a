package com.shop.orders.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** What the contract proxy's filter sends through Prism, and how it writes down Prism's verdict. */
class ThroughContractProxyTest {

    private static final String FORM = "application/x-www-form-urlencoded; charset=utf-8";

    @Test
    void bodiesPrismCannotParseGoDirect() {
        assertTrue(ThroughContractProxy.prismCanRead("application/json", "{\"items\":[]}"));
        assertTrue(ThroughContractProxy.prismCanRead("application/json", "{\"items\":[]}".getBytes(StandardCharsets.UTF_8)));
        assertFalse(ThroughContractProxy.prismCanRead("application/json", "{\"buckets\": "));
        assertFalse(ThroughContractProxy.prismCanRead("application/json", "{} x"));
        // A body RestAssured serialises itself, and none.
        assertTrue(ThroughContractProxy.prismCanRead("application/json", Map.of("amount", 1)));
        assertTrue(ThroughContractProxy.prismCanRead(null, null));

        assertTrue(ThroughContractProxy.prismCanRead(FORM, "out_trade_no=1%0A2&subject=%E8%AE%A2%E5%8D%95+1"));
        assertTrue(ThroughContractProxy.prismCanRead(FORM, "=&="));
        for (String broken : List.of("%%%", "a=%zz", "out_trade_no=%E9%", "a=%E9", "a=%")) {
            assertFalse(ThroughContractProxy.prismCanRead(FORM, broken), broken);
        }
        // Other media types Prism reads as text.
        assertTrue(ThroughContractProxy.prismCanRead("text/plain", "%%%"));
    }

    @Test
    void eachViolationPrismNamesIsALine() {
        String header = """
                [{"location":["response","body","name"],"severity":"Error","code":"type",\
                "message":"Response body property name must be string"},\
                {"location":["request"],"severity":"Error","code":401,"message":"Invalid security\\nscheme used"}]""";

        assertEquals(List.of(
                "GET /api/skus/{id}\t200\tresponse.body.name\tError\tResponse body property name must be string",
                "GET /api/skus/{id}\t200\trequest\tError\tInvalid security scheme used"),
                ThroughContractProxy.lines("GET /api/skus/{id}\t200", header));
        // Past 8 KB Prism cuts the header short: one line, as sent.
        assertEquals(List.of("GET /api/skus\t200\t?\tError\tToo many violations! [{\"location\""),
                ThroughContractProxy.lines("GET /api/skus\t200", "Too many violations! [{\"location\""));
    }
}
