//! One integration-test binary, split by purpose (as ripgrep does).

mod extract;
mod util;
