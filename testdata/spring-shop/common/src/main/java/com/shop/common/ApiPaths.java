package com.shop.common;

/** URL paths shared by the services: controllers in other modules name these. */
public final class ApiPaths {
    public static final String API = "/api/v1";
    public static final String REFUNDS = API + "/refunds";

    private ApiPaths() {
    }
}
