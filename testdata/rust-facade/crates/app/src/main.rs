use facade::core::Searcher;
use std::fmt::Write;

macro_rules! twice {
    ($e:expr) => {
        ($e, $e)
    };
}

fn run() -> Result<usize, String> {
    let searcher = facade::core::Searcher::new();
    let found = searcher.search_path("a")?;
    let built = Searcher::builder().line_number(true).build();
    assert!(built.search_path("b").is_ok());
    assert_eq!(built.count(), 0);
    let mut out = String::new();
    write!(out, "{}", searcher.first().unwrap().describe()).ok();
    let first = facade::Searcher::new().first().unwrap();
    let _ = twice!(first.describe());
    let _ = engine_core::hits!(searcher);
    let boxed: Box<Searcher> = Box::new(Searcher::new());
    boxed.count();
    let list: Vec<Match> = found;
    for m in list.iter() {
        m.describe();
    }
    Ok(found_len(&searcher))
}

fn found_len(s: &Searcher) -> usize {
    s.count()
}

use facade::Match;

fn tally_of<C: engine_core::search::Counted>(counted: &C) -> usize {
    counted.tally()
}

/// Through the facade's `pub extern crate engine_core as engine;`.
fn through_extern_crate() -> usize {
    facade::engine::search::Searcher::new().count()
}

fn main() {
    let _ = run();
    let _ = through_extern_crate();
}

/// A value whose type the index does not follow (a part of a tuple): its call is matched by
/// name only, a guess.
fn first_of_pair(s: &Searcher) -> String {
    let (m, _) = (s.first().unwrap(), 0);
    m.describe()
}
