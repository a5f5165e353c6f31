package com.acme.pay;

import java.math.BigDecimal;

public final class PaypalGateway implements PaymentGateway {
    @Override
    public String charge(String account, BigDecimal amount) {
        return "paypal-" + account;
    }
}
