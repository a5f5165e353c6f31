package com.shop.order.jobs;

import com.shop.order.config.PriceCalculator;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.ApplicationContext;
import org.springframework.context.event.EventListener;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

@Component
public class OrderJobs {
    private static final String TOPIC = "orders";

    @Value("${redis.key.orderId:order}")
    private String orderKey;

    @Value("${shop.missing.key:${shop.order.timeout-seconds}}")
    private String fallback;

    private PriceCalculator prices;

    @Autowired
    public void setPrices(PriceCalculator prices) {
        this.prices = prices;
    }

    @Scheduled(cron = "0 0 2 * * *")
    public void purge() {
    }

    @KafkaListener(topics = {TOPIC, "refunds"})
    public void onOrder(String message) {
    }

    @Autowired
    private ApplicationContext context;

    @EventListener
    public void onStart(Object event) {
        String port = context.getEnvironment().getProperty("server.port");
    }
}
