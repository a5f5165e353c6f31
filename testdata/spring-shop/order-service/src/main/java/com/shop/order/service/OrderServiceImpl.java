package com.shop.order.service;

import com.shop.order.client.InventoryClient;
import com.shop.order.mapper.OrderMapper;
import org.springframework.context.annotation.Primary;
import org.springframework.stereotype.Service;

@Service
@Primary
public class OrderServiceImpl implements OrderService {
    private final InventoryClient inventory;
    private final OrderMapper mapper;

    public OrderServiceImpl(InventoryClient inventory, OrderMapper mapper) {
        this.inventory = inventory;
        this.mapper = mapper;
    }

    public String create(String item) {
        mapper.insert(item);
        return inventory.stock(item) > 0 ? item : "";
    }

    public String find(long id) {
        return Long.toString(id);
    }

    public void cancel(String id) {
    }
}
