package shop;

import org.slf4j.Logger;

public class OrderController {
    private OrderService orders;
    private Logger log;

    public Order post(String sku) {
        log.info("create");
        return orders.create(sku);
    }

    public void delete(long id) {
        orders.cancel(id);
    }
}
