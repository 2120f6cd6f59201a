package com.shop.orders.testsupport;

import java.net.URI;

import io.quarkus.test.junit.callback.QuarkusTestBeforeEachCallback;
import io.quarkus.test.junit.callback.QuarkusTestMethodContext;
import io.restassured.RestAssured;

/**
 * Installs OpenApiCheckedAnswers as a global RestAssured filter before each @QuarkusTest method (registered in
 * META-INF/services), so that no API test can forget it, and after it ThroughContractProxy when
 * {@code -Dapi-contract.proxy} names a contract proxy. Before each method rather than once: Quarkus's test
 * classes of another profile run in a class loader of their own, with a RestAssured of their own.
 */
public final class OpenApiCheckedTests implements QuarkusTestBeforeEachCallback {

    @Override
    public void beforeEach(QuarkusTestMethodContext context) {
        if (RestAssured.filters().stream().noneMatch(OpenApiCheckedAnswers.class::isInstance)) {
            RestAssured.filters(new OpenApiCheckedAnswers());
            // After the check: it reads the service's origin before the proxy takes the request.
            String proxy = System.getProperty(ThroughContractProxy.PROXY, "");
            if (!proxy.isBlank()) {
                RestAssured.filters(new ThroughContractProxy(URI.create(proxy)));
            }
        }
    }
}
