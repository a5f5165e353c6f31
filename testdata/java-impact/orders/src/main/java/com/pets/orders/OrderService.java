package com.pets.orders;

public interface OrderService {
    long generateOrder(OrderParam param);

    void cancel(long id);
}
