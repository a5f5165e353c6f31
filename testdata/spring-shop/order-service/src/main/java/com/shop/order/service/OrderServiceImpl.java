package com.shop.order.service;

import com.shop.order.client.InventoryClient;
import org.springframework.context.annotation.Primary;
import org.springframework.stereotype.Service;

@Service
@Primary
public class OrderServiceImpl implements OrderService {
    private final InventoryClient inventory;

    public OrderServiceImpl(InventoryClient inventory) {
        this.inventory = inventory;
    }

    public String create(String item) {
        return inventory.stock(item) > 0 ? item : "";
    }

    public String find(long id) {
        return Long.toString(id);
    }

    public void cancel(String id) {
    }
}
