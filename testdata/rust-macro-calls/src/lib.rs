#[macro_use]
mod macros;
pub mod loud;

pub fn total(xs: &[u32]) -> u32 {
    xs.iter().sum()
}

pub fn helper() -> u32 {
    1
}

pub fn report(xs: &[u32]) -> String {
    println!("{} {}", total(xs), helper());
    format!("{:?}", vec![helper(), unknown_fn(2)])
}

// A macro of the repository whose argument is a closure with typed parameters, as test
// suites write them (`rgtest!(name, |dir: Dir, mut cmd: TestCommand| { ... })`).
macro_rules! with_counter {
    ($f:expr) => {
        ($f)(Counter, Counter)
    };
}

pub struct Counter;

impl Counter {
    pub fn bump(&self) -> u32 {
        1
    }
}

pub fn counted() -> u32 {
    with_counter!(|a: Counter, mut b: Counter| { a.bump() + shout!(b.bump()) | helper() })
}
