package org.acme.clinic;

import org.springframework.data.repository.Repository;

public interface PetRepository extends Repository<Pet, Integer> {
    Pet findById(Integer id);
}
