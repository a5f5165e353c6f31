package p;

import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;

public class Calls {
    private Logger log;
    private Customer customer = new Customer();

    void run(List<Customer> all, Object any, String text) {
        customer.getAccount(7);
        customer.getAccount("k");
        customer.put(1L, "x");
        customer.put(1, any);
        customer.tag("a", "b");
        customer.tag("a", 2);
        customer.tag();
        customer.remove(3);
        customer.remove(any);
        customer.use(null);
        customer.use(all);
        customer.use(text + 1);
        customer.getAccount((Integer) any);
        customer.amount(2.5);
        customer.remove(customer.hashCode() + all.size());
        customer.remove(unknown());
        Account a = new Account("id", 5);
        Account b = new Account();
        Account c = new Account("x") {
        };
        Function<String, Account> make = Account::new;
        Function<Account, String> name = Account::getName;
        Runnable r = this::helper;
        Supplier<Customer> fresh = Customer::new;
        log.info("hello");
        int[] small = new int[2];
        customer.sum(small);
        customer.sum(new long[] {1L});
        customer.remove(customer.count());
        new Customer().tag("a", new Customer().count());
        customer.use(any != null ? text : null);
    }

    void helper() {
    }

    <T> T unknown() {
        return null;
    }
}
