package com.acme.api;

// A copy the integration test builds as a project of its own: test data, not compiled here.
public interface OrderApi {
    String place(String item);
}
