package q;

/** Another `Entry`: a name-only match cannot pick between the two. */
public interface Other {
    interface Entry {
    }
}
