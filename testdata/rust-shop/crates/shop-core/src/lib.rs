//! The shop's domain: payments, inventory and orders.

pub mod inventory;
pub mod order;
pub mod pay;

pub use order::{Order, OrderService};
pub use pay::gateway::Gateway as PaymentGateway;

/// Money in cents.
pub type Cents = u64;
