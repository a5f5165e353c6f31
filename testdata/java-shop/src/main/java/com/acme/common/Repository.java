package com.acme.common;

import java.util.List;
import java.util.Optional;

/** Generic storage of entities by id. */
public interface Repository<T, ID> {
    Optional<T> findById(ID id);

    List<T> findAll();

    void save(T entity);
}
