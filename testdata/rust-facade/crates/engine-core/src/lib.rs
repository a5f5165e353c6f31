macro_rules! checked {
    ($e:expr) => {
        $e
    };
}

pub mod search;

pub use search::{Match, Searcher};

#[macro_export]
macro_rules! hits {
    ($s:expr) => {
        $s.count()
    };
}
