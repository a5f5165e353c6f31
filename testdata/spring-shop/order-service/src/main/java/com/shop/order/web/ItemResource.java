package com.shop.order.web;

import java.util.List;
import javax.ws.rs.*;

@Path("/items")
public class ItemResource {
    @GET
    public List<String> all() {
        return List.of();
    }

    @GET
    @Path("{id}")
    public String one(@PathParam("id") String id) {
        return id;
    }

    @POST
    public void add(String item) {
    }
}
