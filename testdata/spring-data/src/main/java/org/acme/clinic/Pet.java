package org.acme.clinic;

public class Pet {
    private Integer id;
}
