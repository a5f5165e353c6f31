package com.acme.order;

import com.acme.pay.PaymentService;
import com.acme.pay.PaypalGateway;

class OrderServiceTest {
    void placesAnOrder() throws Exception {
        OrderService service = new OrderService(new PaymentService(new PaypalGateway()), null);
        service.place(new Order(new com.acme.user.User("u1")));
    }
}
