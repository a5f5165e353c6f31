package com.acme.events;

public interface Listener {
    void onEvent(String event);

    default String describe() {
        return "listener";
    }
}
