package com.acme.events;

final class Format {
    static String upper(String s) {
        return s.toUpperCase();
    }
}
