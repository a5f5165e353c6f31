package com.shop.order.config;

import com.shop.order.service.OrderService;

/** Not a component: ShopConfig#priceCalculator declares it as a bean. */
public class PriceCalculator {
    private final OrderService orders;

    public PriceCalculator(OrderService orders) {
        this.orders = orders;
    }
}
