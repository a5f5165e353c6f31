package com.pets.owners;

import java.util.ArrayList;
import java.util.List;

import com.pets.common.Person;

public class Owner extends Person {
    private final List<Pet> pets = new ArrayList<>();

    public void addPet(Pet pet) {
        pets.add(pet);
    }

    public void addPet(String name) {
        addPet(new Pet(name));
    }
}
