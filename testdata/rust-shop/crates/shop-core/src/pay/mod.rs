//! Payment gateways.

pub mod gateway;

pub use gateway::{Gateway, Receipt};

use std::sync::Arc;

/// Charges through the first gateway that accepts the currency.
pub struct PaymentService {
    gateways: Vec<Arc<dyn Gateway>>,
}

impl PaymentService {
    pub fn new(gateways: Vec<Arc<dyn Gateway>>) -> Self {
        PaymentService { gateways }
    }

    pub fn pay(&self, account: &str, amount: crate::Cents) -> Option<Receipt> {
        let gateway: &Arc<dyn Gateway> = self.gateways.first()?;
        gateway.charge(account, amount).ok()
    }
}
