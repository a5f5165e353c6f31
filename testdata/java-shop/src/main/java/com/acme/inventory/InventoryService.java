package com.acme.inventory;

import com.acme.common.Repository;
import java.util.List;

public class InventoryService {
    private final Repository<Item, String> items;

    public InventoryService(Repository<Item, String> items) {
        this.items = items;
    }

    public boolean reserve(String sku, int quantity) {
        return items.findById(sku).map(item -> item.take(quantity)).orElse(false);
    }

    public List<Item> all() {
        return items.findAll();
    }

    /** A stocked article. */
    public static class Item {
        private int stock;

        boolean take(int quantity) {
            if (stock < quantity) {
                return false;
            }
            stock -= quantity;
            return true;
        }
    }
}
