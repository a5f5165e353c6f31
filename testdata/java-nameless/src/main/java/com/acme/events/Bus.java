package com.acme.events;

import java.util.ArrayList;
import java.util.List;

public class Bus {
    private final List<Listener> listeners = new ArrayList<>();
    private final Listener audit = this::record;

    public Listener logging() {
        return event -> record("log " + event);
    }

    public void start() {
        Listener local = event -> record(event);
        listeners.add(local);
        listeners.add(new Listener() {
            @Override
            public void onEvent(String event) {
                record(Format.upper(event));
            }

            @Override
            public String describe() {
                return "anonymous";
            }
        });
        register((Listener) event -> record(event));
        register(event -> record(event));
        later(() -> record("later"), this::record);
        new Subscription(this::record);
        listeners.forEach(l -> l.onEvent("started"));
    }

    void register(Listener listener) {
        listeners.add(listener);
    }

    void later(Runnable task, Listener... done) {
    }

    void record(String event) {
    }
}
