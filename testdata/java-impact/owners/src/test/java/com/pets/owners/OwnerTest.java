package com.pets.owners;

class OwnerTest {
    void addsAPet() {
        new Owner().addPet(new Pet("Leo"));
    }
}
