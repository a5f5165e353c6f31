package com.shop.order.web;

import com.shop.common.ApiPaths;
import com.shop.order.service.OrderService;
import com.shop.order.service.RefundService;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.web.bind.annotation.*;

/** Refunds over HTTP, under a path another module's constants spell. */
@RestController
@RequestMapping(ApiPaths.REFUNDS)
public class RefundController {
    private final RefundService refunds;
    private final OrderService legacyOrders;

    public RefundController(RefundService refunds, @Qualifier("legacy") OrderService legacyOrders) {
        this.refunds = refunds;
        this.legacyOrders = legacyOrders;
    }

    @PostMapping(ApiPaths.API + "/{orderId}")
    public void refund(@PathVariable String orderId) {
        refunds.refund(orderId);
    }
}
