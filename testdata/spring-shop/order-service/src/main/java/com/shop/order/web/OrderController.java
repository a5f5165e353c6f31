package com.shop.order.web;

import com.shop.order.service.OrderService;
import com.shop.order.service.RefundService;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.web.bind.annotation.*;

/** Orders over HTTP. */
@RestController
@RequestMapping({"/order", "/orders"})
public class OrderController {
    private static final String DETAIL = "/detail/{orderId}";

    private final OrderService orders;

    @Autowired
    private RefundService refunds;

    public OrderController(OrderService orders) {
        this.orders = orders;
    }

    /** Places an order. */
    @PostMapping("/create")
    public String create(@RequestBody String item) {
        return orders.create(item);
    }

    @GetMapping(DETAIL)
    public String detail(@PathVariable long orderId) {
        return orders.find(orderId);
    }

    @RequestMapping(value = "/cancel", method = {RequestMethod.POST, RequestMethod.PUT})
    public void cancel(@RequestParam String id) {
        orders.cancel(id);
    }

    @RequestMapping(path = "/" + "ping")
    public String ping() {
        return "pong";
    }

    String notAHandler() {
        return "";
    }
}
