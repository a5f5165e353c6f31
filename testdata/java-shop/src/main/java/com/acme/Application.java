package com.acme;

import com.acme.inventory.InventoryService;
import com.acme.order.OrderService;
import com.acme.pay.PaymentService;
import com.acme.pay.StripeGateway;

public class Application {
    public static void main(String[] args) {
        OrderService service = new OrderService(new PaymentService(new StripeGateway()), new InventoryService(null));
        System.out.println(service);
    }
}
