package shop;

public class OrderMapper {
    public void insert(String sku) {
    }

    public void delete(long id) {
    }
}
