package com.acme.pay;

import java.math.BigDecimal;

/**
 * A way to move money. Implementations talk to one provider each.
 */
public interface PaymentGateway {
    /** Charges the amount and returns a receipt id. */
    String charge(String account, BigDecimal amount) throws PaymentException;

    default boolean supports(String currency) {
        return "EUR".equals(currency);
    }
}
