package com.pets.owners;

class VetTest {
    void namesAndSpecialties() {
        Vet vet = new Vet();
        vet.getFirstName();
        vet.specialties();
    }
}
