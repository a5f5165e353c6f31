package com.shop.order.jobs;

import org.springframework.context.event.EventListener;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

@Component
public class OrderJobs {
    private static final String TOPIC = "orders";

    @Scheduled(cron = "0 0 2 * * *")
    public void purge() {
    }

    @KafkaListener(topics = {TOPIC, "refunds"})
    public void onOrder(String message) {
    }

    @EventListener
    public void onStart(Object event) {
    }
}
