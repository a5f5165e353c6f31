package com.shop.tools;

import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/** Outside com.shop.order: the application's component scan never finds it. */
@Component
public class AuditJob {
    @Scheduled(fixedRate = 60000)
    public void audit() {
    }
}
