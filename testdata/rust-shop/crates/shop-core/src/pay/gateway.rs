use std::fmt;

use crate::Cents;

/// A receipt for one charge.
#[derive(Debug, Clone, PartialEq)]
pub struct Receipt {
    pub id: String,
    pub amount: Cents,
}

/// A payment provider.
pub trait Gateway: Send + Sync {
    /// Charges the account. Fails when the provider declines.
    fn charge(&self, account: &str, amount: Cents) -> Result<Receipt, Declined>;

    fn name(&self) -> &'static str;
}

#[derive(Debug)]
pub struct Declined;

impl fmt::Display for Declined {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "declined")
    }
}

pub struct Stripe;

impl Gateway for Stripe {
    fn charge(&self, account: &str, amount: Cents) -> Result<Receipt, Declined> {
        Ok(Receipt { id: format!("stripe-{account}"), amount })
    }

    fn name(&self) -> &'static str {
        "stripe"
    }
}

pub struct Paypal {
    pub sandbox: bool,
}

impl Gateway for Paypal {
    fn charge(&self, account: &str, amount: Cents) -> Result<Receipt, Declined> {
        if self.sandbox {
            return Err(Declined);
        }
        Ok(Receipt { id: format!("paypal-{account}"), amount })
    }

    fn name(&self) -> &'static str {
        "paypal"
    }
}
