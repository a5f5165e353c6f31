package shop;

public interface OrderService {
    Order create(String sku);

    void cancel(long id);
}
