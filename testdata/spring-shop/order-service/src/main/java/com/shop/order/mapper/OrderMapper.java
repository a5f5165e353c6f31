package com.shop.order.mapper;

/** A MyBatis mapper: a bean through ShopConfig's @MapperScan. */
public interface OrderMapper {
    int insert(String item);

    java.util.List<com.shop.common.Money> findAll();

    @org.apache.ibatis.annotations.Select("select count(*) from orders")
    int count();
}
