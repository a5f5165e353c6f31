package com.shop.order.jobs;

import org.springframework.scheduling.annotation.Scheduled;

// Retired: no longer a component, so Spring never schedules it.
//@Component
public class LegacyCleanupJob {
    @Scheduled(cron = "${shop.cleanup.cron:0 0 3 * * *}")
    public void purge() {
    }
}
