package com.acme.events;

public class Priority implements Comparable<Priority> {
    private int level;

    @Override
    public int compareTo(Priority other) {
        return Integer.compare(level, other.level);
    }
}
