package com.shop.order.service;

import com.shop.order.config.PriceCalculator;
import lombok.RequiredArgsConstructor;

@DomainService
@RequiredArgsConstructor
public class RefundService {
    private final OrderService orders;
    private final PriceCalculator prices;

    public void refund(String id) {
        orders.cancel(id);
    }
}
