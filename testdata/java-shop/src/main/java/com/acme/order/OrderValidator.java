package com.acme.order;

final class OrderValidator {
    private OrderValidator() {}

    static void requireLines(Order order) {
        if (order.lines().isEmpty()) {
            throw new IllegalArgumentException("an order needs lines");
        }
        Runnable check = new Runnable() {
            @Override
            public void run() {
                order.total();
            }
        };
        check.run();
    }
}
