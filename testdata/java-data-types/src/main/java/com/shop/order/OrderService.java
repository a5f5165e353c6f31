package com.shop.order;

import com.shop.mapper.OrderMapper;
import com.shop.model.Order;
import com.shop.model.OrderItem;
import com.shop.model.Status;
import com.shop.pay.PaymentClient;

public class OrderService {
    private final OrderMapper mapper;
    private final PaymentClient payments;

    public OrderService(OrderMapper mapper, PaymentClient payments) {
        this.mapper = mapper;
        this.payments = payments;
    }

    public Order place(OrderParam param) {
        Order order = new Order();
        order.setStatus(Status.NEW);
        OrderItem item = new OrderItem();
        item.setSku(param.getSku());
        item.setQuantity(param.getQuantity());
        order.getItems().add(item);
        if (!payments.charge(order)) {
            throw new OrderException("payment refused for " + param.getSku());
        }
        mapper.insert(order);
        return order;
    }
}
