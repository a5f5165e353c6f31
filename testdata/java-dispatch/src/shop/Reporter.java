package shop;

public class Reporter {
    public void info(String message) {
    }
}
