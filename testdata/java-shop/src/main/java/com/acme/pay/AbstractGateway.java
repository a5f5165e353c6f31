package com.acme.pay;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/** Shared bookkeeping for gateways. */
public abstract class AbstractGateway implements PaymentGateway {
    protected final List<String> log = new ArrayList<>();

    @Override
    public String charge(String account, BigDecimal amount) throws PaymentException {
        if (amount.signum() <= 0) {
            throw new PaymentException("amount must be positive");
        }
        log.add(account);
        return doCharge(account, amount);
    }

    protected abstract String doCharge(String account, BigDecimal amount) throws PaymentException;
}
