package p;

public class Reporter {
    public void info(String message) {
    }
}
