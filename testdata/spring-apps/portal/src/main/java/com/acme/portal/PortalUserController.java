package com.acme.portal;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

@RestController
public class PortalUserController {
    @GetMapping("/users/{id}")
    public String user(@PathVariable long id) {
        return "portal " + id;
    }
}
