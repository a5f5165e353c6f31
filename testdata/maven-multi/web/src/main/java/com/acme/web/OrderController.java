package com.acme.web;

import com.acme.api.OrderApi;
import com.acme.core.OrderService;
import com.acme.legacy.LegacyDom;
import com.acme.tools.Report;

public class OrderController {
    private final OrderApi orders = new OrderService();

    public String post(String item) {
        Report.log(item);
        LegacyDom dom = null;
        return orders.place(item);
    }
}
