package com.pets.owners;

import com.pets.common.Person;

public class Vet extends Person {
    public int specialties() {
        return 0;
    }
}
