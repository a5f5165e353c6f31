//! The words of a sentence given to `search_symbols` (issue 35, issue 51): which queries read
//! as sentences, the words worth searching (no stop words from
//! `grammars/search/stop-words.txt`, identifiers split, each folded to its English stem), the
//! area a sentence names before a colon, and the words vocabulary bridges
//! (`grammars/search/concepts.txt`) join to a sentence's own; and whether a term finds a word
//! of the code (its stem begins it, without over-reaching: `validated` does not find
//! `validity`).
//!
//! Owns a sentence's words. It must not read the store or rank anything.

use std::collections::HashSet;
use std::sync::OnceLock;

use rust_stemmers::{Algorithm, Stemmer};

use crate::model::name_words;

/// One word of a sentence: as written (lower case) and its stem; or a word a vocabulary
/// bridge (`grammars/search/concepts.txt`) joins to one, with the index of that word in the
/// sentence's terms and the share of its weight it counts for.
#[derive(Clone, Debug, PartialEq)]
pub struct Term {
    pub word: String,
    pub stem: String,
    pub of: Option<(usize, f64)>,
}

impl Term {
    /// The sentence's word this term stands for: its own index, or the one it bridges from.
    pub(super) fn source(&self, index: usize) -> usize {
        self.of.map_or(index, |(of, _)| of)
    }
}

/// What a word a bridge joins counts for, against the sentence's own word (its forms, `=`
/// lines, count in full). On the 64 labelled tasks (with the walk), 0.3 / 0.5 / 0.7 / 1.0:
/// P@10 0.1891 / 0.1891 / 0.1828 / 0.1859, MRR 0.5150 / 0.5248 / 0.5307 / 0.5191; without
/// the bridges 0.1781, MRR 0.4859.
const BRIDGE_SHARE: f64 = 0.5;
/// A word of a sentence is bridged only when fewer than this share of the declarations hold it
/// in their names (0.5% of them: 25 of ripgrep's 5,126). On the 64 labelled tasks (with the
/// walk bounded), every word / 3% / 1% / 0.5% / 0.2%: P@10 0.1984 / 0.2000 / 0.2063 / 0.2125
/// / 0.2031; ripgrep's commits (`bench/search_intent.py --parent`) 0.0889 every word, 0.0900
/// at 0.5%, 0.0922 with no bridges.
pub(super) const BRIDGE_GAP: f64 = 0.005;
/// At most this many words a bridge joins to one word of a sentence.
const BRIDGED_PER_WORD: usize = 8;

/// `grammars/search/concepts.txt`, read once: its classes, each as its words with their
/// stems and the share they count for (forms in full), and the words of its `! ` lines.
struct Concepts {
    classes: Vec<(f64, Vec<(String, String)>)>,
    apart: Vec<String>,
}

fn concepts() -> &'static Concepts {
    static CONCEPTS: OnceLock<Concepts> = OnceLock::new();
    CONCEPTS.get_or_init(|| {
        let mut concepts = Concepts { classes: Vec::new(), apart: Vec::new() };
        let lines = include_str!("../../grammars/search/concepts.txt").lines().map(|l| l.split('#').next().unwrap_or("").trim());
        for line in lines.filter(|l| !l.is_empty()) {
            let (share, words) = match (line.strip_prefix('!'), line.strip_prefix('=')) {
                (Some(apart), _) => {
                    concepts.apart.extend(apart.split_whitespace().map(str::to_lowercase));
                    continue;
                }
                (None, Some(forms)) => (1.0, forms),
                (None, None) => (BRIDGE_SHARE, line),
            };
            concepts.classes.push((share, words.split_whitespace().map(|w| (w.to_lowercase(), stem(&w.to_lowercase()))).collect()));
        }
        concepts
    })
}

/// The sentence's terms, then the words the vocabulary bridges join to them (each once, none
/// that a term's stem already finds as a prefix, at most `BRIDGED_PER_WORD` a word).
pub fn bridged(mut terms: Vec<Term>, needs: impl Fn(&Term) -> bool) -> Vec<Term> {
    let own = terms.len();
    for i in 0..own {
        if !needs(&terms[i]) {
            continue;
        }
        let mut added = 0;
        for (share, class) in &concepts().classes {
            if !class.iter().any(|(_, stem)| *stem == terms[i].stem) {
                continue;
            }
            for (word, stem) in class {
                if added == BRIDGED_PER_WORD {
                    break;
                }
                if stem.len() < 3 || terms.iter().any(|t| stem.starts_with(t.stem.as_str())) {
                    continue;
                }
                terms.push(Term { word: word.clone(), stem: stem.clone(), of: Some((i, *share)) });
                added += 1;
            }
        }
    }
    terms
}

