//! Search by intent: `search_symbols` when the query reads as a sentence ("Escape
//! supplementary characters for non-UTF charsets", "Add rate limiting to the login
//! endpoint"). The sentence's words worth searching are kept (no stop words from
//! `grammars/search/stop-words.txt`, none under three letters, sentence punctuation is no
//! qualified-name syntax: `Cargo.toml` is two words), identifiers are split into words, and
//! each word is folded to its English stem (Snowball, `rust-stemmers`) and searched as a
//! prefix of the words of names, owners, doc comments and places (folders and file name),
//! ranked by BM25 (rare words weigh more). Those rankings and the exact names of the words are fused as the name search
//! fuses its own (reciprocal ranks); then the map's priors: an area named before a colon first
//! (`ignore: ...`), a member written as `Owner.member` (or `Owner::member`) as if it covered
//! the whole sentence, the members of a type it names (`StreamParser`) 0.35 of that,
//! declarations (types, methods, functions) before fields, constants and variants, production
//! code before tests unless the sentence is about tests, overloads as one row. Where git
//! history is read, the declarations that past commits about the same words changed (their
//! subjects matched like a sentence, rare words weighing more) join the ranking, and each
//! declaration's history (the subjects of the commits that changed it) is searched as one
//! more field: a task's words are often in the history of the code it touches, not in its
//! names; and what the newest commits changed counts a little more (work goes on where it
//! went on). What a declaration uses is one more field: the words of the names of the
//! symbols and externals it references (`Response#execute` uses `followRedirects`, so it
//! matches "redirect"), as a body's identifiers say what it does; and so are the words of
//! its string literals and comments (`text`: an error message, a note on a workaround).
//! A word found in the history, uses or text weighs by its rarity there as well as among
//! names (`string` is in what half of jsoup's methods use).
//! Vocabulary bridges (`grammars/search/concepts.txt`) join a task's words to code's
//! (`validated` also searches `verify` and `check`, `written` `write`), for half a word.
//! What a declaration's history, uses and text add beyond its name, owner, doc and path
//! saturates, so a long function that mentions everything does not outrank one named by the
//! sentence; accessors, `toString` and generated query criteria weigh half. Then the graph
//! ranks (`walk_rank`): a walk restarting at the ten best hits, over their edges and their
//! types, adds to what it reaches, and brings in declarations the words did not find
//! (`via` the hit next to them).
//! Each row says which words matched where (`commits: ...` for the subjects of the commits
//! that changed it, `uses: ...` for what it references, `text: ...` for its literals and
//! comments) and whether it changed recently.
//!
//! Owns the sentence path of `search_symbols`; a sentence's words (which words, their stems,
//! the area, the bridges) are `sentence_words`'. It must not read source text.

use std::collections::{HashMap, HashSet};
use std::fmt::Write;
use std::sync::Arc;

use super::cache::UserLists;
use super::lines::plural;
use super::paging::{echo, write_page, Row, Window};
use super::sentence_words::{bridged, is_code, scope, terms, terms_in, terms_in_texts, words_of, Term, BRIDGE_GAP};
use super::walk_rank;
use super::{is_test_path, Atlas, ToolError};
use crate::git::history::ranges_meet;
use crate::model::SymbolKind;
use crate::store::{Collected, Store, SymbolInfo};

/// What a test's score is multiplied by when the sentence is not about tests. On the
/// parent's index of 200 commits (`bench/search_intent.py --parent`), 0.5 against 0.75:
/// P@10 0.0576 / 0.0565 on jsoup, 0.0478 / 0.0433 on ripgrep. With every field's own
/// rarity (`field_weights`), 0.5 / 0.4: jsoup 0.1217 / 0.1228, ripgrep 0.0989 / 0.0989.
const TEST_PRIOR: f64 = 0.4;
/// What a member of a type the sentence names (`StreamParser`, `W3CDom`) adds to its rank:
/// this share of the whole sentence's weight. A commit naming a type mostly changes what is
/// inside it. On the parent's index of 200 commits (`bench/search_intent.py --parent`),
/// 0 / 0.1 / 0.2 / 0.35 / 0.5 / 1.0: P@10 jsoup 0.1239 / 0.1272 / 0.1304 / 0.1359 / 0.1337
/// / 0.1250, and on the 200 commits before those 0.0829 / 0.0843 / 0.0850 / 0.0893 / 0.0893 /
/// 0.0871 (ripgrep's subjects name types as `Owner::member`, and its figures do not move).
const NAMED_TYPE: f64 = 0.35;
/// How many of the best hits the walk restarts at (`walk_rank`), by their rank. On the 64
/// labelled tasks (`bench/search_tasks.py`), with the walk bounded as below, 10 / 30 seeds:
/// P@10 0.1953 / 0.1969, MRR 0.5669 / 0.5483; 10 costs no more than no walk on `java.base`.
const WALK_SEEDS: usize = 10;
/// The walk's chance of a restart at each step. On the labelled tasks (30 seeds, 1,500
/// nodes), 0.15 / 0.3 / 0.5: P@10 0.1797 / 0.1781 / 0.1766; the usual 0.3 kept.
const WALK_RESTART: f64 = 0.3;
/// What the walk adds to a declaration's rank at most (the best-reached one): this share of
/// the whole sentence's weight, the rest by their share of the best. On the labelled tasks
/// (before the bridges), 0 / 0.15 / 0.3 / 0.5 / 1.0: P@10 0.1719 / 0.1781 / 0.1688 / 0.1609
/// / 0.1437.
const WALK_SHARE: f64 = 0.15;
/// What a declaration the words did not find, which the walk reached, keeps of its own rank.
const WALK_OWN: f64 = 0.5;
/// At most this many declarations around the seeds take part: 1,500 cost 250 ms a sentence
/// on `java.base` for no better answers (P@10 0.1953 at 1,500 against 0.1969 at 300).
const WALK_NODES: usize = 300;
/// A seed referenced from more places than this brings only what it uses, not its users
/// (`HashMap`'s thousands of users say nothing of a sentence).
const WALK_HUB: usize = 100;
/// A member and its type, as an edge of the walk.
const MEMBER_EDGE: f64 = 0.5;

/// The walk from the best of `ranked` (see `walk_rank`): for each declaration it reaches, what
/// it reaches there, and the best seed next to it (as its handle). The walk's graph is each
/// seed's edges (its users only when it is no hub), and each node's edge to its type: the
/// edges among the seeds' neighbours were tried too, for no better answers (P@10 0.1953
/// with them, 0.1937 without) at twice the cost.
fn walk(store: &Store, ranked: &[Ranked]) -> Result<HashMap<i64, (f64, Option<String>)>, ToolError> {
    let seeds: Vec<&Ranked> = ranked.iter().filter(|r| r.rank > 0.0).take(WALK_SEEDS).collect();
    if seeds.is_empty() {
        return Ok(HashMap::new());
    }
    let seed_ids: Vec<i64> = seeds.iter().map(|r| r.s.id).collect();
    let by_seed: HashMap<i64, &Ranked> = seeds.iter().map(|r| (r.s.id, *r)).collect();
    let quiet: Vec<i64> = seeds.iter().filter(|r| r.fan_in <= WALK_HUB).map(|r| r.s.id).collect();
    let around = store.edges_touching(&seed_ids, &quiet)?;
    let mut nodes: HashSet<i64> = seed_ids.iter().copied().collect();
    let mut others = 0;
    for &(a, b, _) in &around {
        for end in [a, b] {
            if others < WALK_NODES && nodes.insert(end) {
                others += 1;
            }
        }
    }
    let mut edges: Vec<(i64, i64, f64)> = Vec::new();
    let mut via: HashMap<i64, (f64, i64)> = HashMap::new();
    for &(a, b, kind) in &around {
        if !nodes.contains(&a) || !nodes.contains(&b) {
            continue;
        }
        edges.push((a, b, walk_rank::edge_weight(kind)));
        for (seed, other) in [(a, b), (b, a)] {
            if let Some(r) = by_seed.get(&seed) {
                let best = via.entry(other).or_insert((r.rank, seed));
                if r.rank > best.0 {
                    *best = (r.rank, seed);
                }
            }
        }
    }
    let all: Vec<i64> = nodes.iter().copied().collect();
    for s in store.symbols_by_ids(&all)? {
        if let Some(parent) = s.parent {
            edges.push((s.id, parent, MEMBER_EDGE));
        }
    }
    let weights: Vec<(i64, f64)> = seeds.iter().map(|r| (r.s.id, r.rank)).collect();
    let scores = walk_rank::personalized_pagerank(&weights, &edges, WALK_RESTART, 30);
    Ok(scores
        .into_iter()
        .map(|(id, w)| {
            let handle = via.get(&id).filter(|(_, seed)| *seed != id).map(|(_, seed)| by_seed[seed].s.signature_handle());
            (id, (w, handle))
        })
        .collect())
}

