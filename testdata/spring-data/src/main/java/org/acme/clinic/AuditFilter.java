package org.acme.clinic;

import org.springframework.beans.factory.annotation.Autowired;

public class AuditFilter {
    @Autowired
    private UserService users;
}
