package com.acme.order;

import static com.acme.order.OrderValidator.requireLines;

import com.acme.common.Audited;
import com.acme.inventory.InventoryService;
import com.acme.pay.PaymentException;
import com.acme.pay.PaymentService;

/**
 * Places orders: reserves stock, then takes payment.
 * Depends on payment and inventory.
 */
public class OrderService {
    private final PaymentService payments;
    private final InventoryService inventory;

    public OrderService(PaymentService payments, InventoryService inventory) {
        this.payments = payments;
        this.inventory = inventory;
    }

    @Audited("place")
    public String place(Order order) throws PaymentException {
        requireLines(order);
        for (Order.Line line : order.lines()) {
            if (!inventory.reserve(line.sku(), line.quantity())) {
                throw new IllegalStateException("out of stock: " + line.sku());
            }
        }
        return payments.pay(order.customer().id(), order.total());
    }

    public <T extends Comparable<T>> T max(T a, T b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
}