/// What a declaration changed by a past commit about the sentence's words adds to its rank:
/// this share of the whole sentence's weight, for the commit whose subject matches best (less
/// for the others, by their share of its score). On the parent's index of 200 commits
/// (`bench/search_intent.py --parent`), 0.25 / 0.5 / 1.0: P@10 0.0783 / 0.0750 / 0.0707 on
/// jsoup, 0.0544 / 0.0633 / 0.0633 on ripgrep.
const HISTORY_WEIGHT: f64 = 0.5;
/// What a word counts for when it is in the subject of a commit that changed the declaration
/// (its history as a field, beside name 1, text 0.7, uses 0.6, owner 0.5 then, path 0.4 and
/// doc 0.3). On the parent's index of 200 commits (`bench/search_intent.py --parent`), P@10 / MRR without
/// the field, then 0.4 / 0.6 / 0.8 / 0.9 / 1.2: jsoup 0.0815 / 0.2540, 0.0826 / 0.2668,
/// 0.0815 / 0.2726, 0.0804 / 0.2752, 0.0837 / 0.2857, 0.0804 / 0.2725; ripgrep 0.0644 /
/// 0.3186, 0.0644 / 0.3066, 0.0644 / 0.3109, 0.0667 / 0.3443, 0.0678 / 0.3567, 0.0656 /
/// 0.3488. With the `uses` field beside it, 0.9 / 0.7 / 0.6: jsoup 0.1043 / 0.1087 /
/// 0.1087, ripgrep 0.0867 / 0.0878 / 0.0889, and on the 200 commits before those (a set
/// no weight was chosen on) jsoup 0.0664 / 0.0693 / 0.0750, ripgrep 0.0676 / 0.0676 / 0.0662.
/// With every field's own rarity (`field_weights`) and the priors as they are, 0.7 / 0.6:
/// jsoup 0.1228 / 0.1239, ripgrep 0.0989 / 0.1011.
const HISTORY_FIELD: f64 = 0.6;
/// What a word counts for when it is in the name of the type that holds the declaration. The
/// labels of the 64 labelled tasks matched there more often than the rows that took their
/// places (71% of the labels in the first ten, 75% of those at 11-30, 52% of the other rows
/// in the first ten). On those tasks (`bench/search_tasks.py`), 0.5 / 0.6 / 0.7 / 0.85 / 1.0:
/// P@10 0.2094 / 0.2125 / 0.2203 / 0.2188 / 0.2109, MRR 0.5778 / 0.5695 / 0.5594 / 0.5743 /
/// 0.5584; ripgrep's commits (`bench/search_intent.py --parent`) at 0.5 / 0.7 / 0.85: P@10
/// 0.0911 / 0.0922 / 0.0911, R@10 0.4774 / 0.4881 / 0.4976.
const OWNER_FIELD: f64 = 0.7;
/// What a word counts for when it is in the name of a symbol or external the declaration
/// references (`uses`). P@10 on the parent's index of 200 commits, without the field, then
/// 0.3 / 0.5 / 0.7 (symbols only): jsoup 0.0837, 0.0967 / 0.0967 / 0.0957; ripgrep 0.0678,
/// 0.0733 / 0.0756 / 0.0744; with externals too (`HttpClient`, `std::fs`), 0.5 / 0.6: jsoup
/// 0.1000 / 0.1011, ripgrep 0.0822 / 0.0833.
const USES_FIELD: f64 = 0.6;
/// What a word counts for when it is in the declaration's body text: the words of its string
/// literals and comments (not its docs). P@10 on the parent's index of 200 commits, at 0 (the
/// text's matches only join the candidates) / 0.3 / 0.5 / 0.7 / 0.85 / 1.0: jsoup 0.1076 /
/// 0.1087 / 0.1109 / 0.1130 / 0.1098 / 0.1076, ripgrep 0.0889 / 0.0911 / 0.0922 / 0.0956 /
/// 0.0956 / 0.0967 (MRR 0.3933 at 0.7, 0.2943 at 1.0).
const TEXT_FIELD: f64 = 0.7;
/// How many declarations each word's body-text matches may bring.
const TEXT_MATCHES: usize = 2000;
/// How many of the symbols named with each word are followed to what references them.
const USED_NAMES: usize = 300;
/// How many of the commits whose subjects match the sentence best lend their declarations
/// (each by the share of the sentence's weight its subject holds).
const PAST_COMMITS: usize = 20;
/// What the rank of a declaration changed by one of the newest `RECENT_COMMITS` commits is
/// multiplied by: a task more often continues recent work than old. On the parent's index
/// of 200 commits (`bench/search_intent.py --parent`), P@10 without / 30 commits x1.3 / 50 x1.3
/// / 100 x1.3 / 30 x1.6: jsoup 0.0750 / 0.0804 / 0.0815 / 0.0772 / 0.0815, ripgrep 0.0633 /
/// 0.0644 / 0.0644 / 0.0667 / 0.0633.
const RECENT_PRIOR: f64 = 1.3;
const RECENT_COMMITS: usize = 50;
/// A commit that touched more files than this (a reformat, a rename across the tree) says
/// nothing about where work is going on.
const WIDE_COMMIT: usize = 50;

/// A candidate: its rank (coverage with priors), how many places reference it, fused search
/// score, matched terms, and the hit that brought it in through the graph.
struct Ranked {
    /// In the area the sentence names before a colon (`ignore: ...`), or no area is named.
    in_area: bool,
    rank: f64,
    fan_in: usize,
    fused: f64,
    s: SymbolInfo,
    m: [Vec<usize>; 7],
    via: Option<String>,
}

/// How many rows of one simple name keep their rank: the rest count `SAME_NAME_SHARE` of it.
/// A page of ten `doc_long` methods (ripgrep's flags, each with its help text) or ten
/// `outerHtmlHead` overrides says one thing ten times. On the parent's index of 200 commits
/// (`bench/search_intent.py --parent`), none / 3 kept: P@10 jsoup 0.1359 / 0.1380, ripgrep
/// 0.1011 / 0.0989 (its `doc: ...` commits change one `doc_long` of many), and on the 200
/// commits before those jsoup 0.0893 / 0.0893, ripgrep 0.0718 / 0.0718; 2 kept (scratch
/// copies): jsoup 0.1391, ripgrep 0.1011, earlier ripgrep 0.0676. No gain on history: it is
/// kept for pages an agent can read (a question on ripgrep's colours: 9 of 10 rows were
/// `doc_long`, 3 now, with `default_color_specs` and `UserColorSpec` in their place).
const SAME_NAME: usize = 3;
const SAME_NAME_SHARE: f64 = 0.5;

/// Rows past the first `SAME_NAME` of one simple name (overloads count once) lose rank, and
/// the list is sorted again.
fn spread_names(ranked: &mut [Ranked]) {
    let mut seen: HashMap<&str, usize> = HashMap::new();
    let mut qnames: HashSet<&str> = HashSet::new();
    let mut past: Vec<usize> = Vec::new();
    for (i, r) in ranked.iter().enumerate() {
        if !qnames.insert(&r.s.qname) {
            continue;
        }
        let n = seen.entry(&r.s.name).or_default();
        *n += 1;
        if *n > SAME_NAME {
            past.push(i);
        }
    }
    for i in past {
        ranked[i].rank *= SAME_NAME_SHARE;
    }
    sort(ranked);
}

/// The named area first, then the best rank; among equals the more referenced, then the
/// fused score, then by name.
fn sort(ranked: &mut [Ranked]) {
    ranked.sort_by(|a, b| {
        b.in_area
            .cmp(&a.in_area)
            .then(b.rank.partial_cmp(&a.rank).unwrap_or(std::cmp::Ordering::Equal))
            .then(b.fan_in.cmp(&a.fan_in))
            .then(b.fused.partial_cmp(&a.fused).unwrap_or(std::cmp::Ordering::Equal))
            .then(a.s.qname.cmp(&b.s.qname))
    });
}

/// A member written in a sentence as `Owner.member` (`Elements.before(Node)`, `text()`): its
/// owner, its name, and the parameter types written in its parentheses, if any (`Node`,
/// `String,int`; empty for `()`).
#[derive(Debug, PartialEq, Eq)]
struct WrittenMember {
    owner: String,
    member: String,
    params: Option<String>,
}

/// The members a sentence writes as `Owner.member`, `Owner#member` or `Owner::member`.
fn qualified_pairs(query: &str) -> Vec<WrittenMember> {
    let mut out = Vec::new();
    for chunk in query.split_whitespace() {
        let (head, call) = match chunk.split_once('(') {
            Some((head, rest)) => (head, rest.split_once(')').map(|(inside, _)| inside)),
            None => (chunk, None),
        };
        let inner = head.trim_matches(|c: char| !c.is_alphanumeric());
        let parts: Vec<&str> = inner.split(['.', '#', ':']).filter(|p| !p.is_empty()).collect();
        if let [.., owner, member] = parts.as_slice() {
            if owner.chars().next().is_some_and(char::is_uppercase) && member.chars().all(|c| c.is_alphanumeric() || c == '_') {
                // `(Node node, int i)` -> `Node,int`: the types, as the index keeps a Java
                // callable's erased parameters.
                let params = call.map(|inside| inside.split(',').filter_map(|p| p.split_whitespace().next()).collect::<Vec<_>>().join(","));
                out.push(WrittenMember { owner: owner.to_string(), member: member.to_string(), params });
            }
        }
    }
    out
}

