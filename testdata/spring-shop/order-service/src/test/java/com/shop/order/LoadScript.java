package com.shop.order;

public class LoadScript {
    public static void main(String[] args) {
    }
}
