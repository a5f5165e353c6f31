package com.shop.model;

import java.util.ArrayList;
import java.util.List;

public class Order {
    private Status status;
    private final List<OrderItem> items = new ArrayList<>();

    public Status getStatus() {
        return status;
    }

    public void setStatus(Status status) {
        this.status = status;
    }

    public List<OrderItem> getItems() {
        return items;
    }
}