/// The FTS5 expression matching any term's stem as a word prefix, in these columns.
fn any_term(terms: &[Term], columns: &str) -> String {
    let alternatives: Vec<String> = terms.iter().map(|t| format!("\"{}\"*", t.stem)).collect();
    format!("{{{columns}}} : ({})", alternatives.join(" OR "))
}

/// How much a kind of declaration counts: what a developer reads first (types, methods,
/// functions) over the parts they hold. On the parent's index of 200 commits
/// (`bench/search_intent.py --parent`, with every field's own rarity), constructors 0.6 /
/// 0.8 and fields, constants and variants 0.5 / 0.7: jsoup 0.1185 -> 0.1207 -> 0.1217,
/// ripgrep 0.0989 -> 0.0989 -> 0.0989 (MRR 0.3977 -> 0.4300).
fn kind_prior(kind: SymbolKind) -> f64 {
    use SymbolKind::*;
    match kind {
        Class | Interface | Enum | Record | Struct | Union | Trait | Method | Function | Macro | Endpoint => 1.0,
        // Named like its class, which is the better handle.
        Constructor => 0.8,
        Module | Package | Annotation | TypeAlias => 0.8,
        _ => 0.7,
    }
}

/// The terms a symbol's name, owner, doc and path (folders, file name, module) hold, by
/// field (indexes into `terms`), then those the subjects of the commits that changed it
/// hold, those the names of what it uses hold and those its literals and comments hold.
fn matched(s: &SymbolInfo, terms: &[Term], history: &[usize], uses: &[usize], text: &[usize]) -> [Vec<usize>; 7] {
    let owner = owner_name(&s.qname);
    let path = s.path.rsplit_once('.').map_or(s.path.as_str(), |(p, _)| p);
    [
        terms_in_texts(&[&s.name], terms),
        terms_in_texts(&[owner], terms),
        terms_in_texts(&[&s.doc], terms),
        terms_in_texts(&[path, &s.qname], terms),
        history.to_vec(),
        uses.to_vec(),
        text.to_vec(),
    ]
}

/// The simple name of what holds a declaration: `Order` of `com.acme.Order#total`,
/// `Inventory` of `shop::inventory::Inventory::reserve`, the package of a top-level class.
fn owner_name(qname: &str) -> &str {
    let head = match qname.rsplit_once('#') {
        Some((owner, _)) => owner,
        None => match qname.rsplit_once("::") {
            Some((owner, _)) => owner,
            None => qname.rsplit_once('.').map_or("", |(owner, _)| owner),
        },
    };
    head.rsplit(['.', ':']).next().unwrap_or(head)
}

/// Test code: in a test folder or file, or in a Rust `tests` module.
/// The endpoints among `symbols` that a test declares (their parent is test code): axum's
/// tests build routers whose handlers are closures.
fn test_endpoints<'a>(store: &Store, symbols: impl Iterator<Item = &'a SymbolInfo>) -> Result<HashSet<i64>, ToolError> {
    let endpoints: Vec<(i64, i64)> = symbols.filter(|s| s.kind == SymbolKind::Endpoint).filter_map(|s| Some((s.id, s.parent?))).collect();
    let parents: Vec<i64> = endpoints.iter().map(|(_, p)| *p).collect();
    let tests: HashSet<i64> = store.symbols_by_ids(&parents)?.into_iter().filter(is_test).map(|p| p.id).collect();
    Ok(endpoints.into_iter().filter(|(_, p)| tests.contains(p)).map(|(id, _)| id).collect())
}

/// An endpoint is test code when what serves it is (`GET /one/{a} -> axum::..::tests::..`).
fn is_test(s: &SymbolInfo) -> bool {
    let served_by = if s.kind == SymbolKind::Endpoint { s.signature.split_once(" -> ").map_or("", |(_, handler)| handler) } else { "" };
    is_test_path(&s.path) || s.qname.contains("::tests::") || served_by.contains("::tests::")
}

/// BM25's length norm with its usual `b`, for the text field, never above 1: a declaration
/// whose literals and comments are `len` words long, where those matching the sentence are
/// `mean` long on average. On the 64 labelled tasks (`bench/search_tasks.py`), b = 0 / 0.5 /
/// 0.75 / 1.0: P@10 0.1656 / 0.1703 / 0.1719 / 0.1734, MRR 0.4663 / 0.4782 / 0.4863 /
/// 0.4828; the usual 0.75 kept, not tuned further.
const TEXT_LENGTH_B: f64 = 0.75;

fn length_scale(len: f64, mean: f64) -> f64 {
    (1.0 / (1.0 - TEXT_LENGTH_B + TEXT_LENGTH_B * len / mean)).min(1.0)
}

/// What plumbing's rank is multiplied by (`is_plumbing`). On the 64 labelled tasks, 1 / 0.7 /
/// 0.5 / 0.3: P@10 0.1953 / 0.1984 / 0.1984 / 0.1984, MRR 0.5669 / 0.5873 / 0.5951 / 0.5951
/// (Java's two repositories move; Rust names no accessor `get_`).
const PLUMBING_PRIOR: f64 = 0.5;

/// A method that only hands a value over or prints its object (an accessor of one to three
/// lines: `getName`, `setName`, `isEnabled`; `toString`, `hashCode`, `equals`, and their
/// Rust counterparts in trait impls: `fmt`, `clone`, `eq`, `hash`), or a query builder's
/// generated criterion (`andPaymentTimeIn` of MyBatis's `GeneratedCriteria`): the field or
/// type it serves is the better answer. Rust's four (seen: a `Display` impl printing a
/// route's query parameters in the first ten of two of axum's tasks): on the 64 labelled
/// tasks P@10 0.2219 -> 0.2234, R@10 0.3629 -> 0.3661, MRR 0.5602 -> 0.5596 (one more hit,
/// on ripgrep); ripgrep's commits (`--parent`) P@10 0.0922 both.
fn is_plumbing(s: &SymbolInfo) -> bool {
    if s.kind != SymbolKind::Method {
        return false;
    }
    let name = s.name.as_str();
    let short = s.end_line.saturating_sub(s.start_line) <= 2;
    let accessor = ["get", "set", "is"].iter().any(|p| name.strip_prefix(p).is_some_and(|rest| rest.starts_with(char::is_uppercase)));
    let printed = match s.language {
        crate::model::Language::Rust => matches!(name, "fmt" | "clone" | "eq" | "hash"),
        _ => matches!(name, "toString" | "hashCode" | "equals"),
    };
    accessor && short || printed || owner_name(&s.qname).ends_with("Criteria")
}

/// Code that shows or measures the library rather than being it: an `examples` or
/// `benches` folder (Cargo's targets, and the same folders elsewhere).
fn is_example(path: &str) -> bool {
    path.split('/').rev().skip(1).any(|dir| matches!(dir, "examples" | "example" | "benches" | "bench"))
}

/// The words of a symbol's place: its folders, file name and qualified name.
fn place_words(s: &SymbolInfo) -> Vec<String> {
    let place = format!("{} {}", s.path.rsplit_once('.').map_or(s.path.as_str(), |(p, _)| p), s.qname);
    words_of(&place)
}

/// How long each symbol is in the full-text index, and its literals and comments (`text_fts`).
pub(super) struct Lengths {
    symbols: Arc<crate::store::DocLengths>,
    text: crate::store::DocLengths,
}

/// How far what a declaration's history, uses and text add (beyond its name, owner, doc and
/// path) can go: `x` saturates at `BAG_SATURATION`, as BM25 saturates a word's frequency. A
/// long function that uses or mentions something of every word (ripgrep's
/// `HiArgs::from_low_args`, axum's `serve::handle_connection`) no longer outranks one named
/// by three of them. On the 64 labelled tasks, without / 0.5 / 1 / 2 / 3: P@10 0.1891 /
/// 0.1859 / 0.1906 / 0.1922 / 0.1906, MRR 0.5248 / 0.5049 / 0.5096 / 0.5281 / 0.5309; with
/// the bridges' gap, 2 / 3 / 4: P@10 0.2125 / 0.2094 / 0.2109, and ripgrep's commits
/// (`bench/search_intent.py --parent`) 0.0900 / 0.0911 / 0.0911 (0.0922 without it): 3 kept,
/// for the commits.
const BAG_SATURATION: f64 = 3.0;

fn saturate(x: f64) -> f64 {
    BAG_SATURATION * (1.0 - (-x / BAG_SATURATION).exp())
}

/// How well a symbol covers the sentence: each term once (a word and the words bridged to it
/// once, the best of them), by its weight in the field (see `field_weights`), where it counts
/// most (in the name 1, its literals and comments 0.7, its history 0.6, what it uses 0.6, the
/// owner's name 0.7, the path 0.4, the doc 0.3); what the history, uses and text add beyond
/// the other fields saturates (`saturate`).
fn coverage(m: &[Vec<usize>; 7], weights: &[Vec<f64>; 7], text_scale: f64, terms: &[Term]) -> f64 {
    let field = [1.0, OWNER_FIELD, 0.3, 0.4, HISTORY_FIELD, USES_FIELD, TEXT_FIELD * text_scale];
    // A word and the words bridged to it count once: the best of them.
    let mut strong = vec![0.0f64; terms.len()];
    let mut best = vec![0.0f64; terms.len()];
    for t in 0..terms.len() {
        let here = (0..7).filter(|&f| m[f].contains(&t)).map(|f| field[f] * weights[f][t]).fold(0.0, f64::max);
        let named = (0..4).filter(|&f| m[f].contains(&t)).map(|f| field[f] * weights[f][t]).fold(0.0, f64::max);
        let at = terms[t].source(t);
        best[at] = best[at].max(here);
        strong[at] = strong[at].max(named);
    }
    let strong_sum: f64 = strong.iter().sum();
    let bag: f64 = best.iter().sum::<f64>() - strong_sum;
    strong_sum + saturate(bag)
}

