package com.shop.order;

public class OrderParam {
    private String sku;
    private int quantity;

    public String getSku() {
        return sku;
    }

    public int getQuantity() {
        return quantity;
    }
}
