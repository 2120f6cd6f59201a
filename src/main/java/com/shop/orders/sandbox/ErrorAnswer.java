package com.shop.orders.sandbox;

import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Map;

/** The sandbox endpoints' refusals: {"error": reason} with the status. */
public final class ErrorAnswer {

    private ErrorAnswer() {
    }

    public static Response of(Response.Status status, String reason) {
        return Response.status(status).entity(Map.of("error", reason)).type(MediaType.APPLICATION_JSON).build();
    }
}
