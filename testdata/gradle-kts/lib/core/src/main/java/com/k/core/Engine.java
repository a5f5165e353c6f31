package com.k.core;

import com.k.util.Strings;

public class Engine {
    public String start() {
        return Strings.trim(" started ");
    }
}
