package com.acme.events;

public class Subscription {
    private final Listener listener;

    public Subscription(Listener listener) {
        this.listener = listener;
    }
}
