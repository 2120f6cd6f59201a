package com.shop.orders.sandbox;

import java.util.function.Consumer;
import java.util.function.Supplier;

import jakarta.ws.rs.core.Response;

/** A PUT of a sandbox's fault knobs, alike for both wallets: the whole body validated before any knob changes. */
public final class FaultKnobChange {

    private FaultKnobChange() {
    }

    /** 400 for no body or a knob out of range (nothing changed), else the body applied and every knob answered. */
    public static <S> Response apply(S settings, Consumer<S> applyTo, Supplier<S> current) {
        if (settings == null) {
            return ErrorAnswer.of(Response.Status.BAD_REQUEST, "a JSON body is required");
        }
        try {
            applyTo.accept(settings);
        } catch (IllegalArgumentException e) {
            return ErrorAnswer.of(Response.Status.BAD_REQUEST, e.getMessage());
        }
        return Response.ok(current.get()).build();
    }
}
