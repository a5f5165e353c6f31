package com.pets.owners;

public class Pet {
    private final String name;

    public Pet(String name) {
        this.name = name;
    }
}
