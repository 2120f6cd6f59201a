package com.shop.orders.order;

import java.util.List;

public record OrderPage(int page, int size, long total, List<OrderView> items) {
}
