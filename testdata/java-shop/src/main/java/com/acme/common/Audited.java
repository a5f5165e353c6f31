package com.acme.common;

import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;

/** Marks a service method whose calls are written to the audit log. */
@Retention(RetentionPolicy.RUNTIME)
public @interface Audited {
    String value() default "";
}