/// Each term's weight in each field of `matched`: its rarity among names (`weights`) for the
/// name, owner, doc and path; for the history, uses and text, the geometric mean of that and
/// its rarity in the field itself (how many declarations the field holds it for, of `all`).
/// `string` is a rare word among jsoup's names but in what half its methods use: there it
/// says little. On the parent's index of 200 commits (`bench/search_intent.py --parent`),
/// P@10 with names' rarity alone / the geometric mean / the field's alone: jsoup 0.1130 /
/// 0.1185 / 0.1152, ripgrep 0.0956 / 0.0989 / 0.0967; on the 200 commits before those,
/// jsoup 0.0771 / 0.0779 / 0.0764, ripgrep 0.0718 / 0.0718 / 0.0732.
fn field_weights(weights: &[f64], all: f64, top_weight: f64, fields: [&HashMap<i64, Vec<usize>>; 3]) -> [Vec<f64>; 7] {
    let own = |field: &HashMap<i64, Vec<usize>>| -> Vec<f64> {
        let mut df = vec![0usize; weights.len()];
        for &i in field.values().flatten() {
            df[i] += 1;
        }
        (0..weights.len()).map(|i| (weights[i] * rarity(all, df[i] as f64) / top_weight).sqrt()).collect()
    };
    let [history, uses, text] = fields;
    [weights.to_vec(), weights.to_vec(), weights.to_vec(), weights.to_vec(), own(history), own(uses), own(text)]
}

/// How rare a word is among `all` declarations when `df` of them hold it (an inverse document
/// frequency kept at 0.5 or more, so the commonest word of a repository still counts).
fn rarity(all: f64, df: f64) -> f64 {
    (1.0 + all / (1.0 + df)).ln().max(0.5)
}

/// `name: redirect, url; doc: host`.
fn why(m: &[Vec<usize>; 7], terms: &[Term]) -> String {
    let mut parts = Vec::new();
    for (field, hit) in ["name", "owner", "doc", "path", "commits", "uses", "text"].iter().zip(m) {
        // The path holds the name: only what the name and owner do not.
        let hit: Vec<usize> =
            if *field == "path" { hit.iter().copied().filter(|i| !m[0].contains(i) && !m[1].contains(i)).collect() } else { hit.clone() };
        if !hit.is_empty() {
            let words: Vec<&str> = hit.iter().map(|&i| terms[i].word.as_str()).collect();
            parts.push(format!("{field}: {}", words.join(", ")));
        }
    }
    parts.join("; ")
}

/// The innermost declarations each change's lines meet (a method, not its class): (commit
/// idx, symbol id), from (commit idx, path, lines as `3-5,9-9`), in path order.
fn changed_declarations(store: &Store, changes: Vec<(i64, String, String)>) -> Result<Vec<(i64, i64)>, ToolError> {
    let mut by_path: std::collections::BTreeMap<String, Vec<(i64, String)>> = Default::default();
    for (idx, path, lines) in changes {
        by_path.entry(path).or_default().push((idx, lines));
    }
    let mut out = Vec::new();
    for (path, changes) in by_path {
        let Some(file) = store.file_by_path(&path)? else { continue };
        let symbols = store.file_symbols(file.id)?;
        for (idx, lines) in changes {
            let meeting: Vec<&SymbolInfo> =
                symbols.iter().filter(|s| s.kind != SymbolKind::Package && ranges_meet(&lines, s.start_line, s.end_line)).collect();
            let inner = |s: &SymbolInfo| {
                !meeting.iter().any(|o| {
                    o.id != s.id
                        && o.start_line >= s.start_line
                        && o.end_line <= s.end_line
                        && (o.start_line, o.end_line) != (s.start_line, s.end_line)
                })
            };
            out.extend(meeting.iter().filter(|s| inner(s)).map(|s| (idx, s.id)));
        }
    }
    Ok(out)
}

/// The declarations a field (terms by declaration) holds two of the sentence's words for (one
/// for a one-word sentence), best covered first, at most `depth`.
fn joining(field: &HashMap<i64, Vec<usize>>, weights: &[f64], depth: usize) -> Vec<i64> {
    let need = weights.len().min(2);
    let mut listed: Vec<(f64, i64)> =
        field.iter().filter(|(_, m)| m.len() >= need).map(|(id, m)| (m.iter().map(|&i| weights[i]).sum(), *id)).collect();
    listed.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap_or(std::cmp::Ordering::Equal).then(a.1.cmp(&b.1)));
    listed.into_iter().take(depth).map(|(_, id)| id).collect()
}

/// What sentence search reads of the stored history, kept until the index or the history
/// changes: each commit's subject as words, newest first; the innermost declarations each
/// changed (same order), and whether it was wide; the declarations the newest commits
/// changed.
pub(super) struct HistoryWords {
    subjects: Vec<(i64, Vec<String>)>,
    changed: Vec<Vec<i64>>,
    wide: Vec<bool>,
    recent: HashSet<i64>,
}

impl HistoryWords {
    fn read(store: &Store) -> Result<Self, ToolError> {
        let subjects: Vec<(i64, Vec<String>)> =
            store.commit_subjects()?.into_iter().map(|(idx, subject)| (idx, words_of(&subject))).collect();
        let position: HashMap<i64, usize> = subjects.iter().enumerate().map(|(i, (idx, _))| (*idx, i)).collect();
        let idxs: Vec<i64> = subjects.iter().map(|(idx, _)| *idx).collect();
        let changes = store.changed_lines_of(&idxs)?;
        let mut width = vec![0usize; subjects.len()];
        for (idx, _, _) in &changes {
            if let Some(&at) = position.get(idx) {
                width[at] += 1;
            }
        }
        let mut changed = vec![Vec::new(); subjects.len()];
        for (idx, id) in changed_declarations(store, changes)? {
            if let Some(&at) = position.get(&idx) {
                changed[at].push(id);
            }
        }
        let wide: Vec<bool> = width.iter().map(|&w| w > WIDE_COMMIT).collect();
        let recent = (0..subjects.len().min(RECENT_COMMITS)).filter(|&c| !wide[c]).flat_map(|c| changed[c].iter().copied()).collect();
        Ok(HistoryWords { subjects, changed, wide, recent })
    }
}

/// The terms each commit's subject holds (indexes into `terms`), in `subjects` order.
fn subject_terms(history: &HistoryWords, terms: &[Term]) -> Vec<Vec<usize>> {
    history.subjects.iter().map(|(_, words)| terms_in(words, terms)).collect()
}

/// For each declaration a stored commit changed, the terms the subjects of those commits
/// hold (a history searched as one more field; wide commits left out), with those of the
/// past commits that lend it (which may be wide).
fn commit_words(history: &HistoryWords, in_subject: &[Vec<usize>], past: &HashMap<i64, (f64, Vec<usize>)>) -> HashMap<i64, Vec<usize>> {
    let mut bag: HashMap<i64, Vec<usize>> = HashMap::new();
    for (c, found) in in_subject.iter().enumerate() {
        if found.is_empty() || history.wide[c] {
            continue;
        }
        for id in &history.changed[c] {
            bag.entry(*id).or_default().extend(found);
        }
    }
    for (id, (_, m)) in past {
        bag.entry(*id).or_default().extend(m);
    }
    settle(&mut bag);
    bag
}

/// The terms a field holds for a declaration (none when it holds none).
fn terms_of(field: &HashMap<i64, Vec<usize>>, id: i64) -> &[usize] {
    field.get(&id).map_or(&[], Vec::as_slice)
}

/// Each declaration's terms in order, once each.
fn settle(field: &mut HashMap<i64, Vec<usize>>) {
    for found in field.values_mut() {
        found.sort_unstable();
        found.dedup();
    }
}

/// The terms (indexes into `terms`) each declaration's string literals and comments hold.
fn text_words(store: &Store, terms: &[Term]) -> Result<HashMap<i64, Vec<usize>>, ToolError> {
    let mut text: HashMap<i64, Vec<usize>> = HashMap::new();
    for (i, t) in terms.iter().enumerate() {
        for id in store.text_matches(&t.stem, TEXT_MATCHES)? {
            text.entry(id).or_default().push(i);
        }
    }
    Ok(text)
}

/// A sentence's terms (bridged) with their weights (`weigh`), the number of declarations and
/// the largest weight before scaling.
struct Weighed {
    terms: Vec<Term>,
    weights: Vec<f64>,
    all: f64,
    top_weight: f64,
}

