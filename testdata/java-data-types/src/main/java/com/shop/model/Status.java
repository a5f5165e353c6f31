package com.shop.model;

public enum Status {
    NEW,
    PAID
}
