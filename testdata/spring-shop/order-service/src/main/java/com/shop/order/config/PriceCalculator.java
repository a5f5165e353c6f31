package com.shop.order.config;

import com.shop.order.service.OrderService;
import org.springframework.core.env.Environment;

/** Not a component: ShopConfig#priceCalculator declares it as a bean. */
public class PriceCalculator {
    private final OrderService orders;
    private final Environment env;

    public PriceCalculator(OrderService orders, Environment env) {
        this.orders = orders;
        this.env = env;
    }

    /** Reads keys by name: through the environment, and a JVM property that is no key. */
    public String currency() {
        String home = System.getProperty("user.home");
        int timeout = Integer.parseInt(env.getProperty("shop.order.timeout-seconds", "30"));
        return env.getRequiredProperty("shop.order.currencies[0]") + timeout + home;
    }
}
