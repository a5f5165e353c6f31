package p;

public class Account {
    private final String id;

    public Account() {
        this("none");
    }

    public Account(String id) {
        this.id = id;
    }

    public Account(String id, int limit) {
        this(id);
    }

    public String getName() {
        return id;
    }
}
