package com.k.core;

import org.junit.jupiter.api.Test;

class EngineTest {
    @Test
    void startsTrimmed() {
        new Engine().start();
    }
}
