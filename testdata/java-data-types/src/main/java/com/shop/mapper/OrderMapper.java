package com.shop.mapper;

import com.shop.model.Order;

public interface OrderMapper {
    int insert(Order order);
}
