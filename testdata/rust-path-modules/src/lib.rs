#[cfg(unix)]
#[path = "sys/unix_impl.rs"]
mod imp;
#[cfg(not(unix))]
#[path = "sys/other_impl.rs"]
mod imp;

#[path = "moved/mod.rs"]
pub mod refs;

pub mod shared;

pub fn run() -> u32 {
    imp::ticks() + refs::child::depth()
}
