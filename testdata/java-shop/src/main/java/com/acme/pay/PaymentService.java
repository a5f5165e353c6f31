package com.acme.pay;

import com.acme.common.Money;
import java.util.*;

/** Chooses a gateway and charges through it. */
public class PaymentService {
    private final Map<String, PaymentGateway> gateways = new HashMap<>();
    private final PaymentGateway fallback;

    public PaymentService(PaymentGateway fallback) {
        this.fallback = fallback;
    }

    public String pay(String account, Money money) throws PaymentException {
        PaymentGateway gateway = gateways.getOrDefault(money.currency(), fallback);
        return gateway.charge(account, money.amount());
    }

    /** The kinds of result a payment can have. */
    public enum Status {
        OK, DECLINED, ERROR;

        public boolean isFinal() {
            return this != ERROR;
        }
    }
}
