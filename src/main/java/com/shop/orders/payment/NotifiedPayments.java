package com.shop.orders.payment;

import jakarta.enterprise.context.ApplicationScoped;

import com.shop.orders.order.OrderRepository;
import com.shop.orders.tracing.Spans;
import com.shop.orders.tracing.TraceContexts;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;

/**
 * A payment a wallet's verified notify reported, confirmed as a query's is ({@link PaymentConfirmation}). No wallet's
 * notify carries trace context: the payment is recorded in a span that continues the trace that placed the order (the
 * checkout it completes), linked to the notify's own request.
 */
@ApplicationScoped
public class NotifiedPayments {

    private final PaymentConfirmation confirmation;
    private final OrderRepository orders;
    private final Spans spans;

    public NotifiedPayments(PaymentConfirmation confirmation, OrderRepository orders, Spans spans) {
        this.confirmation = confirmation;
        this.orders = orders;
        this.spans = spans;
    }

    /** {@code orderNo}: the order the trade belongs to, as the wallet's trade number names it. */
    public Uni<PaymentConfirmation.Outcome> confirm(PaidTrade trade, String orderNo) {
        return Panache.withSession(() -> orders.traceParentOf(orderNo))
                .chain(placedIn -> {
                    Span span = spans.startContinuing("payment confirm", SpanKind.INTERNAL,
                            TraceContexts.parse(placedIn));
                    span.setAttribute(Spans.ORDER_NO, orderNo);
                    return spans.within(span, () -> confirmation.confirm(trade, PaymentConfirmation.Source.NOTIFY));
                });
    }
}
