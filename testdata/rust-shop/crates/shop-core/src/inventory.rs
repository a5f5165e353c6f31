//! Stock keeping.

mod store;

pub use self::store::{MemoryStore, Store};

/// Reserves stock from any store.
pub struct Inventory<S: Store> {
    store: S,
}

impl<S: Store> Inventory<S> {
    pub fn new(store: S) -> Self {
        Self { store }
    }

    pub fn reserve(&mut self, sku: &str, quantity: u32) -> bool {
        let available = self.store.count(sku);
        if available < quantity {
            return false;
        }
        self.store.set(sku, available - quantity);
        true
    }
}
