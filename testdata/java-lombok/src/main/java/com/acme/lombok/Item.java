package com.acme.lombok;

import lombok.Getter;
import lombok.Setter;

public class Item {
    @Getter
    @Setter
    private String sku;
    @Getter
    private int quantity;
    private String note;

    public String describe() {
        return note;
    }
}
