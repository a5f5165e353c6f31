package p;

/** Declares a member type that implementations inherit. */
public interface Outer {
    interface Entry {
        String key();
    }
}