/// The sentence's terms, bridged where the repository's names hardly use a word
/// (`BRIDGE_GAP`), each weighed by its inverse document frequency among names, scaled so the
/// heaviest is 1 and the commonest word of the repository still counts (`map` in java.base);
/// a bridged word weighs its share of the word it stands for, and never more. None when no
/// word is left.
fn weigh(store: &Store, query: &str) -> Result<Option<Weighed>, ToolError> {
    // How many declarations' names hold each word (its stem as a prefix).
    let mut held: HashMap<String, f64> = HashMap::new();
    let mut df = |stem: &str| -> Result<f64, ToolError> {
        if let Some(n) = held.get(stem) {
            return Ok(*n);
        }
        let n = store.fts_count(&format!("words : \"{stem}\"*"))? as f64;
        held.insert(stem.to_string(), n);
        Ok(n)
    };
    let all = store.symbol_count()?.max(1) as f64;
    let own = terms(query);
    // Only a word the repository's names hardly use is bridged: where they use it, it is
    // their word for the thing.
    let mut rare: HashSet<String> = HashSet::new();
    for t in &own {
        if df(&t.stem)? < BRIDGE_GAP * all {
            rare.insert(t.stem.clone());
        }
    }
    let terms = bridged(own, |t| rare.contains(&t.stem));
    if terms.is_empty() {
        return Ok(None);
    }
    let mut weights = Vec::with_capacity(terms.len());
    for t in &terms {
        weights.push(rarity(all, df(&t.stem)?));
    }
    for i in 0..terms.len() {
        if let Some((of, share)) = terms[i].of {
            weights[i] = weights[i].min(weights[of]) * share;
        }
    }
    let top_weight = weights.iter().copied().fold(0.0, f64::max).max(1e-9);
    for w in &mut weights {
        *w /= top_weight;
    }
    Ok(Some(Weighed { terms, weights, all, top_weight }))
}

/// How deep each ranked list of candidates goes.
const DEPTH: usize = 200;

/// What a sentence names as code: the members it writes as `Owner.member`, and the types it
/// writes by name (`StreamParser`, `W3CDom`) as qualified names; and the members it writes
/// that a type of the repository does not have (`WalkBuilder::skip_hidden_files`).
#[derive(Default)]
struct Named {
    members: HashSet<i64>,
    types: Vec<String>,
    missing: Vec<String>,
}

impl Named {
    /// Whether a declaration is inside a type the sentence names (nested types' members too).
    fn holds(&self, qname: &str) -> bool {
        self.types.iter().any(|t| qname.strip_prefix(t.as_str()).is_some_and(|rest| rest.starts_with(['#', '.']) || rest.starts_with("::")))
    }
}

/// The chunks of a sentence written as one type-like identifier (`StreamParser`, `ConnectIT`,
/// `` `GlobSetBuilder` ``): capitalised and written as code, so not `Simplify` or `HTTP`.
fn type_names(query: &str) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    for chunk in query.split_whitespace() {
        let inner = chunk.trim_matches(|c: char| !c.is_alphanumeric());
        if inner.chars().next().is_some_and(char::is_uppercase)
            && inner.chars().all(char::is_alphanumeric)
            && is_code(inner)
            && !out.contains(&inner)
        {
            out.push(inner);
        }
    }
    out
}

/// BM25's weights of the full-text columns (words, owner, doc, place) in the search of
/// every field, and in the searches of names alone (the other columns left out).
const EVERY_FIELD: [Option<f64>; 4] = [Some(4.0), Some(1.0), Some(1.0), Some(0.5)];
const NAMES_ONLY: [Option<f64>; 4] = [Some(1.0), None, None, None];

/// The sentence's words searched in the full-text index in one pass (`Store::fts_collect`),
/// ranked as three searches of their own would rank them (`Collected::best`): `(every field,
/// names alone, each word in names)`. The first two are `word_matches`' first lists (at most
/// `DEPTH` each), the last what `uses` follows (at most `USED_NAMES` a word).
struct WordLists {
    every_field: Vec<i64>,
    in_names: Vec<i64>,
}

/// The words' pass over `terms[from..to]`: an expression of them all (every column) and how
/// many phrases it has.
fn pass_of(terms: &[Term], from: usize, to: usize) -> (String, usize) {
    (any_term(&terms[from..to], "words owner doc place"), to - from)
}

/// The words' lists from their pass (`WordLists`); each word's names go to `per_word` as soon
/// as they are ranked, for `uses` on the other connection.
fn word_lists(collected: &Collected, per_word: impl FnOnce(Vec<Vec<i64>>)) -> WordLists {
    let phrases: Vec<usize> = (0..collected.phrases).collect();
    per_word(collected.best_each(&NAMES_ONLY, USED_NAMES));
    WordLists { every_field: collected.best(&phrases, &EVERY_FIELD, DEPTH), in_names: collected.best(&phrases, &NAMES_ONLY, DEPTH) }
}

/// The candidates the sentence's words find, fused (reciprocal ranks): the words anywhere
/// (names count most), the words in names alone (both from `word_lists`), each word
/// as a whole name (`cache` -> `Cache`), each member the sentence names as `Owner.member`
/// and the members of each type it names; with what it names.
fn word_matches(store: &Store, terms: &[Term], query: &str, found: WordLists) -> Result<(HashMap<i64, f64>, Named), ToolError> {
    // (weight, ranked ids)
    let mut clock = Clock::start();
    let mut lists: Vec<(f64, Vec<i64>)> = vec![(3.0, found.every_field), (2.0, found.in_names)];
    let mut rest: Vec<(f64, Vec<i64>)> = Vec::new();
    for t in terms.iter().filter(|t| t.word.len() >= 4 && t.of.is_none()) {
        rest.push((1.0, store.names_like(&t.word, false, 20)?));
    }
    clock.mark("names");
    // `Elements.before(Node)`: the member of that owner, which the sentence names.
    let mut named = Named::default();
    for written in qualified_pairs(query) {
        let ids: Vec<i64> = store.names_like(&written.member, false, 200)?;
        let mut found: Vec<SymbolInfo> =
            store.symbols_by_ids(&ids)?.into_iter().filter(|s| owner_name(&s.qname) == written.owner).collect();
        // `Element.text()`: the overload written, when one has those parameters.
        if let Some(params) = &written.params {
            if found.iter().any(|s| s.params.as_deref() == Some(params.as_str())) {
                found.retain(|s| s.params.as_deref() == Some(params.as_str()));
            }
        }
        let found: Vec<i64> = found.into_iter().map(|s| s.id).collect();
        // A type of the repository without that member: say so (a type outside it, such as
        // `Command::current_dir`, is not the index's to deny).
        if found.is_empty() && !store.types_named(&written.owner)?.is_empty() {
            named.missing.push(format!("{} has no member {}", written.owner, written.member));
        }
        named.members.extend(&found);
        rest.push((4.0, found));
    }
    // `Make progressive StreamParser selections emission-aware`: what the type holds.
    for name in type_names(query) {
        for t in store.symbols_by_ids(&store.types_named(name)?)? {
            rest.push((1.0, store.ids_inside(&t.qname, DEPTH)?));
            named.types.push(t.qname);
        }
    }
    clock.mark("named");
    lists.extend(rest);
    tracing::debug!("sentence words: {}", clock.summary());
    let mut score: HashMap<i64, f64> = HashMap::new();
    for (weight, list) in &lists {
        for (rank, id) in list.iter().enumerate() {
            *score.entry(*id).or_default() += weight / (60.0 + rank as f64);
        }
    }
    Ok((score, named))
}

/// The declarations referencing each symbol (imports left out), for the `uses` field, read
/// once per index generation (`Store::symbol_users`). Asked of SQL for
/// each sentence, the users of a sentence's named symbols took 8-17 ms on `java.base` (the
/// reference rows of about 2,500 symbols, each row read for its declaration).
pub(super) struct Users {
    /// Each symbol's users, and the ranking's fan-in, read with them rather than asked of
    /// SQL for each sentence (4-5 ms of a sentence's 650 candidates on `java.base`).
    lists: UserLists,
}

impl Users {
    /// How many references a symbol has, imports left out.
    fn fan_in(&self, id: i64) -> usize {
        let fan_in = &self.lists.fan_in;
        fan_in.binary_search_by_key(&id, |&(s, _)| s).map_or(0, |i| fan_in[i].1 as usize)
    }

    /// (user, symbol) pairs for these symbols, each once.
    fn of(&self, ids: &[i64]) -> Vec<(i64, i64)> {
        let mut out = Vec::new();
        for &id in ids {
            let UserLists { symbols, starts, users, .. } = &self.lists;
            if let Ok(i) = symbols.binary_search(&id) {
                let users = &users[starts[i] as usize..starts[i + 1] as usize];
                out.extend(users.iter().map(|&u| (u, id)));
            }
        }
        out
    }
}

impl Atlas {
    /// The symbols' users for the `uses` field, once per index generation.
    pub(super) fn symbol_users(&self, store: &Store) -> Result<Arc<Users>, ToolError> {
        super::per_generation(store, &self.symbol_users, || {
            let started = std::time::Instant::now();
            let mut rows = self.users_rows.lock().expect("users cache lock");
            store.snapshot(|store| rows.update(store, &store.stamp()?, &store.graph_files()?))?;
            let users = Users { lists: rows.merged() };
            tracing::debug!(ms = started.elapsed().as_millis() as u64, pairs = users.lists.users.len(), "symbols' users read");
            Ok(users)
        })
    }

