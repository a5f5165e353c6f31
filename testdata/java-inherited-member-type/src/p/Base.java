package p;

/** `Entry` below is Outer.Entry, inherited through `implements Outer`: no import names it. */
public abstract class Base implements Outer {
    public static class Simple implements Entry {
        public String key() {
            return "k";
        }
    }

    abstract static class View extends Simple {
    }

    static final class Deeper extends Base {
        final class Leaf implements Entry {
            public String key() {
                return "leaf";
            }
        }
    }
}