fn stop_words() -> &'static HashSet<&'static str> {
    static WORDS: OnceLock<HashSet<&'static str>> = OnceLock::new();
    WORDS.get_or_init(|| {
        include_str!("../../grammars/search/stop-words.txt")
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .collect()
    })
}

fn stemmer() -> &'static Stemmer {
    static STEMMER: OnceLock<Stemmer> = OnceLock::new();
    STEMMER.get_or_init(|| Stemmer::create(Algorithm::English))
}

/// The stem of a lower-case word as a prefix of its forms (`redirects` -> `redirect`,
/// `handlers` -> `handler`). Snowball writes a final `y` as `i` (`inventori`), which no form
/// starts with, or not all (`polici` of `policies`): that `i` is dropped (`inventor` finds
/// `inventory` and `inventories`, `polic` `policy` and `policies`).
pub fn stem(word: &str) -> String {
    let stem = stemmer().stem(word);
    match stem.strip_suffix('i') {
        Some(head) if head.len() >= 3 => head.to_string(),
        _ => stem.into_owned(),
    }
}

/// Whether a query reads as a sentence rather than a name: three words or more of which two
/// are plain words (not code: `Elements.before(Node)`, `Order#total`, `after/prepend`), or
/// two plain words with a stop word among them. An area prefix (`fix(parser): `) and issue
/// numbers (`#953`, `(#2567)`) are neither.
pub fn reads_as_sentence(query: &str) -> bool {
    let query = split_scope(query).map_or(query, |(_, rest)| rest);
    let words: Vec<&str> = query.split_whitespace().filter(|w| !is_issue_number(w)).collect();
    let plain = |w: &&&str| !is_code(w) && !w.contains(['#', '/', '(']) && !w.contains("::");
    let plain_words = words.iter().filter(plain).count();
    match words.len() {
        0 | 1 => false,
        2 => plain_words == 2 && words.iter().any(|w| stop_words().contains(w.to_lowercase().as_str())),
        _ => plain_words >= 2,
    }
}

/// `#953`, `(#2567)`, `#12,`: an issue or pull-request number, as commit subjects end.
fn is_issue_number(word: &str) -> bool {
    let inner = word.trim_matches(|c: char| matches!(c, '(' | ')' | ',' | '.' | ';'));
    inner.strip_prefix('#').is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
}

/// The words of a sentence worth searching, in order, once each: alphanumeric runs split as
/// identifiers (`RouteHandlers` -> `route`, `handlers`), without stop words and words under
/// three letters, each with its stem.
pub fn terms(query: &str) -> Vec<Term> {
    let mut out: Vec<Term> = Vec::new();
    // A chunk written as code (`Elements.before(Node)`, `after/prepend`, `set_title`,
    // `getItem`) keeps every word: there `before` is a name, not a stop word.
    // An area prefix (`fix(parser): `) is words, not code: `fix` stays a stop word.
    let (head, body) = split_scope(query).unwrap_or(("", query));
    let chunks = head.split_whitespace().map(|c| (c, false)).chain(body.split_whitespace().map(|c| (c, is_code(c))));
    let runs =
        chunks.flat_map(|(chunk, code)| chunk.split(|c: char| !c.is_alphanumeric()).filter(|r| !r.is_empty()).map(move |r| (r, code)));
    for (run, code) in runs {
        let lower = run.to_lowercase();
        if !code && stop_words().contains(lower.as_str()) {
            continue;
        }
        // An identifier's words (its whole lower-case form comes last in `name_words`).
        let words = name_words(run);
        let mut parts: Vec<&str> = words.split_whitespace().collect();
        if parts.len() > 1 {
            parts.pop();
        }
        for w in parts {
            if w.chars().count() < 3 || w.chars().all(|c| c.is_ascii_digit()) || (!code && stop_words().contains(w)) {
                continue;
            }
            let stem = stem(w);
            if !out.iter().any(|t| t.stem == stem) {
                out.push(Term { word: w.to_string(), stem, of: None });
            }
        }
    }
    out
}

