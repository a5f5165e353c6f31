package shop;

public class Order {
}
