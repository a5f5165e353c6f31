package p;

public class Derived extends Base {
    <N extends Number> void send(Customer customer, N amount, long[] values) {
        note("x");
        customer.amount(amount);
        customer.remove(values.length);
        customer.remove(values[0] > 0 ? 1 : 2);
    }
}
