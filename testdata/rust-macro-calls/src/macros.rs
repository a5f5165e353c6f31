// Brought into the crate's later modules by `#[macro_use] mod macros;` in lib.rs.
macro_rules! shout {
    ($e:expr) => {
        $e * 2
    };
}
