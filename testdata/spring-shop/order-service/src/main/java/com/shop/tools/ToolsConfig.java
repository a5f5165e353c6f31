package com.shop.tools;

import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.Scheduled;

/** Outside com.shop.order too, but the application imports it. */
@Configuration
public class ToolsConfig {
    @Scheduled(cron = "0 0 * * * *")
    public void heartbeat() {
    }
}
