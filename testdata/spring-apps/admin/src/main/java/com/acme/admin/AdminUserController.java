package com.acme.admin;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

@RestController
public class AdminUserController {
    @GetMapping("/users/{id}")
    public String user(@PathVariable long id) {
        return "admin " + id;
    }

    @GetMapping("/users/me")
    public String me() {
        return "admin";
    }
}
