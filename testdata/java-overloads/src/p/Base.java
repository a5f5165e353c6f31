package p;

public class Base {
    private void note(String text) {
    }

    public void note(Object value) {
    }
}
