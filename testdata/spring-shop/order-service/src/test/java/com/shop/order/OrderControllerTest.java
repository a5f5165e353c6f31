package com.shop.order;

import com.shop.order.web.OrderController;
import org.junit.jupiter.api.Test;

class OrderControllerTest {
    @Test
    void creates() {
        new OrderController(null).ping();
    }
}
