package p;

public class Special extends Account {
    Special() {
        super("special", 3);
    }
}