/// The area a sentence names before a colon, as commit subjects and task titles do
/// (`ignore: skip unreachable files`, `ignore,globset: ...`, `fix(parser): ...`): the stems
/// of its words. Empty when the sentence has no such prefix.
pub fn scope(query: &str) -> Vec<String> {
    let Some((head, _)) = split_scope(query) else {
        return Vec::new();
    };
    // `fix(parser)`: the area is in the parentheses.
    let area = match head.split_once('(') {
        Some((_, inner)) => inner.trim_end_matches(')'),
        None => head,
    };
    // Its words as a sentence's: stop words and words under three letters dropped, stemmed.
    terms(area).into_iter().map(|t| t.stem).collect()
}

/// A sentence's area prefix and the rest: one chunk without spaces, then a colon and a
/// space (`ignore,globset: `, `fix(parser): `); not `Note: ...` inside a sentence, not `a::b`.
fn split_scope(query: &str) -> Option<(&str, &str)> {
    let (head, rest) = query.trim_start().split_once(':')?;
    if head.is_empty() || head.contains(char::is_whitespace) || !rest.starts_with(char::is_whitespace) {
        return None;
    }
    Some((head, rest))
}

/// Whether a chunk of a sentence is written as code: a call (`before(Node)`, `:has()`), a
/// qualified name, a path of names, snake_case or camelCase (not a sentence's own
/// punctuation: `end.`, `(see`).
pub(super) fn is_code(chunk: &str) -> bool {
    let inner = chunk.trim_matches(|c: char| !c.is_alphanumeric());
    let letters_around = |sep: char| {
        inner.match_indices(sep).any(|(i, _)| {
            inner[..i].chars().last().is_some_and(char::is_alphanumeric) && inner[i + 1..].chars().next().is_some_and(char::is_alphanumeric)
        })
    };
    letters_around('.')
        || letters_around('/')
        || letters_around('_')
        || chunk.match_indices('(').any(|(i, _)| chunk[..i].chars().last().is_some_and(char::is_alphanumeric))
        || inner.chars().skip(1).any(char::is_uppercase) && inner.chars().any(char::is_lowercase)
}

/// The terms (indexes into `terms`) whose stem begins one of these words, and does not
/// over-reach (`reaches`).
pub(super) fn terms_in(words: &[String], terms: &[Term]) -> Vec<usize> {
    (0..terms.len()).filter(|&i| words.iter().any(|w| reaches(&terms[i], w))).collect()
}

/// The lower-case words of a text, identifiers split (`HttpConnection` -> `http`,
/// `connection`, `httpconnection`).
pub(super) fn words_of(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .flat_map(|w| crate::model::word_parts(w).into_iter().map(|p| p.into_owned()))
        .collect()
}

/// The terms the words of these texts reach, as `terms_in(&words_of(..), terms)` gives them,
/// without making the words: a candidate's doc is read for every sentence, and making its
/// words was 60% of scoring the candidates (a `String` a word, five for a mixed-case one).
pub(super) fn terms_in_texts(texts: &[&str], terms: &[Term]) -> Vec<usize> {
    let mut found = vec![false; terms.len()];
    let mut lower = String::new();
    let mut check = |word: &str| {
        for (t, hit) in terms.iter().zip(found.iter_mut()) {
            if !*hit && reaches(t, word) {
                *hit = true;
            }
        }
    };
    for text in texts {
        for chunk in text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()) {
            let bytes = chunk.as_bytes();
            if bytes.iter().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()) {
                check(chunk);
            } else if chunk.is_ascii() {
                // `name_words` on ASCII letters and digits: a part begins at an upper-case
                // letter after a lower-case letter or digit, or before a lower-case letter;
                // the whole word follows when there are several parts.
                lower.clear();
                lower.push_str(chunk);
                lower.make_ascii_lowercase();
                let mut start = 0;
                for i in 1..bytes.len() {
                    let (prev, next) = (bytes[i - 1], bytes.get(i + 1));
                    if bytes[i].is_ascii_uppercase()
                        && (prev.is_ascii_lowercase() || prev.is_ascii_digit() || next.is_some_and(u8::is_ascii_lowercase))
                    {
                        check(&lower[start..i]);
                        start = i;
                    }
                }
                check(&lower[start..]);
                if start > 0 {
                    check(&lower);
                }
            } else {
                for part in crate::model::word_parts(chunk) {
                    check(&part);
                }
            }
        }
    }
    (0..terms.len()).filter(|&i| found[i]).collect()
}

