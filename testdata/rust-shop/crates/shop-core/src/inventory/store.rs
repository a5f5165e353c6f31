use std::collections::HashMap;

/// Where stock counts live.
pub trait Store {
    fn count(&self, sku: &str) -> u32;
    fn set(&mut self, sku: &str, count: u32);
}

#[derive(Default)]
pub struct MemoryStore {
    counts: HashMap<String, u32>,
}

impl Store for MemoryStore {
    fn count(&self, sku: &str) -> u32 {
        self.counts.get(sku).copied().unwrap_or(0)
    }

    fn set(&mut self, sku: &str, count: u32) {
        self.counts.insert(sku.to_string(), count);
    }
}

/// Every store wrapped in a box is a store.
impl<T: Store + ?Sized> Store for Box<T> {
    fn count(&self, sku: &str) -> u32 {
        (**self).count(sku)
    }

    fn set(&mut self, sku: &str, count: u32) {
        (**self).set(sku, count)
    }
}
