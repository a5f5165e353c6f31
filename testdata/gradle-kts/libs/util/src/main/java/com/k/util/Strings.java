package com.k.util;

public final class Strings {
    public static String trim(String s) {
        return s.trim();
    }
}