/// Whether a term's stem finds a word: the stem begins it, and the word is no other word
/// that only shares its start (`! ` lines of `grammars/search/concepts.txt`: `validated` is
/// `valid`, and must not find `validity`), unless the term is written as that word.
pub(super) fn reaches(term: &Term, word: &str) -> bool {
    word.starts_with(&term.stem) && !concepts().apart.iter().any(|a| word.starts_with(a.as_str()) && !term.word.starts_with(a.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(query: &str) -> Vec<(String, String)> {
        terms(query).into_iter().map(|t| (t.word, t.stem)).collect()
    }

    #[test]
    fn bridges_join_a_tasks_words_to_codes_words() {
        let bridged = |query: &str| -> Vec<(String, Option<(usize, f64)>)> {
            bridged(terms(query), |_| true).into_iter().map(|t| (t.word, t.of)).collect()
        };
        let own = |w: &str| (w.to_string(), None);
        let from = |w: &str, of: usize, share: f64| (w.to_string(), Some((of, share)));
        // "validated" is `valid`: the validation class, at half weight; no word its own stem
        // already finds as a prefix (`validation`, `validate`).
        assert_eq!(
            bridged("where are tokens validated"),
            [
                own("tokens"),
                own("validated"),
                // `authenticate` is `authentication`'s stem; eight a word at most.
                from("authentication", 0, 0.5),
                from("auth", 0, 0.5),
                from("login", 0, 0.5),
                from("logon", 0, 0.5),
                from("credential", 0, 0.5),
                from("password", 0, 0.5),
                from("jwt", 0, 0.5),
                from("principal", 0, 0.5),
                from("verify", 1, 0.5),
                from("check", 1, 0.5),
                from("assert", 1, 0.5),
                from("ensure", 1, 0.5),
            ]
        );
        // `validated` finds what is validated, not a `tokenValidity` field, unless asked.
        let validated = &terms("validated")[0];
        assert!(reaches(validated, "validate") && reaches(validated, "validation") && reaches(validated, "valid"));
        assert!(!reaches(validated, "validity") && !reaches(validated, "validityinseconds"));
        assert!(reaches(&terms("validity")[0], "validity"));
        // Forms the stemmer does not join count in full; a word in no class brings nothing.
        assert_eq!(bridged("written rows"), [own("written"), own("rows"), from("write", 0, 1.0), from("wrote", 0, 1.0)]);
        // A word's class reaches a word of the sentence: nothing is added twice.
        assert_eq!(bridged("rollback revert"), [own("rollback"), own("revert"), from("undo", 0, 0.5), from("restore", 0, 0.5)]);
    }

    #[test]
    fn sentences_keep_their_content_words_stemmed() {
        // Stop words and task verbs go; punctuation splits; plurals fold.
        assert_eq!(
            words("Add rate limiting to the login endpoint"),
            [("rate", "rate"), ("limiting", "limit"), ("login", "login"), ("endpoint", "endpoint")]
                .map(|(a, b)| (a.to_string(), b.to_string()))
        );
        // `Cargo.toml` is two words, not a qualified name; `e.g.` is nothing.
        assert_eq!(
            words("read settings set in the project's Cargo.toml, e.g. features"),
            [("read", "read"), ("settings", "set"), ("project", "project"), ("cargo", "cargo"), ("toml", "toml"), ("features", "featur")]
                .map(|(a, b)| (a.to_string(), b.to_string()))
        );
        // Identifiers split into their words; each stem once.
        assert_eq!(
            words("RouteHandlers route handler"),
            [("route", "rout"), ("handlers", "handler")].map(|(a, b)| (a.to_string(), b.to_string()))
        );
        // Every stem is a prefix of the forms it stands for.
        assert_eq!(
            words("inventory policies policy"),
            [("inventory", "inventor"), ("policies", "polic")].map(|(a, b)| (a.to_string(), b.to_string()))
        );
        assert!(terms("the a of by").is_empty());
        // A stop word written as a call is a name: `:has()` is a selector.
        assert_eq!(
            words("Selector with :has() is slow"),
            [("selector", "selector"), ("has", "has"), ("slow", "slow")].map(|(a, b)| (a.to_string(), b.to_string()))
        );
        // A contraction's head is no word of the code.
        assert_eq!(
            words("Don't emit XML namespace"),
            [("emit", "emit"), ("xml", "xml"), ("namespace", "namespac")].map(|(a, b)| (a.to_string(), b.to_string()))
        );
    }

    #[test]
    fn a_sentence_names_its_area_before_a_colon() {
        assert_eq!(scope("ignore: skip loading unreachable ignore files"), ["ignor"]);
        assert_eq!(scope("ignore,globset: increase pool capacity"), ["ignor", "globset"]);
        assert_eq!(scope("fix(parser): keep the doctype's quotes"), ["parser"]);
        // Conventional types name no area; nor does a colon inside a sentence or a path.
        assert!(scope("feat: add a new output format").is_empty());
        assert!(scope("Fix the cache. Note: not the parser").is_empty());
        assert!(scope("crate::cache::Cache evicts late").is_empty());
        assert!(scope("ci: fix binary discovery").is_empty());
        // The area is no code syntax: the sentence is still one, and `fix` a stop word.
        assert!(reads_as_sentence("fix(admin): login fails for a disabled account"));
        assert!(reads_as_sentence("ignore/walk: skip unreadable files"));
        assert_eq!(
            words("fix(admin): login fails for a disabled account"),
            [("admin", "admin"), ("login", "login"), ("fails", "fail"), ("disabled", "disabl"), ("account", "account")]
                .map(|(a, b)| (a.to_string(), b.to_string()))
        );
    }

    #[test]
    fn what_reads_as_a_sentence() {
        assert!(reads_as_sentence("Escape supplementary characters for non-UTF charsets"));
        // Code and issue numbers inside a sentence leave it one.
        assert!(reads_as_sentence("HTTP redirects use standard URL resolution for single-slash locations (#2580)"));
        assert!(reads_as_sentence("Add Elements.before(Node) and after/prepend/append(Node) #953 (#2567)"));
        assert!(!reads_as_sentence("Order#total Order#lines Money#plus"));
        assert!(!reads_as_sentence("#2580 HashMap"));
        assert!(reads_as_sentence("fix the cache"));
        assert!(!reads_as_sentence("HashMap resize"));
        assert!(!reads_as_sentence("java.util.HashMap#resize"));
        assert!(!reads_as_sentence("GET /order/detail/42"));
        assert!(!reads_as_sentence("cache"));
    }

    #[test]
    fn terms_are_found_in_a_texts_words_as_in_the_words_made() {
        let terms = terms("http url connection request parse io exception déjà validated xml 2 xmlhttprequest2");
        let made = |texts: &[&str]| -> Vec<usize> {
            let words: Vec<String> = texts.iter().flat_map(|t| words_of(t)).collect();
            terms_in(&words, &terms)
        };
        for texts in [
            &["HTTPConnection parse_http2_url"][..],
            &["XMLHttpRequest2 getURLFor", "IOException"],
            &["ÄbcDef déjà-vu ConnectIT"],
            &["the tokenValidityInSeconds", "a Validity"],
            &["", "  --  "],
            &["io/x/ParserBase", "java.io.ParserBase#parseHTTPRequest"],
        ] {
            let fast = terms_in_texts(texts, &terms);
            assert_eq!(fast, made(texts), "{texts:?}");
        }
        // The words themselves, so that the comparison above is not between two empty lists
        // (`io` is too short to be a term; `http` reaches `http2`).
        let words = |t: &str| terms_in_texts(&[t], &terms).into_iter().map(|i| terms[i].word.as_str()).collect::<Vec<_>>();
        assert_eq!(words("XMLHttpRequest2 getURLFor"), ["http", "url", "request", "xml", "xmlhttprequest2"]);
        assert_eq!(words("IOException parse_http2_url"), ["http", "url", "parse", "exception"]);
        assert_eq!(words("tokenValidityInSeconds"), Vec::<&str>::new());
    }
}
