package com.shop.order.service;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.annotation.Profile;
import org.springframework.stereotype.Service;

@Service
@Qualifier("legacy")
@Profile("legacy")
public class LegacyOrderService implements OrderService {
    public String create(String item) {
        return item;
    }

    public String find(long id) {
        return "";
    }

    public void cancel(String id) {
    }
}
