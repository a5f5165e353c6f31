package com.acme.lombok;

import java.util.List;
import lombok.Builder;
import lombok.Data;
import lombok.NonNull;
import lombok.extern.slf4j.Slf4j;

@Data
@Builder
@Slf4j
public class Order {
    private final Long id;
    private boolean paid;
    @NonNull
    private List<Item> items;
    private Long discountId;
    private static final int MAX_ITEMS = 50;

    public void setPaid(boolean paid) {
        log.info("paid {}", id);
        this.paid = paid;
    }
}
