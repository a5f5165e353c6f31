package com.shop.order.service;

import com.shop.order.config.PriceCalculator;
import lombok.RequiredArgsConstructor;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;

@DomainService
@RequiredArgsConstructor
public class RefundService {
    private final OrderService orders;
    private final PriceCalculator prices;

    @Autowired
    @Qualifier("legacy")
    private OrderService legacyOrders;

    public void refund(String id) {
        orders.cancel(id);
    }
}
