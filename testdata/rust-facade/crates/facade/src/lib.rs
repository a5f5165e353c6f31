pub use engine_core as core;
pub use engine_core::search::*;
