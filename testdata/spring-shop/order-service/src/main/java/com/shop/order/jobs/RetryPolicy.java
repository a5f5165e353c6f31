package com.shop.order.jobs;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

@Component
public class RetryPolicy {
    private final int retries;

    public RetryPolicy(@Value("${shop.order.retries:3}") int retries) {
        this.retries = retries;
    }
}
