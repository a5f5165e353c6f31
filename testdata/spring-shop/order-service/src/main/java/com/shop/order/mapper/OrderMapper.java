package com.shop.order.mapper;

/** A MyBatis mapper: a bean through ShopConfig's @MapperScan. */
public interface OrderMapper {
    int insert(String item);
}
