use std::sync::Arc;

use shop_core::inventory::{Inventory, MemoryStore};
use shop_core::pay::gateway::{Paypal, Stripe};
use shop_core::pay::PaymentService;
use shop_core::{Order, OrderService, PaymentGateway};

fn gateways() -> Vec<Arc<dyn PaymentGateway>> {
    vec![Arc::new(Stripe), Arc::new(Paypal { sandbox: true })]
}

fn main() {
    let mut service = OrderService { inventory: Inventory::new(MemoryStore::default()), payments: PaymentService::new(gateways()) };
    let order = Order { account: "acct".into(), lines: vec![], total: 10 };
    match service.place(&order) {
        Ok(receipt) => println!("{}", receipt.id),
        Err(e) => eprintln!("{e:?}"),
    }
}
