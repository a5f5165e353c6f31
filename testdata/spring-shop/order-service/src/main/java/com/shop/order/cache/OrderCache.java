package com.shop.order.cache;

import com.shop.order.service.OrderService;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Profile;
import org.springframework.stereotype.Service;

@Service
@Profile("!test")
@ConditionalOnProperty(prefix = "shop.cache", name = "enabled", havingValue = "true")
public class OrderCache {
    private final OrderService orders;

    public OrderCache(OrderService orders) {
        this.orders = orders;
    }
}
