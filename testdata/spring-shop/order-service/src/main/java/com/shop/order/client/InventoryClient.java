package com.shop.order.client;

import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;

/** A call out to the inventory service: its mappings are not this service's endpoints. */
@FeignClient("inventory")
public interface InventoryClient {
    @GetMapping("/stock/{sku}")
    int stock(@PathVariable String sku);
}
