//! repochart: a map of one code repository for AI coding agents. The library holds every
//! layer; `main.rs` only parses arguments and dispatches. See ARCHITECTURE.md.

pub mod build;
pub mod config;
pub mod extract;
pub mod frameworks;
pub mod git;
pub mod graph;
pub mod health;
pub mod index;
pub mod lang;
pub mod mcp;
pub mod model;
pub mod resolve;
pub mod setup;
pub mod store;
pub mod text;
pub mod tools;
pub mod walk;
pub mod watch;
