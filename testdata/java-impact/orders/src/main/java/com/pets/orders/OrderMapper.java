package com.pets.orders;

public interface OrderMapper {
    int insert(OrderParam param);
}
