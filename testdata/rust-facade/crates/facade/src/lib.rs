pub use engine_core as core;
pub use engine_core::search::*;
pub extern crate engine_core as engine;
