pub mod engine;

pub use engine::Engine;
