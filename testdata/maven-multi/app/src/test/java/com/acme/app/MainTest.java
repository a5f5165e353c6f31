package com.acme.app;

import com.acme.core.OrderService;
import org.junit.jupiter.api.Test;

class MainTest {
    @Test
    void runs() {
        Main.main(new String[0]);
        new OrderService().place("pen");
    }
}