    /// Every symbol's length in the full-text index, which ranking its matches reads
    /// (`store::rank`), and the length of each one's literals and comments, once per index
    /// generation.
    pub(super) fn doc_lengths(&self, store: &Store) -> Result<Arc<Lengths>, ToolError> {
        super::per_generation(store, &self.doc_lengths, || {
            let started = std::time::Instant::now();
            let lengths = Lengths { symbols: Arc::new(store.doc_lengths()?), text: store.text_lengths()? };
            tracing::debug!(
                ms = started.elapsed().as_millis() as u64,
                rows = lengths.symbols.len() + lengths.text.len(),
                kb = (lengths.symbols.bytes() + lengths.text.bytes()) / 1024,
                "symbols' lengths read"
            );
            Ok(lengths)
        })
    }

    /// The stored history as sentence search reads it; None when history is not read (no
    /// git, disabled, or still reading).
    fn history_words(&self, store: &Store) -> Result<Option<Arc<HistoryWords>>, ToolError> {
        if !self.history(store)?.is_ready() {
            return Ok(None);
        }
        let key = (store.stamp()?, store.meta(crate::store::HISTORY_HEAD)?.unwrap_or_default());
        let mut slot = self.history_words.lock().expect("history words lock");
        if let Some((k, words)) = slot.as_ref() {
            if *k == key {
                return Ok(Some(words.clone()));
            }
        }
        let words = Arc::new(HistoryWords::read(store)?);
        *slot = Some((key, words.clone()));
        Ok(Some(words))
    }

    /// What each declaration uses, as the terms (indexes into `terms`) the names of what it
    /// references hold: the `USED_NAMES` symbols each word names best (by the words of their
    /// names), and every external whose simple name holds one (`java.net.http.HttpClient`).
    fn uses(&self, store: &Store, terms: &[Term], per_word: Vec<Vec<i64>>) -> Result<HashMap<i64, Vec<usize>>, ToolError> {
        let mut named: HashMap<i64, Vec<usize>> = HashMap::new();
        for (i, ids) in per_word.into_iter().enumerate() {
            for id in ids {
                named.entry(id).or_default().push(i);
            }
        }
        let ids: Vec<i64> = named.keys().copied().collect();
        let mut uses: HashMap<i64, Vec<usize>> = HashMap::new();
        for (user, id) in self.symbol_users(store)?.of(&ids) {
            // A recursive call says nothing its own name does not.
            if user != id {
                uses.entry(user).or_default().extend(&named[&id]);
            }
        }
        let externals = super::per_generation(store, &self.external_words, || {
            Ok(store
                .externals()?
                .into_iter()
                .map(|(id, qname)| {
                    let simple = qname.rsplit(['.', ':']).next().unwrap_or(&qname);
                    (id, words_of(simple))
                })
                .collect())
        })?;
        let named: HashMap<i64, Vec<usize>> =
            externals.iter().map(|(id, words)| (*id, terms_in(words, terms))).filter(|(_, found)| !found.is_empty()).collect();
        let ids: Vec<i64> = named.keys().copied().collect();
        for (user, id) in store.declarations_using_externals(&ids)? {
            uses.entry(user).or_default().extend(&named[&id]);
        }
        settle(&mut uses);
        Ok(uses)
    }

