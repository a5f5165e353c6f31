package com.acme.user;

/** A customer account. */
public class User {
    private final String id;

    public User(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }
}
