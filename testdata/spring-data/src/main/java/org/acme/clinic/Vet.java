package org.acme.clinic;

public class Vet {
    private Long id;
}
