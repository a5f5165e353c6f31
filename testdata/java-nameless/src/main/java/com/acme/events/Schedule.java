package com.acme.events;

import java.util.Collections;
import java.util.List;

public class Schedule {
    public void order(List<Priority> priorities) {
        Collections.sort(priorities);
    }
}
