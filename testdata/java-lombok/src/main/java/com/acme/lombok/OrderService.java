package com.acme.lombok;

import java.util.List;

public class OrderService {
    public Long discountOf(Order order) {
        Order copy = Order.builder().id(order.getId()).discountId(order.getDiscountId()).build();
        copy.setDiscountId(null);
        if (order.isPaid()) {
            order.getItems().get(0).getSku();
        }
        Order empty = new Order(1L, List.of());
        return empty.getDiscountId();
    }
}
