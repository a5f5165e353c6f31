package com.acme.events;

import org.junit.jupiter.api.Test;

class BusTest {
    @Test
    void starts() {
        new Bus().start();
    }
}
