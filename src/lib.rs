//! repochart: a map of one code repository for AI coding agents. The library holds every
//! layer; `main.rs` only parses arguments and dispatches. See ARCHITECTURE.md.

pub mod config;
pub mod config_keys;
pub mod extract;
pub mod frameworks;
pub mod gitdiff;
pub mod graph;
pub mod health;
pub mod history;
pub mod index;
pub mod lang;
pub mod mapper_xml;
pub mod matcher;
pub mod mcp;
pub mod model;
pub mod resolve;
pub mod rust_layout;
pub mod setup;
pub mod store;
pub mod tools;
pub mod units;
pub mod watch;
