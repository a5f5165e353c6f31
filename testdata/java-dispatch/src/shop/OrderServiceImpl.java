package shop;

public class OrderServiceImpl implements OrderService {
    private final OrderMapper mapper = new OrderMapper();

    public Order create(String sku) {
        mapper.insert(sku);
        return new Order();
    }

    public void cancel(long id) {
        mapper.delete(id);
    }

    public void audit() {
        create("audit");
    }
}
