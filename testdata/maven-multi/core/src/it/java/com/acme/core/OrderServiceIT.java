package com.acme.core;

import org.junit.jupiter.api.Test;

class OrderServiceIT {
    @Test
    void places() {
        new OrderService().place("book");
    }
}
