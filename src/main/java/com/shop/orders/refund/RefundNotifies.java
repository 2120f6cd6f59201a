package com.shop.orders.refund;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import com.shop.orders.payment.NotifiedRefunds;
import com.shop.orders.payment.RefundNotice;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;

/**
 * Refund notifies, once their wallet's package verified them: a refund of ours (by its request number), on its trade
 * and for its amount, is recorded as the notify says, through the same conditional updates as every other answer, so
 * that a duplicate, or a notify that comes after the query found the outcome, changes nothing.
 */
@ApplicationScoped
public class RefundNotifies implements NotifiedRefunds {

    private static final Logger LOG = Logger.getLogger(RefundNotifies.class);

    private final RefundRepository refunds;
    private final RefundOutcomes outcomes;

    public RefundNotifies(RefundRepository refunds, RefundOutcomes outcomes) {
        this.refunds = refunds;
        this.outcomes = outcomes;
    }

    @Override
    public Uni<Outcome> take(RefundNotice notice) {
        return Panache.withSession(() -> refunds.findByRequestNo(notice.refundNo()))
                .chain(refund -> refund == null ? Uni.createFrom().item(Outcome.UNKNOWN_REFUND)
                        : !matches(refund, notice) ? mismatch(refund, notice)
                        : record(refund, notice).replaceWith(Outcome.RECORDED));
    }

    private static boolean matches(Refund refund, RefundNotice notice) {
        return refund.outTradeNo.equals(notice.outTradeNo()) && refund.amount.compareTo(notice.amount()) == 0;
    }

    private static Uni<Outcome> mismatch(Refund refund, RefundNotice notice) {
        LOG.warnf("A refund notify names refund %s of trade %s for %s; recorded: trade %s, %s", notice.refundNo(),
                notice.outTradeNo(), notice.amount(), refund.outTradeNo, refund.amount);
        return Uni.createFrom().item(Outcome.MISMATCH);
    }

    private Uni<Void> record(Refund refund, RefundNotice notice) {
        return switch (notice.finding()) {
            case MADE -> outcomes.made(refund.id);
            case CLOSED -> outcomes.refused(refund, RefundOutcomes.CLOSED);
            case ABNORMAL -> outcomes.abnormal(refund, RefundOutcomes.ABNORMAL_REASON);
            // A notify never says this: nothing to record.
            case NOT_TAKEN -> Uni.createFrom().voidItem();
        };
    }
}
