package com.shop.pay;

import com.shop.model.Order;
import com.shop.model.OrderItem;

public class PaymentClient {
    public boolean charge(Order order) {
        int units = 0;
        for (OrderItem item : order.getItems()) {
            units += item.getQuantity();
        }
        return units > 0;
    }
}
