package com.acme.pay;

import java.math.BigDecimal;

public class StripeGateway extends AbstractGateway {
    @Override
    protected String doCharge(String account, BigDecimal amount) {
        return "stripe-" + account;
    }
}
