package com.pets.orders;

public class OrderParam {
    public String item;
}