    /// The declarations past commits about the sentence's words changed: for each, the
    /// relevance of the best such commit (the share of the sentence's weight its subject
    /// holds: 1 when it holds every word) and the terms its subject holds. A commit counts
    /// when its subject holds two of the words (one for a one-word sentence), scored by the
    /// words' rarity among subjects; it lends the innermost declarations its changed lines
    /// meet (lines as `HEAD` has them). The share is of the whole sentence, not of the best
    /// commit's score: the best of poor matches ("error" and "stack" of "Error vs throw if the
    /// insert after el was no longer on the stack") lends little. On the parent's index of 200
    /// commits (`bench/search_intent.py --parent`), P@10 relative to the best / share: jsoup
    /// 0.1011 / 0.1043, ripgrep 0.0833 / 0.0867; on the 200 commits before those, jsoup 0.0621
    /// / 0.0664, ripgrep 0.0676 / 0.0676 (MRR on ripgrep 0.3668 -> 0.3235, 0.2919 -> 0.2731).
    fn past_commits(history: &HistoryWords, in_subject: &[Vec<usize>], terms: &[Term]) -> HashMap<i64, (f64, Vec<usize>)> {
        // The sentence's own words only: a subject is the project's words, as a task's are.
        let n = in_subject.len() as f64;
        let weights: Vec<f64> = (0..terms.len())
            .map(|i| {
                let df = in_subject.iter().filter(|m| m.contains(&i)).count() as f64;
                if terms[i].of.is_some() {
                    0.0
                } else {
                    (1.0 + n / (1.0 + df)).ln()
                }
            })
            .collect();
        let need = terms.iter().filter(|t| t.of.is_none()).count().min(2);
        let in_subject: Vec<Vec<usize>> =
            in_subject.iter().map(|m| m.iter().copied().filter(|&i| terms[i].of.is_none()).collect()).collect();
        let mut scored: Vec<(f64, i64, usize)> = in_subject
            .iter()
            .enumerate()
            .filter(|(_, m)| m.len() >= need)
            .map(|(c, m)| (m.iter().map(|&i| weights[i]).sum(), history.subjects[c].0, c))
            .collect();
        scored.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap_or(std::cmp::Ordering::Equal).then(b.1.cmp(&a.1)));
        scored.truncate(PAST_COMMITS);
        let mut out: HashMap<i64, (f64, Vec<usize>)> = HashMap::new();
        let whole: f64 = weights.iter().sum();
        if whole <= 0.0 {
            return out;
        }
        for (score, _, c) in scored {
            let relevance = score / whole;
            for id in &history.changed[c] {
                let entry = out.entry(*id).or_insert((0.0, Vec::new()));
                if relevance > entry.0 {
                    *entry = (relevance, in_subject[c].clone());
                }
            }
        }
        out
    }

    /// The words' matches (`word_matches`) on this connection while another reads the
    /// declarations' text (`text_words`) and then what they use (`uses`), from the names
    /// each word holds: they do not depend on each other, and a server has a second core.
    /// The words' pass over the index is split between the two connections (the first half
    /// of the words here, the rest there), and its halves merged here (`Collected::merge`).
    /// On `java.base`, 30 sentences three times each: p50 28.9-30.5 -> 25.4-26.0 ms with the
    /// last two on the second connection, the same answers; the words' pass in `search.md`.
    #[allow(clippy::type_complexity)]
    fn words_uses_and_text(
        &self,
        store: &Store,
        terms: &[Term],
        lengths: &Arc<crate::store::DocLengths>,
        query: &str,
    ) -> Result<((HashMap<i64, f64>, Named), HashMap<i64, Vec<usize>>, HashMap<i64, Vec<usize>>), ToolError> {
        let failed = || ToolError("reading what declarations use failed (a thread panicked)".to_string());
        let split = terms.len().div_ceil(2);
        let (half_tx, half_rx) = std::sync::mpsc::channel::<Result<Collected, ToolError>>();
        let (names_tx, names_rx) = std::sync::mpsc::channel::<Vec<Vec<i64>>>();
        let (words, side) = std::thread::scope(|scope| {
            let side = scope.spawn(move || -> Result<_, ToolError> {
                let mut clock = Clock::start();
                let other = match self.store() {
                    Ok(other) => other,
                    Err(e) => {
                        let _ = half_tx.send(Err(ToolError(e.0.clone())));
                        return Err(e);
                    }
                };
                other.use_doc_lengths(Some(lengths.clone()));
                // A sentence of one word has no second half: an empty pass.
                let (expression, phrases) = pass_of(terms, split, terms.len());
                let _ = half_tx.send(other.fts_collect(&expression, phrases).map_err(ToolError::from));
                other.use_doc_lengths(None);
                clock.mark("pass");
                let text = text_words(&other, terms);
                clock.mark("text");
                // The words' pass failed when its sender is gone unsent: its error is the one said.
                let uses = match names_rx.recv() {
                    Ok(per_word) => {
                        clock.mark("waited for names");
                        self.uses(&other, terms, per_word)
                    }
                    Err(_) => Ok(HashMap::new()),
                };
                clock.mark("uses");
                self.pool.lock().expect("pool lock").push(other);
                tracing::debug!("sentence side: {}", clock.summary());
                Ok((uses?, text?))
            });
            let mut clock = Clock::start();
            store.use_doc_lengths(Some(lengths.clone()));
            let (expression, phrases) = pass_of(terms, 0, split);
            let mine = store.fts_collect(&expression, phrases).map_err(ToolError::from);
            store.use_doc_lengths(None);
            clock.mark("pass");
            let collected = mine.and_then(|mine| Ok(mine.merge(half_rx.recv().unwrap_or_else(|_| Err(failed()))?)));
            clock.mark("waited, merged");
            // The sender goes with the closure: if the pass failed, the other side's wait
            // ends here.
            let lists = collected.map(|collected| {
                let lists = word_lists(&collected, move |per_word| {
                    let _ = names_tx.send(per_word);
                });
                clock.mark("ranked");
                tracing::debug!(rows = collected.ids.len(), "sentence pass: {}", clock.summary());
                lists
            });
            let words = lists.and_then(|lists| word_matches(store, terms, query, lists));
            (words, side.join())
        });
        let words = words?;
        let (uses, text) = side.unwrap_or_else(|_| Err(failed()))?;
        Ok((words, uses, text))
    }

    /// `search_symbols` for a sentence: see the module's header. None when no word is left
    /// to search (the name search answers then).
    pub(super) fn search_sentence(
        &self,
        store: &Store,
        query: &str,
        kind: Option<SymbolKind>,
        language: Option<&str>,
        prefix: &str,
        window: Window,
    ) -> Result<Option<String>, ToolError> {
        let mut clock = Clock::start();
        let Some(Weighed { terms, weights, all, top_weight }) = weigh(store, query)? else {
            return Ok(None);
        };
        clock.mark("weigh");
        let lengths = self.doc_lengths(store)?;
        let ((mut score, named), uses, text) = self.words_uses_and_text(store, &terms, &lengths.symbols, query)?;
        clock.mark("words, uses and text");
        let about_tests = terms.iter().any(|t| t.stem.starts_with("test"));
        let about_examples = terms.iter().any(|t| matches!(t.stem.as_str(), "exampl" | "bench" | "benchmark" | "demo" | "sampl"));
        // What past commits about these words changed (`commits: ...`), and what the newest
        // commits changed, where history is read.
        let history = self.history_words(store)?;
        let searched =
            if history.is_some() { "name, owner, doc, path, uses, text and past commits" } else { "name, owner, doc, path, uses and text" };
        let in_subject: Vec<Vec<usize>> = history.as_ref().map_or_else(Vec::new, |h| subject_terms(h, &terms));
        let past = match &history {
            Some(h) => Self::past_commits(h, &in_subject, &terms),
            None => HashMap::new(),
        };
        // Each changed declaration's words in the subjects of the commits that changed it; those
        // holding two of the words join the candidates, by their weight.
        let bag = match &history {
            Some(h) => commit_words(h, &in_subject, &past),
            None => HashMap::new(),
        };
        // And what each declaration uses, and its literals and comments; those holding two of
        // the words join too.
        clock.mark("history");
        for field in [&bag, &uses, &text] {
            for (rank, id) in joining(field, &weights, DEPTH).into_iter().enumerate() {
                *score.entry(id).or_default() += 1.0 / (60.0 + rank as f64);
            }
        }
        let by_field = field_weights(&weights, all, top_weight, [&bag, &uses, &text]);
        // Long literals and comments (a flag's page of help text) hold many of a sentence's
        // words by their length alone: their share shrinks as BM25's length norm does.
        let text_len: HashMap<i64, u32> = text.keys().filter_map(|id| Some((*id, lengths.text.get(*id)?))).collect();
        let mean_len = (text_len.values().map(|n| f64::from(*n)).sum::<f64>() / text_len.len().max(1) as f64).max(1.0);
        let text_scale = |id: i64| text_len.get(&id).map_or(1.0, |n| length_scale(f64::from(*n), mean_len));
        let no_recent = HashSet::new();
        let recent = history.as_ref().map_or(&no_recent, |h| &h.recent);
        let mut by_commit: Vec<(&i64, &(f64, Vec<usize>))> = past.iter().collect();
        by_commit.sort_by(|a, b| b.1 .0.partial_cmp(&a.1 .0).unwrap_or(std::cmp::Ordering::Equal).then(a.0.cmp(b.0)));
        for (rank, (id, _)) in by_commit.iter().enumerate() {
            *score.entry(**id).or_default() += 2.0 / (60.0 + rank as f64);
        }
        let ids: Vec<i64> = score.keys().copied().collect();
        let keep = |s: &SymbolInfo| {
            kind.is_none_or(|k| k == s.kind) && language.is_none_or(|l| l == s.language.as_str()) && s.path.starts_with(prefix)
        };
        // `ignore: skip unreachable files`: symbols in the named area come first (see
        // `sort`), when the area is a place of the repository (`feat:` or `docs:` name none).
        let area = scope(query);
        let in_area = |s: &SymbolInfo| !area.is_empty() && place_words(s).iter().any(|w| area.iter().any(|a| w.starts_with(a.as_str())));
        let candidates: Vec<(SymbolInfo, bool)> = store
            .symbols_by_ids(&ids)?
            .into_iter()
            .filter(keep)
            .map(|s| {
                let inside = in_area(&s);
                (s, inside)
            })
            .collect();
        let scoped = candidates.iter().any(|(_, inside)| *inside);
        // Endpoints declared inside a test (a test's router, its handler a closure).
        let in_tests = test_endpoints(store, candidates.iter().map(|(s, _)| s))?;
        clock.mark("candidates");
        let full: f64 = weights.iter().zip(&terms).filter(|(_, t)| t.of.is_none()).map(|(w, _)| w).sum();
        let rank = |s: &SymbolInfo, m: &[Vec<usize>; 7]| {
            let mut prior = kind_prior(s.kind);
            if !about_tests && (is_test(s) || in_tests.contains(&s.id)) || !about_examples && is_example(&s.path) {
                prior *= TEST_PRIOR;
            }
            if is_plumbing(s) {
                prior *= PLUMBING_PRIOR;
            }
            // A member the sentence names as `Owner.member` covers it whole; a member of a type
            // it names, a share of it.
            let named_bonus = if named.members.contains(&s.id) {
                full
            } else if named.holds(&s.qname) {
                NAMED_TYPE * full
            } else {
                0.0
            };
            let past_bonus = past.get(&s.id).map_or(0.0, |(relevance, _)| relevance * HISTORY_WEIGHT * full);
            if recent.contains(&s.id) {
                prior *= RECENT_PRIOR;
            }
            (coverage(m, &by_field, text_scale(s.id), &terms) + named_bonus + past_bonus) * prior
        };
        let fields_of = |s: &SymbolInfo| matched(s, &terms, terms_of(&bag, s.id), terms_of(&uses, s.id), terms_of(&text, s.id));
        let mut ranked: Vec<Ranked> = Vec::new();
        let users = self.symbol_users(store)?;
        for (s, inside) in candidates {
            let m = fields_of(&s);
            let fan_in = users.fan_in(s.id);
            ranked.push(Ranked { in_area: !scoped || inside, rank: rank(&s, &m), fan_in, fused: score[&s.id], s, m, via: None });
        }
        sort(&mut ranked);
        clock.mark("scored");
        // The graph as a ranker (`walk_rank`): a walk restarting at the best hits, over the
        // declarations around them; what it reaches adds to the rank, and declarations the
        // words did not find join with their own rank plus that.
        let walked = walk(store, &ranked)?;
        let scale = walked.values().map(|(w, _)| *w).fold(0.0, f64::max);
        if scale > 0.0 {
            let share = WALK_SHARE * full;
            for r in ranked.iter_mut() {
                if let Some((w, _)) = walked.get(&r.s.id) {
                    r.rank += share * w / scale;
                }
            }
            let known: HashSet<i64> = ranked.iter().map(|r| r.s.id).collect();
            let fresh: Vec<i64> = walked.iter().filter(|(id, (w, _))| !known.contains(id) && *w > 0.0).map(|(id, _)| *id).collect();
            for s in store.symbols_by_ids(&fresh)?.into_iter().filter(keep) {
                let m = fields_of(&s);
                let (w, via) = walked[&s.id].clone();
                let in_area = !scoped || in_area(&s);
                let own = rank(&s, &m) * WALK_OWN;
                ranked.push(Ranked { in_area, rank: own + share * w / scale, fan_in: 0, fused: 0.0, s, m, via });
            }
        }
        sort(&mut ranked);
        clock.mark("walk");
        spread_names(&mut ranked);
        // Overloads are one row: the best-ranked, with how many there are.
        let mut rows: Vec<(Ranked, usize)> = Vec::new();
        let mut at: HashMap<String, usize> = HashMap::new();
        for r in ranked {
            match at.get(&r.s.qname) {
                Some(&i) if r.s.kind.is_callable() => rows[i].1 += 1,
                _ => {
                    at.insert(r.s.qname.clone(), rows.len());
                    rows.push((r, 1));
                }
            }
        }
        let words: Vec<&str> = terms.iter().filter(|t| t.of.is_none()).map(|t| t.word.as_str()).collect();
        let related = terms.iter().filter(|t| t.of.is_some()).count();
        let related = if related > 0 { format!(", {} added", plural(related, "related word")) } else { String::new() };
        let mut out = format!(
            "{} match the words {} (a sentence: stop words dropped, words stemmed{related}; {searched} searched)\n",
            plural(rows.len(), "symbol"),
            echo(&words.join(" "))
        );
        for missing in &named.missing {
            let _ = writeln!(out, "{missing} in the index: its words are searched as the sentence's");
        }
        let total = rows.len();
        let page = rows.iter().skip(window.offset).map(|(Ranked { s, m, via, .. }, overloads)| {
            let mut row = format!(
                "{} {}  {}",
                s.kind,
                if *overloads > 1 { s.qname.clone() } else { s.signature_handle() },
                super::lines::location(s)
            );
            if *overloads > 1 {
                let _ = write!(row, " ({overloads} overloads)");
            }
            let mut matched = why(m, &terms);
            let mut add = |part: String| matched = if matched.is_empty() { part } else { format!("{matched}; {part}") };
            if recent.contains(&s.id) {
                add("changed recently".to_string());
            }
            if let Some(via) = via {
                add(format!("via {via}"));
            }
            if !matched.is_empty() {
                let _ = write!(row, "  [{matched}]");
            }
            Ok::<_, ToolError>(Row::new(row))
        });
        write_page(&mut out, page, total, window)?;
        clock.mark("page");
        tracing::debug!(candidates = ids.len(), "sentence: {}", clock.summary());
        Ok(Some(out))
    }
}

