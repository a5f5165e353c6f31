package com.acme.tools;

public class Report {
    public static void log(String line) {
        System.err.println(line);
    }
}
