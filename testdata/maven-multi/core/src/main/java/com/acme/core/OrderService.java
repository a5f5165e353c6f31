package com.acme.core;

import com.acme.api.OrderApi;
import com.acme.gen.OrderProto;

public class OrderService implements OrderApi {
    public String place(String item) {
        return new OrderProto(item).encode();
    }
}
