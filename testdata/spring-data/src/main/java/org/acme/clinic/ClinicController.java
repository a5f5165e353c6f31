package org.acme.clinic;

import java.util.List;
import org.springframework.stereotype.Controller;

@Controller
public class ClinicController {
    private final PetRepository pets;
    private final VetRepository vets;

    public ClinicController(PetRepository pets, VetRepository vets) {
        this.pets = pets;
        this.vets = vets;
    }

    public Pet show(Integer id) {
        return pets.findById(id);
    }

    public List<Vet> vets() {
        return vets.findAll();
    }
}
