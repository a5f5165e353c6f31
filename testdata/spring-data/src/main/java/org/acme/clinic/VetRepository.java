package org.acme.clinic;

public interface VetRepository extends BaseRepository<Vet> {
}
