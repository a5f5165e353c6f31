//! Orders and the service that places them.

use crate::inventory::{Inventory, Store};
use crate::pay::{PaymentService, Receipt};
use crate::Cents;

/// One customer order.
#[derive(Debug, Clone)]
pub struct Order {
    pub account: String,
    pub lines: Vec<(String, u32)>,
    pub total: Cents,
}

#[derive(Debug, PartialEq)]
pub enum PlaceError {
    OutOfStock(String),
    PaymentFailed,
}

/// Places orders against an inventory and a payment service.
pub struct OrderService<S: Store> {
    pub inventory: Inventory<S>,
    pub payments: PaymentService,
}

impl<S: Store> OrderService<S> {
    pub fn place(&mut self, order: &Order) -> Result<Receipt, PlaceError> {
        for (sku, quantity) in &order.lines {
            if !self.inventory.reserve(sku, *quantity) {
                return Err(PlaceError::OutOfStock(sku.clone()));
            }
        }
        let receipt = self.payments.pay(&order.account, order.total);
        match receipt {
            Some(r) => Ok(r),
            None => Err(PlaceError::PaymentFailed),
        }
    }
}

macro_rules! order {
    ($account:expr) => {
        Order { account: $account.to_string(), lines: Vec::new(), total: 0 }
    };
}

pub(crate) fn empty(account: &str) -> Order {
    order!(account)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_order_has_no_lines() {
        assert!(empty("a").lines.is_empty());
    }
}
