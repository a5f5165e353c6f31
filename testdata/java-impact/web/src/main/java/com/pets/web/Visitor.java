package com.pets.web;

import com.pets.common.Person;
import com.pets.orders.OrderController;
import com.pets.orders.OrderParam;

/** A web visitor: a person who orders. Nothing depends on the web module. */
public class Visitor extends Person {
    public long order(OrderController controller) {
        return controller.create(new OrderParam());
    }
}
