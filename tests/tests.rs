//! One integration-test binary, split by purpose (as ripgrep does).

mod ecosystem;
mod extract;
mod history;
mod hostile;
mod index;
mod map;
mod mcp;
mod resolve;
mod tidy;
mod tools;
mod util;
mod watch;
