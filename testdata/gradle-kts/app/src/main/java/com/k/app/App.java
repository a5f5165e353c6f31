package com.k.app;

import com.k.core.Engine;

public class App {
    public static void main(String[] args) {
        new Engine().start();
    }
}
