package com.pets.owners;

class OwnerNameTest {
    void addsAPetByName() {
        new Owner().addPet("Leo");
    }
}
