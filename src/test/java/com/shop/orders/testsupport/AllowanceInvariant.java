package com.shop.orders.testsupport;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The purchase limits' invariant, read in one statement (one consistent snapshot): for each member, the row of
 * their unpaid orders equals their PENDING_PAYMENT orders, and each SKU's row the units of it in their
 * PENDING_PAYMENT, PAID and REFUNDED orders less the units succeeded refunds returned to stock (a missing row counts as 0, and no row holds units of orders that are not there).
 */
public final class AllowanceInvariant {

    private static final String MISMATCHES = """
            SELECT CONCAT(t.member_id, ' / ', IF(t.sku_id = 0, 'unpaid orders', CONCAT('SKU ', t.sku_id)),
                          ': held ', COALESCE(a.used, 0), ', in orders ', t.n)
            FROM (SELECT member_id, 0 AS sku_id, SUM(status = 'PENDING_PAYMENT') AS n FROM orders
                  WHERE ? IS NULL OR member_id = ? GROUP BY member_id
                  UNION ALL
                  SELECT o.member_id, i.sku_id, SUM(IF(o.status IN ('PENDING_PAYMENT', 'PAID', 'REFUNDED'), i.quantity, 0))
                    - COALESCE((SELECT SUM(l.quantity) FROM refund r JOIN refund_restock l ON l.refund_id = r.id
                                JOIN orders ro ON ro.id = r.order_id
                                WHERE ro.member_id = o.member_id AND l.sku_id = i.sku_id AND r.status = 'SUCCEEDED'), 0)
                  FROM orders o JOIN order_item i ON i.order_id = o.id
                  WHERE ? IS NULL OR o.member_id = ? GROUP BY o.member_id, i.sku_id) t
            LEFT JOIN purchase_allowance a ON a.member_id = t.member_id AND a.sku_id = t.sku_id
            WHERE COALESCE(a.used, 0) <> t.n
            UNION ALL
            SELECT CONCAT(a.member_id, ' / ', a.sku_id, ': held ', a.used, ', no such orders')
            FROM purchase_allowance a
            WHERE (? IS NULL OR a.member_id = ?) AND a.used <> 0 AND NOT EXISTS (
                SELECT 1 FROM orders o WHERE o.member_id = a.member_id AND (a.sku_id = 0
                    OR EXISTS (SELECT 1 FROM order_item i WHERE i.order_id = o.id AND i.sku_id = a.sku_id)))""";

    private AllowanceInvariant() {
    }

    /** Every mismatch, for one member or (null) all of them; empty when the invariant holds. */
    public static List<String> violations(Connection connection, String memberId) {
        try (PreparedStatement st = connection.prepareStatement(MISMATCHES)) {
            for (int i = 1; i <= 6; i++) {
                st.setString(i, memberId);
            }
            List<String> violations = new ArrayList<>();
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    violations.add(rs.getString(1));
                }
            }
            return violations;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
