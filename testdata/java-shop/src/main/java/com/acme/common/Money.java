package com.acme.common;

import java.math.BigDecimal;

/** An amount in one currency. */
public record Money(BigDecimal amount, String currency) {
    public static final Money ZERO = new Money(BigDecimal.ZERO, "EUR");

    public Money plus(Money other) {
        return new Money(amount.add(other.amount()), currency);
    }
}
