package com.shop.order.service;

import java.lang.annotation.ElementType;
import java.lang.annotation.Target;
import org.springframework.stereotype.Service;

/** A stereotype of the repository's own: its classes are beans. */
@Target(ElementType.TYPE)
@Service
public @interface DomainService {
}
