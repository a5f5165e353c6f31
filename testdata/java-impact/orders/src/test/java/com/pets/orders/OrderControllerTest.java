package com.pets.orders;

class OrderControllerTest {
    void creates(OrderController controller) {
        controller.create(new OrderParam());
    }
}
