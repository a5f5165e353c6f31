package com.shop.order.service;

public interface OrderService {
    String create(String item);

    String find(long id);

    void cancel(String id);
}
