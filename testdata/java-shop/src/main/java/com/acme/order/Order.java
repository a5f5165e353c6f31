package com.acme.order;

import com.acme.common.Money;
import com.acme.user.User;
import java.util.ArrayList;
import java.util.List;

public class Order {
    private final User customer;
    private final List<Line> lines = new ArrayList<>();

    public Order(User customer) {
        this.customer = customer;
    }

    public User customer() {
        return customer;
    }

    public List<Line> lines() {
        return lines;
    }

    public Money total() {
        Money sum = Money.ZERO;
        for (Line line : lines) {
            sum = sum.plus(line.price());
        }
        return sum;
    }

    /** One line of an order. */
    public record Line(String sku, int quantity, Money price) {}
}
