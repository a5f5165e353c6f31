package com.shop.order.config;

import com.shop.order.service.OrderService;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.mybatis.spring.annotation.MapperScan;

@Configuration
@MapperScan("com.shop.order.mapper")
public class ShopConfig {
    @Bean
    public PriceCalculator priceCalculator(OrderService orders, Environment env) {
        return new PriceCalculator(orders, env);
    }
}
