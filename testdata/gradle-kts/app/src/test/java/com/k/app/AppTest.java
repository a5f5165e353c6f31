package com.k.app;

import com.k.core.Engine;
import com.k.util.Strings;
import org.junit.jupiter.api.Test;

class AppTest {
    @Test
    void starts() {
        new Engine().start();
        Strings.trim(" x ");
    }
}
