package com.acme.api;

public interface OrderApi {
    String place(String item);
}
