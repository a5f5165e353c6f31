package p;

public class Customer {
    public Account getAccount(String key) {
        return null;
    }

    public Account getAccount(Integer id) {
        return null;
    }

    public void put(int index, Object value) {
    }

    public void put(long index, String value) {
    }

    public void tag(String... tags) {
    }

    public void tag(String first, int count) {
    }

    public void remove(int index) {
    }

    public void remove(Object value) {
    }

    public void use(Object value) {
    }

    public void use(String value) {
    }

    public <T extends Number> void amount(T value) {
    }

    public void amount(String value) {
    }

    public int count() {
        return 0;
    }

    public void sum(int[] values) {
    }

    public void sum(long[] values) {
    }
}
