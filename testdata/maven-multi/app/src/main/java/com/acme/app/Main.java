package com.acme.app;

import com.acme.web.OrderController;

public class Main {
    public static void main(String[] args) {
        System.out.println(new OrderController().post("book"));
    }
}
