package q;

public final class Consts {
    public static final String NAME = "n";
}
