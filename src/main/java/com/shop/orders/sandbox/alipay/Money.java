package com.shop.orders.sandbox.alipay;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Optional;

/** Yuan amounts as Alipay writes them: plain decimals with at most two fraction digits. */
final class Money {

    static final BigDecimal ZERO = new BigDecimal("0.00");
    private static final BigDecimal MIN = new BigDecimal("0.01");
    private static final BigDecimal MAX = new BigDecimal("100000000");

    private Money() {
    }

    /** Empty unless the text is an amount Alipay accepts: 0.01 to 100000000, at most two decimals. */
    static Optional<BigDecimal> parse(String text) {
        if (text == null || !text.matches("\\d+(\\.\\d{1,2})?")) {
            return Optional.empty();
        }
        BigDecimal amount = new BigDecimal(text).setScale(2, RoundingMode.UNNECESSARY);
        return amount.compareTo(MIN) < 0 || amount.compareTo(MAX) > 0 ? Optional.empty() : Optional.of(amount);
    }

    static String format(BigDecimal amount) {
        return amount.setScale(2, RoundingMode.UNNECESSARY).toPlainString();
    }
}
