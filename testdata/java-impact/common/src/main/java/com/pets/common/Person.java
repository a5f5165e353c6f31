package com.pets.common;

public class Person {
    private String firstName;

    public String getFirstName() {
        return firstName;
    }
}
