package p;

public class Base {
    protected int count;
    public static final int LIMIT = 10;
    public static Base make() { return new Base(); }
    public Base self() { return this; }
}
