package com.acme.pay;

public class PaymentException extends Exception {
    public PaymentException(String message) {
        super(message);
    }
}