/// Where a sentence's time goes, for the debug log: each step's milliseconds.
struct Clock {
    last: std::time::Instant,
    steps: Vec<(&'static str, f64)>,
}

impl Clock {
    fn start() -> Clock {
        Clock { last: std::time::Instant::now(), steps: Vec::new() }
    }

    fn mark(&mut self, step: &'static str) {
        let now = std::time::Instant::now();
        self.steps.push((step, (now - self.last).as_secs_f64() * 1000.0));
        self.last = now;
    }

    fn summary(&self) -> String {
        self.steps.iter().map(|(step, ms)| format!("{step} {ms:.1} ms")).collect::<Vec<_>>().join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_symbols_users_are_read_from_its_run_of_pairs() {
        // (symbol, user) pairs as the store gives them: sorted, each once.
        let lists = UserLists::from_pairs(&[(3, 10), (3, 11), (5, 10), (9, 12), (9, 13), (9, 14)]);
        let users = Users { lists };
        assert_eq!(users.of(&[9, 4, 3]), [(12, 9), (13, 9), (14, 9), (10, 3), (11, 3)]);
        let users = Users { lists: UserLists { fan_in: vec![(3, 7), (5, 1), (9, 3)], ..users.lists } };
        assert_eq!([3, 4, 5, 9, 10].map(|id| users.fan_in(id)), [7, 0, 1, 3, 0]);
        assert_eq!(users.of(&[5]), [(10, 5)]);
        assert_eq!(users.of(&[1, 100]), []);
        assert_eq!(Users { lists: UserLists::from_pairs(&[]) }.of(&[1]), []);
    }

    /// A Java method of these lines, named by its qualified name.
    fn method(qname: &str, lines: (u32, u32)) -> SymbolInfo {
        SymbolInfo {
            id: 0,
            file_id: 0,
            path: String::new(),
            language: crate::model::Language::Java,
            parent: None,
            kind: SymbolKind::Method,
            name: qname.rsplit('#').next().unwrap().to_string(),
            qname: qname.to_string(),
            visibility: String::new(),
            modifiers: String::new(),
            signature: String::new(),
            doc: String::new(),
            start_line: lines.0,
            end_line: lines.1,
            params: None,
            impl_trait: None,
        }
    }

    #[test]
    fn examples_and_long_texts_weigh_less() {
        assert!(is_example("examples/todos/src/main.rs") && is_example("axum/benches/benches.rs"));
        assert!(is_example("crates/core/examples/demo.rs"));
        assert!(!is_example("axum/src/routing/mod.rs") && !is_example("src/examples.rs"));
        // Four times the mean length: a quarter of the weight and a bit more; shorter than
        // the mean: no more than its whole weight.
        assert_eq!(length_scale(40.0, 10.0), 1.0 / 3.25);
        assert_eq!(length_scale(10.0, 10.0), 1.0);
        assert_eq!(length_scale(2.0, 10.0), 1.0);
    }

    #[test]
    fn bag_fields_saturate_and_plumbing_and_tests_are_known() {
        assert_eq!(saturate(0.0), 0.0);
        assert!((saturate(3.0) - 3.0 * (1.0 - (-1.0f64).exp())).abs() < 1e-12);
        // Twenty words' worth of history, uses and text add less than three words in names.
        assert!(saturate(20.0) > 2.99 && saturate(20.0) < BAG_SATURATION && saturate(100.0) <= BAG_SATURATION);
        // An endpoint a test serves is a test (axum declares routes in its tests' routers).
        let endpoint = |signature: &str| SymbolInfo {
            kind: SymbolKind::Endpoint,
            name: "GET /one/{a}".to_string(),
            qname: "GET /one/{a}".to_string(),
            path: "axum/src/extract/path/mod.rs".to_string(),
            signature: signature.to_string(),
            ..method("x#y", (969, 969))
        };
        assert!(is_test(&endpoint("GET /one/{a} -> axum::extract::path::tests::wrong_number_of_parameters_json")));
        assert!(!is_test(&endpoint("GET /one/{a} -> axum::extract::path::handler")));
        assert!(is_plumbing(&method("a.Order#getPaymentTime", (10, 12))));
        assert!(is_plumbing(&method("a.Order#isPaid", (10, 10))));
        assert!(is_plumbing(&method("a.Order#toString", (10, 30))));
        assert!(is_plumbing(&method("a.OrderExample.GeneratedCriteria#andPaymentTimeIn", (10, 13))));
        // A getter that works, and names that only start like one, are no plumbing.
        assert!(!is_plumbing(&method("a.Order#getTotal", (10, 20))));
        assert!(!is_plumbing(&method("a.Order#settle", (10, 11))));
        assert!(!is_plumbing(&method("a.Order#issue", (10, 11))));
        // Rust's counterparts, in Rust only (a Java method may be called `fmt`).
        let rust = |qname: &str| SymbolInfo {
            language: crate::model::Language::Rust,
            name: qname.rsplit("::").next().unwrap().to_string(),
            ..method(qname, (10, 30))
        };
        assert!(is_plumbing(&rust("axum_extra::routing::typed::WithQueryParams::fmt")));
        assert!(is_plumbing(&rust("grep_regex::config::Config::clone")));
        assert!(!is_plumbing(&rust("axum::routing::Router::call")));
        assert!(!is_plumbing(&method("a.Printer#fmt", (10, 30))));
        assert!(!is_plumbing(&rust("a::Order::toString")));
    }

    #[test]
    fn a_sentence_names_types_and_members_as_code() {
        // A type written by name, in backticks or not; not a capitalised word or an acronym.
        assert_eq!(type_names("Make progressive StreamParser selections emission-aware (#2551)"), ["StreamParser"]);
        assert_eq!(type_names("Run the ConnectIT slow tests, then `GlobSetBuilder`; ConnectIT again"), ["ConnectIT", "GlobSetBuilder"]);
        assert!(type_names("Simplify HTTP and XML name normalization").is_empty());
        // A member is no type; `snake_case` is no type.
        assert!(type_names("Fix `KeyVal.inputStream` and walk_builder").is_empty());
        // Members as `Owner.member`, `Owner#member` and `Owner::member`.
        let written = |owner: &str, member: &str, params: Option<&str>| WrittenMember {
            owner: owner.to_string(),
            member: member.to_string(),
            params: params.map(str::to_string),
        };
        assert_eq!(
            qualified_pairs("Fix `KeyVal.inputStream`, Tag#TextBoundary and `WalkBuilder::from_iter()`"),
            [written("KeyVal", "inputStream", None), written("Tag", "TextBoundary", None), written("WalkBuilder", "from_iter", Some(""))]
        );
        // What the parentheses hold, as the index keeps parameters: types, no names; a call
        // whose parentheses span words says nothing of its parameters.
        assert_eq!(
            qualified_pairs("Add Elements.before(Node), Element.attr(String,String) and Node.attr(String key)."),
            [written("Elements", "before", Some("Node")), written("Element", "attr", Some("String,String")), written("Node", "attr", None)]
        );
        let named = Named { types: vec!["a.W3CDom".to_string(), "globset::GlobSet".to_string()], ..Named::default() };
        assert!(named.holds("a.W3CDom#convert"));
        assert!(named.holds("a.W3CDom.W3CBuilder#head"));
        assert!(named.holds("globset::GlobSet::new"));
        assert!(!named.holds("a.W3CDomTest#convert"));
        assert!(!named.holds("a.W3CDom"));
        assert!(!named.holds("globset::GlobSetBuilder::new"));
    }

    #[test]
    fn rows_past_the_third_of_one_name_lose_rank() {
        let row = |qname: &str, rank: f64| Ranked {
            in_area: true,
            rank,
            fan_in: 0,
            fused: 0.0,
            s: method(qname, (1, 1)),
            m: Default::default(),
            via: None,
        };
        // Overloads (`A#run` twice) count once; the fourth `run` falls below `E#other`.
        let mut ranked = vec![
            row("A#run", 5.0),
            row("A#run", 4.5),
            row("B#run", 4.0),
            row("C#run", 3.0),
            row("D#run", 2.0),
            row("E#other", 1.5),
            row("F#run", 1.2),
        ];
        spread_names(&mut ranked);
        let order: Vec<(&str, f64)> = ranked.iter().map(|r| (r.s.qname.as_str(), r.rank)).collect();
        assert_eq!(
            order,
            [("A#run", 5.0), ("A#run", 4.5), ("B#run", 4.0), ("C#run", 3.0), ("E#other", 1.5), ("D#run", 1.0), ("F#run", 0.6)]
        );
    }
}
