package com.shop.order.config;

import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

@ConfigurationProperties(prefix = "shop.order")
public class OrderProperties {
    private int timeoutSeconds;
    private List<String> currencies;
}
