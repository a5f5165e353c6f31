//! Read-side SQL for the tools: symbol lookups, references, implementations, outlines,
//! search candidates, overview counts and the rows the dependency graph is built from.
//! Plain rows out; no formatting here.

use std::sync::Arc;

use rusqlite::{params, OptionalExtension, Row};

use super::{Result, Store};
use crate::model::{Confidence, EdgeRow, FileId, FileRow, Language, RefKind, SymbolKind, SymbolRow};

/// Matches of one word that `fts` scores (in rowid order) before it ranks them. bm25 reads
/// each one's sizes: on java.base 1,000 made `class` 4.5 ms and `string` 3.5 ms; at 300 they
/// take 2.5 ms, and the first result of 15 of the 16 queries tried stays the same.
const FTS_SCORED: usize = 300;

/// A file's language as stored (`files.language`); any other text is a bad row.
impl rusqlite::types::FromSql for Language {
    fn column_result(value: rusqlite::types::ValueRef<'_>) -> rusqlite::types::FromSqlResult<Self> {
        value.as_str().and_then(|s| Language::parse(s).ok_or(rusqlite::types::FromSqlError::InvalidType))
    }
}

/// A re-export: the path it re-exports, its target when a symbol, whether a glob.
pub type Reexport = (String, Option<i64>, bool);

/// Names of types by id.
/// What `Store::override_candidates` reads, each row with its file.
#[derive(Default)]
pub struct OverrideRows {
    pub methods: Vec<(FileId, MethodRow)>,
    /// (file, a type one of its references extends or implements), each once.
    pub supertypes: Vec<(FileId, i64)>,
    /// (file, type, its name).
    pub types: Vec<(FileId, i64, String)>,
}

/// A method or function declared in a type, as deciding overrides reads it.
#[derive(Clone, Debug)]
pub struct MethodRow {
    pub id: i64,
    /// None: a method of a Rust impl for a type parameter or a type outside the repository.
    pub parent: Option<i64>,
    /// Names and parameter lists are shared among the rows of one read (`toString`, `get`,
    /// `String,int` repeat thousands of times: a server keeps these rows).
    pub name: Arc<str>,
    /// Java: erased parameter types by simple name; None in Rust.
    pub params: Option<Arc<str>>,
    /// Rust: the trait its impl block names.
    pub impl_trait: Option<Arc<str>>,
    /// Declared without a body to inherit (no `default`, `static` or `private`; a method of
    /// an interface that is not one of those is what a lambda implements). A Java lambda
    /// (`extract::nameless`) is marked `lambda`.
    pub abstract_like: bool,
    pub lambda: bool,
}

/// A symbol with everything a tool shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymbolInfo {
    pub id: i64,
    pub file_id: i64,
    pub path: String,
    pub language: Language,
    pub parent: Option<i64>,
    pub kind: SymbolKind,
    pub name: String,
    pub qname: String,
    pub visibility: String,
    pub modifiers: String,
    pub signature: String,
    pub doc: String,
    pub start_line: u32,
    pub end_line: u32,
    /// Java callables: erased parameter types (`int,String...`).
    pub params: Option<String>,
    /// Rust methods of a trait impl: the trait as written (`fmt::Display`).
    pub impl_trait: Option<String>,
}

impl SymbolInfo {
    /// The qualified name, with the parameter types of a Java callable: one overload's handle.
    pub fn signature_handle(&self) -> String {
        match &self.params {
            Some(p) => format!("{}({p})", self.qname),
            None => self.qname.clone(),
        }
    }

    /// What tells one overload from the others of its name: the parameter types of a Java
    /// callable (`Type#m(int)`), the trait of a Rust method (`<Type as Trait>::m`).
    pub fn overload_handle(&self) -> String {
        match (&self.impl_trait, self.qname.rsplit_once("::")) {
            (Some(t), Some((owner, name))) if self.params.is_none() && !owner.ends_with('>') => format!("<{owner} as {t}>::{name}"),
            _ => self.signature_handle(),
        }
    }
}

#[derive(Clone, Debug)]
pub struct FileInfo {
    pub id: i64,
    pub path: String,
    /// The language's name (`Language::as_str`), or `text` for a file `search_text` found
    /// outside the index.
    pub language: String,
    pub module: String,
    pub size: i64,
    pub mtime_ns: i64,
    pub loc: u32,
    pub parse_errors: u32,
}

/// One reference as `find_references` lists it.
#[derive(Clone, Debug)]
pub struct RefInfo {
    pub path: String,
    pub line: u32,
    pub kind: RefKind,
    pub enclosing: Option<String>,
    pub confidence: Confidence,
    /// An ambiguous reference: how many overloads it may mean (0 otherwise).
    pub overloads: usize,
    /// The symbol the reference points at (for an ambiguous one, the lowest candidate).
    pub target: Option<i64>,
    /// A call the library makes: what makes it (`Collections.sort`).
    pub implicit_via: Option<String>,
}

/// References to some symbols grouped by the symbol they are made from.
#[derive(Clone, Debug)]
pub struct SourceRow {
    pub source: Option<i64>,
    pub target: i64,
    pub kind: RefKind,
    pub count: u32,
    pub file: i64,
    pub line: u32,
}

/// A `SourceRow` from (source, target, kind, count, file * 2^32 + line).
fn source_row(r: &Row) -> rusqlite::Result<SourceRow> {
    let at: i64 = r.get(4)?;
    Ok(SourceRow {
        source: r.get(0)?,
        target: r.get(1)?,
        kind: RefKind::from_code(r.get(2)?).unwrap_or(RefKind::UsesType),
        count: r.get::<_, i64>(3)? as u32,
        file: at >> 32,
        line: (at & 0xffff_ffff) as u32,
    })
}

/// One page of the references to a target.
#[derive(Clone, Debug)]
pub struct ReferencePage {
    pub refs: Vec<RefInfo>,
    /// References of the kinds asked for.
    pub total: usize,
    /// References of every kind, by kind (as `reference_counts`).
    pub counts: Vec<(RefKind, usize)>,
}

/// (bean, file, injected type, line, the injection point's modifiers).
pub type InjectionPoint = (i64, i64, i64, u32, String, String, String);

const SYMBOL_COLUMNS: &str = "s.id, s.file_id, f.path, f.language, s.parent_id, s.kind, s.name, s.qname, s.visibility, s.modifiers, s.signature, s.doc, s.start_line, s.end_line, s.params, s.impl_trait";

fn symbol_row(r: &Row) -> rusqlite::Result<SymbolInfo> {
    let kind: String = r.get(5)?;
    Ok(SymbolInfo {
        id: r.get(0)?,
        file_id: r.get(1)?,
        path: r.get(2)?,
        language: r.get(3)?,
        parent: r.get(4)?,
        kind: SymbolKind::parse(&kind).unwrap_or(SymbolKind::Class),
        name: r.get(6)?,
        qname: r.get(7)?,
        visibility: r.get(8)?,
        modifiers: r.get(9)?,
        signature: r.get(10)?,
        doc: r.get(11)?,
        start_line: r.get(12)?,
        end_line: r.get(13)?,
        params: r.get(14)?,
        impl_trait: r.get(15)?,
    })
}

fn file_row(r: &Row) -> rusqlite::Result<FileInfo> {
    Ok(FileInfo {
        id: r.get(0)?,
        path: r.get(1)?,
        language: r.get(2)?,
        module: r.get(3)?,
        size: r.get(4)?,
        mtime_ns: r.get(5)?,
        loc: r.get(6)?,
        parse_errors: r.get(7)?,
    })
}

const FILE_COLUMNS: &str = "id, path, language, module, size, mtime_ns, loc, parse_errors";

/// A symbol `s` whose modifiers match one of the `LIKE` patterns listed in `?1`
/// (`marker_patterns`).
const MARKED: &str = "EXISTS (SELECT 1 FROM json_each(?1) j WHERE s.modifiers LIKE j.value ESCAPE '\\')";

/// The `LIKE` patterns `MARKED` reads for these markers, as a JSON list; None for none.
fn marker_patterns<'a>(names: impl Iterator<Item = &'a str>) -> Option<String> {
    let likes: Vec<String> = names.map(|n| format!("%@{}%", like_escape(n))).collect();
    (!likes.is_empty()).then(|| serde_json::to_string(&likes).expect("strings serialize"))
}

/// Escapes `%`, `_` and `\` for a LIKE pattern with `ESCAPE '\'`.
pub fn like_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// What the index holds, counted (`index` prints it after a full run, `status` reports it).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub files: u64,
    pub loc: u64,
    pub symbols: u64,
    pub references: u64,
    /// References that point at a symbol or an outside name (the resolver sets one of the
    /// two, never both, so the two partial indexes' counts add up).
    pub resolved: u64,
    /// Syntax errors in all, and the files that have any.
    pub parse_errors: u64,
    pub files_with_parse_errors: u64,
}

impl Store {
    /// The index's counts. Each is one aggregate over a table or a partial index (counting
    /// distinct edges took a 0.3 s sort of every reference on each run, an unchanged
    /// tree's included).
    pub fn counts(&self) -> Result<Counts> {
        let count = |sql: &str| -> Result<u64> { Ok(self.conn.query_row(sql, [], |r| r.get::<_, i64>(0))? as u64) };
        Ok(Counts {
            files: count("SELECT COUNT(*) FROM files")?,
            loc: count("SELECT COALESCE(SUM(loc), 0) FROM files")?,
            symbols: count("SELECT COUNT(*) FROM symbols")?,
            references: count("SELECT COUNT(*) FROM refs")?,
            resolved: count("SELECT (SELECT COUNT(*) FROM refs WHERE target_id IS NOT NULL) + (SELECT COUNT(*) FROM refs WHERE external_id IS NOT NULL)")?,
            parse_errors: count("SELECT COALESCE(SUM(parse_errors), 0) FROM files")?,
            files_with_parse_errors: count("SELECT COUNT(*) FROM files WHERE parse_errors > 0")?,
        })
    }

    /// The schema version the file says it has (`PRAGMA user_version`).
    pub fn schema_version(&self) -> Result<i64> {
        Ok(self.conn.pragma_query_value(None, "user_version", |r| r.get(0))?)
    }

    /// SQLite's `PRAGMA quick_check`: `ok`, or what is broken.
    pub fn quick_check(&self) -> Result<String> {
        Ok(self.conn.query_row("PRAGMA quick_check", [], |r| r.get(0))?)
    }

    /// Why each skipped file was skipped, one reason a file.
    pub fn skipped_reasons(&self) -> Result<Vec<String>> {
        let mut stmt = self.conn.prepare("SELECT reason FROM skipped")?;
        let reasons = stmt.query_map([], |r| r.get::<_, String>(0))?.collect::<rusqlite::Result<_>>()?;
        Ok(reasons)
    }

    fn symbols_where(&self, clause: &str, params: impl rusqlite::Params) -> Result<Vec<SymbolInfo>> {
        let sql = format!("SELECT {SYMBOL_COLUMNS} FROM symbols s JOIN files f ON f.id = s.file_id WHERE {clause}");
        let mut stmt = self.conn.prepare_cached(&sql)?;
        let rows = stmt.query_map(params, symbol_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// What deciding which method overrides which takes, of every file or of one: every
    /// method and function declared in a type or in a trait impl (id, parent, name, Java's
    /// erased parameters, the trait a Rust impl names; a blanket impl's methods have no
    /// parent), the types the file's references extend or implement, and the file's types
    /// by name.
    pub fn override_candidates(&self, file: Option<FileId>) -> Result<OverrideRows> {
        let mut out = OverrideRows::default();
        let methods = format!(
            "SELECT file_id, id, parent_id, name, params, impl_trait,
                    ' ' || modifiers || ' ' NOT LIKE '% default %' AND ' ' || modifiers || ' ' NOT LIKE '% static %'
                        AND ' ' || modifiers || ' ' NOT LIKE '% private %',
                    ' ' || modifiers || ' ' LIKE '% lambda %'
             FROM symbols
             WHERE (parent_id IS NOT NULL OR impl_trait IS NOT NULL) AND kind IN ('method', 'function'){}",
            if file.is_some() { " AND file_id = ?1" } else { "" }
        );
        let mut stmt = self.conn.prepare_cached(&methods)?;
        let mut rows = stmt.query(rusqlite::params_from_iter(file))?;
        let mut shared: rustc_hash::FxHashSet<Arc<str>> = Default::default();
        let mut text = |r: &Row, i: usize| -> Result<Option<Arc<str>>> {
            let Some(s) = r.get_ref(i)?.as_str_or_null().map_err(rusqlite::Error::from)? else { return Ok(None) };
            if let Some(a) = shared.get(s) {
                return Ok(Some(a.clone()));
            }
            let a: Arc<str> = Arc::from(s);
            shared.insert(a.clone());
            Ok(Some(a))
        };
        while let Some(r) = rows.next()? {
            let row = MethodRow {
                id: r.get(1)?,
                parent: r.get(2)?,
                name: text(r, 3)?.unwrap_or_else(|| Arc::from("")),
                params: text(r, 4)?,
                impl_trait: text(r, 5)?,
                abstract_like: r.get(6)?,
                lambda: r.get(7)?,
            };
            out.methods.push((r.get(0)?, row));
        }
        let supertypes = format!(
            concat!("SELECT DISTINCT file_id, target_id FROM refs WHERE kind IN (", kind_sql!(supertypes), ") AND target_id IS NOT NULL{}"),
            if file.is_some() { " AND id BETWEEN ?1 AND ?2" } else { "" }
        );
        let mut stmt = self.conn.prepare_cached(&supertypes)?;
        let ids = file.map(super::ref_ids_of).into_iter().flat_map(|(lo, hi)| [lo, hi]);
        out.supertypes =
            stmt.query_map(rusqlite::params_from_iter(ids), |r| Ok((r.get(0)?, r.get(1)?)))?.collect::<rusqlite::Result<_>>()?;
        let kinds: Vec<String> = SymbolKind::all().filter(|k| k.is_type()).map(|k| format!("'{}'", k.as_str())).collect();
        let types = format!(
            "SELECT file_id, id, name FROM symbols WHERE kind IN ({}){}",
            kinds.join(", "),
            if file.is_some() { " AND file_id = ?1" } else { "" }
        );
        let mut stmt = self.conn.prepare_cached(&types)?;
        out.types = stmt
            .query_map(rusqlite::params_from_iter(file), |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
            .collect::<rusqlite::Result<_>>()?;
        Ok(out)
    }

    pub fn symbol(&self, id: i64) -> Result<Option<SymbolInfo>> {
        Ok(self.symbols_where("s.id = ?1", [id])?.into_iter().next())
    }

    /// Many symbols in one statement (missing ids are left out), in no particular order.
    pub fn symbols_by_ids(&self, ids: &[i64]) -> Result<Vec<SymbolInfo>> {
        let list = serde_json::to_string(ids).expect("ids serialize");
        self.symbols_where("s.id IN (SELECT value FROM json_each(?1))", [list])
    }

    /// Symbols whose modifiers carry one of these markers (`@Service`; a superset: callers
    /// check the exact marker).
    pub fn symbols_with_markers<'a>(&self, names: impl Iterator<Item = &'a str>) -> Result<Vec<SymbolInfo>> {
        let Some(list) = marker_patterns(names) else { return Ok(Vec::new()) };
        self.symbols_where(MARKED, [list])
    }

    /// `symbols_with_markers`' symbols as (file, id), of one file or of all: what a cache
    /// kept by file reads (`tools::cache::IdsCache`).
    pub fn marked_with(&self, names: &[&str], file: Option<FileId>) -> Result<Vec<(FileId, i64)>> {
        let Some(list) = marker_patterns(names.iter().copied()) else { return Ok(Vec::new()) };
        let in_file = if file.is_some() { " AND file_id = ?2" } else { "" };
        let mut stmt = self.conn.prepare_cached(&format!("SELECT file_id, id FROM symbols s WHERE {MARKED}{in_file}"))?;
        let row = |r: &Row| Ok((r.get(0)?, r.get(1)?));
        let rows = match file {
            Some(f) => stmt.query_map(params![list, f], row)?.collect::<rusqlite::Result<_>>()?,
            None => stmt.query_map([list], row)?.collect::<rusqlite::Result<_>>()?,
        };
        Ok(rows)
    }

    /// The declarations annotated with one of these annotation types.
    pub fn annotated_by(&self, annotations: &[i64]) -> Result<Vec<i64>> {
        let list = serde_json::to_string(annotations).expect("ids serialize");
        let mut stmt = self.conn.prepare_cached(&format!(
            "SELECT DISTINCT source_id FROM refs WHERE kind = {} AND source_id IS NOT NULL AND target_id IN (SELECT value FROM json_each(?1))",
            RefKind::Annotates.code()
        ))?;
        let rows = stmt.query_map([list], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// A callable's declared return type (a field's declared type), as written.
    pub fn returns_of(&self, id: i64) -> Result<Option<String>> {
        Ok(self.conn.prepare_cached("SELECT returns FROM symbols WHERE id = ?1")?.query_row([id], |r| r.get(0)).optional()?.flatten())
    }

    /// The resolved `extends`/`implements` edges of these types: (subtype, supertype).
    pub fn supertype_edges(&self, types: &[i64]) -> Result<Vec<(i64, i64)>> {
        let list = serde_json::to_string(types).expect("ids serialize");
        let mut stmt = self.conn.prepare_cached(concat!(
            "SELECT source_id, target_id FROM refs WHERE kind IN (",
            kind_sql!(supertypes),
            ") AND target_id IS NOT NULL AND source_id IN (SELECT value FROM json_each(?1))"
        ))?;
        let rows = stmt.query_map([list], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Calls from one of `methods` to another of them: (caller, callee, file, line), in file
    /// and line order.
    pub fn calls_among(&self, methods: &[i64]) -> Result<Vec<(i64, i64, i64, u32)>> {
        let list = serde_json::to_string(methods).expect("ids serialize");
        let mut stmt = self.conn.prepare_cached(&format!(
            "SELECT source_id, target_id, file_id, line FROM refs WHERE kind = {}
               AND source_id IN (SELECT value FROM json_each(?1)) AND target_id IN (SELECT value FROM json_each(?1))
             ORDER BY file_id, line",
            RefKind::Calls.code()
        ))?;
        let rows = stmt.query_map([list], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Every type that extends or implements `id`, directly or not.
    pub fn subtypes_of(&self, id: i64) -> Result<Vec<i64>> {
        let mut stmt = self.conn.prepare_cached(concat!(
            "WITH RECURSIVE sub(id) AS (SELECT ?1 UNION SELECT r.source_id FROM refs r JOIN sub ON r.target_id = sub.id WHERE r.kind IN (",
            kind_sql!(supertypes),
            ") AND r.source_id IS NOT NULL)
             SELECT id FROM sub WHERE id != ?1 ORDER BY id"
        ))?;
        let rows = stmt.query_map([id], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The interfaces that extend one of these outside types (by qualified name), directly
    /// or through other interfaces of the repository (Spring Data's repositories).
    pub fn interfaces_extending_outside(&self, qnames: &[String]) -> Result<Vec<SymbolInfo>> {
        let list = serde_json::to_string(qnames).expect("strings serialize");
        self.symbols_where(
            &format!(
                "s.kind = 'interface' AND s.id IN (WITH RECURSIVE sub(id) AS (
                     SELECT r.source_id FROM refs r JOIN externals e ON e.id = r.external_id
                     WHERE r.kind IN ({k}) AND r.source_id IS NOT NULL AND e.qname IN (SELECT value FROM json_each(?1))
                     UNION SELECT r.source_id FROM refs r JOIN sub ON r.target_id = sub.id
                     WHERE r.kind IN ({k}) AND r.source_id IS NOT NULL)
                 SELECT id FROM sub)",
                k = kind_sql!(supertypes)
            ),
            [list],
        )
    }

    /// The files whose code names one of these outside types (by qualified name), with the
    /// type: (qualified name, file path), by path.
    pub fn files_using_externals(&self, qnames: &[&str]) -> Result<Vec<(String, String)>> {
        let list = serde_json::to_string(qnames).expect("strings serialize");
        let mut stmt = self.conn.prepare_cached(
            "SELECT DISTINCT e.qname, f.path FROM refs r JOIN externals e ON e.id = r.external_id JOIN files f ON f.id = r.file_id
             WHERE e.qname IN (SELECT value FROM json_each(?1)) ORDER BY f.path, e.qname",
        )?;
        let rows = stmt.query_map([list], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The interfaces declared in a Java package or below it.
    pub fn interfaces_in_package(&self, package: &str) -> Result<Vec<SymbolInfo>> {
        let like = format!("{}.%", like_escape(package));
        self.symbols_where(
            "s.kind = 'interface' AND s.parent_id IS NULL AND (f.module = ?1 OR f.module LIKE ?2 ESCAPE '\\')",
            [package, like.as_str()],
        )
    }

    /// The types of the repository with this simple name.
    pub fn types_named(&self, name: &str) -> Result<Vec<i64>> {
        // The NOCASE comparison reads the index on `name`; the plain one keeps the case.
        Ok(self
            .symbols_where("s.name = ?1 COLLATE NOCASE AND s.name = ?1", [name])?
            .into_iter()
            .filter(|s| s.kind.is_type())
            .map(|s| s.id)
            .collect())
    }

    /// Injection points of beans: the types their constructors, fields and injecting methods
    /// (`injecting` markers: `@Autowired` setters) name, and those a `@Bean` method (a bean
    /// node itself) names: (bean, file, type, line, the injection point's modifiers, kind and
    /// signature: a method's points are its parameters, not what its body uses).
    /// A type outside the repository (`PasswordEncoder`) is its external id, negated.
    pub fn injection_points(&self, beans: &[i64], injecting: &[String]) -> Result<Vec<InjectionPoint>> {
        let list = serde_json::to_string(beans).expect("ids serialize");
        let likes: Vec<String> = injecting.iter().map(|m| format!("%@{}%", like_escape(m))).collect();
        let likes = serde_json::to_string(&likes).expect("strings serialize");
        let mut stmt = self.conn.prepare_cached(&format!(
            "SELECT CASE WHEN s.kind = 'method' AND s.id IN (SELECT value FROM json_each(?1)) THEN s.id ELSE s.parent_id END,
                    r.file_id, COALESCE(r.target_id, -r.external_id), r.line, s.modifiers, s.kind, s.signature
             FROM symbols s JOIN refs r ON r.source_id = s.id
             WHERE r.kind = {} AND (r.target_id IS NOT NULL OR r.external_id IS NOT NULL)
               AND ((s.kind IN ('field', 'constructor') AND s.parent_id IN (SELECT value FROM json_each(?1)))
                    OR (s.kind = 'method' AND s.id IN (SELECT value FROM json_each(?1)))
                    OR (s.kind = 'method' AND s.parent_id IN (SELECT value FROM json_each(?1))
                        AND EXISTS (SELECT 1 FROM json_each(?2) j WHERE s.modifiers LIKE j.value ESCAPE '\\')))
             ORDER BY r.file_id, r.line",
            RefKind::UsesType.code()
        ))?;
        let rows = stmt.query_map([list, likes], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?, r.get(6)?)))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Test functions (`@Test` or `#[test]` in their modifiers, `lang::is_test_marker`) by
    /// file: (file id, how many).
    pub fn test_function_counts(&self) -> Result<Vec<(i64, usize)>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT file_id, COUNT(*) FROM symbols WHERE modifiers LIKE '%@Test%' OR modifiers LIKE '%#[test]%' GROUP BY file_id",
        )?;
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get::<_, i64>(1)? as usize)))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// (file, symbol) for the symbols of every file or of one that are tests wherever they
    /// are: inside a Rust `tests` module, or marked as test functions. (A test file's
    /// symbols are all tests; the caller knows which files are.)
    pub fn marked_tests(&self, file: Option<FileId>) -> Result<Vec<(FileId, i64)>> {
        let sql = format!(
            "SELECT file_id, id FROM symbols
             WHERE (qname GLOB '*::tests::*' OR qname GLOB '*::tests' OR modifiers LIKE '%@Test%' OR modifiers LIKE '%#[test]%'){}",
            if file.is_some() { " AND file_id = ?1" } else { "" }
        );
        let mut stmt = self.conn.prepare_cached(&sql)?;
        let rows = stmt.query_map(rusqlite::params_from_iter(file), |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// One page of the symbols of a kind (optionally of a language, under a path), by
    /// qualified name, and how many there are in all.
    pub fn symbols_of_kind(
        &self,
        kind: &str,
        language: Option<&str>,
        prefix: &str,
        limit: usize,
        offset: usize,
    ) -> Result<(Vec<SymbolInfo>, usize)> {
        let filter = "s.kind = ?1 AND (?2 IS NULL OR f.language = ?2) AND f.path LIKE ?3 ESCAPE '\\'";
        let like = format!("{}%", like_escape(prefix));
        let total: i64 = self.conn.query_row(
            &format!("SELECT COUNT(*) FROM symbols s JOIN files f ON f.id = s.file_id WHERE {filter}"),
            params![kind, language, like],
            |r| r.get(0),
        )?;
        let page = self.symbols_where(
            &format!("{filter} ORDER BY s.qname, f.path, s.start_line LIMIT ?4 OFFSET ?5"),
            params![kind, language, like, limit as i64, offset as i64],
        )?;
        Ok((page, total as usize))
    }

    pub fn symbols_by_qname(&self, qname: &str) -> Result<Vec<SymbolInfo>> {
        self.symbols_where("s.qname = ?1 ORDER BY f.path, s.start_line", [qname])
    }

    pub fn symbols_by_name(&self, name: &str) -> Result<Vec<SymbolInfo>> {
        // The index on `name` is NOCASE: seek with it, then keep the exact name.
        self.symbols_where("s.name = ?1 COLLATE NOCASE AND s.name = ?1 ORDER BY f.path, s.start_line", [name])
    }

    /// Ids of the symbols with exactly this name, in path and line order.
    /// Ids of symbols named exactly like any of `names`, in the order of `names`, then by
    /// path and line; at most `limit`.
    pub fn ids_by_names(&self, names: &[&str], limit: usize) -> Result<Vec<i64>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT s.id FROM json_each(?1) j JOIN symbols s ON s.name = j.value COLLATE NOCASE AND s.name = j.value
             JOIN files f ON f.id = s.file_id ORDER BY j.key, f.path, s.start_line LIMIT ?2",
        )?;
        let names = serde_json::to_string(names).expect("names serialize");
        let rows = stmt.query_map(params![names, limit as i64], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    pub fn ids_by_name(&self, name: &str) -> Result<Vec<i64>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT s.id FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.name = ?1 COLLATE NOCASE AND s.name = ?1 ORDER BY f.path, s.start_line",
        )?;
        let rows = stmt.query_map([name], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The declarations inside the one named `qname`, nested ones too: `a.W3CDom#convert` and
    /// `a.W3CDom.W3CBuilder#head` of `a.W3CDom`, `globset::GlobSetBuilder::new` of
    /// `globset::GlobSetBuilder`; at most `limit`, by qualified name.
    pub fn ids_inside(&self, qname: &str, limit: usize) -> Result<Vec<i64>> {
        // A range of the qualified-name index, as `names_like` reads a prefix; then only
        // names going on past a separator (not `a.W3CDomTest`).
        let mut stmt = self.conn.prepare_cached(
            "SELECT id FROM symbols WHERE qname > ?1 AND qname < ?2 AND (substr(qname, ?3, 1) IN ('#', '.') OR substr(qname, ?3, 2) = '::') ORDER BY qname LIMIT ?4",
        )?;
        let after = qname.chars().count() as i64 + 1;
        let rows = stmt.query_map(params![qname, format!("{qname}\u{10FFFF}"), after, limit as i64], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Symbols whose qualified name ends with `.suffix`, `#suffix` or `::suffix`.
    pub fn symbols_by_qname_suffix(&self, suffix: &str) -> Result<Vec<SymbolInfo>> {
        let e = like_escape(suffix);
        self.symbols_where(
            "(s.qname LIKE ?1 ESCAPE '\\' OR s.qname LIKE ?2 ESCAPE '\\' OR s.qname LIKE ?3 ESCAPE '\\') ORDER BY f.path, s.start_line LIMIT 50",
            params![format!("%.{e}"), format!("%#{e}"), format!("%::{e}")],
        )
    }

    /// The innermost symbol whose lines contain `line` in the file at `path`.
    pub fn symbol_at(&self, path: &str, line: u32) -> Result<Option<SymbolInfo>> {
        Ok(self
            .symbols_where(
                "f.path = ?1 AND s.start_line <= ?2 AND s.end_line >= ?2 ORDER BY (s.end_line - s.start_line), s.start_line DESC LIMIT 1",
                params![path, line],
            )?
            .into_iter()
            .next())
    }

    pub fn children(&self, id: i64) -> Result<Vec<SymbolInfo>> {
        self.symbols_where("s.parent_id = ?1 ORDER BY s.start_line, s.id", [id])
    }

    pub fn file_symbols(&self, file_id: i64) -> Result<Vec<SymbolInfo>> {
        self.symbols_where("s.file_id = ?1 ORDER BY s.start_line, s.id", [file_id])
    }

    pub fn file_by_path(&self, path: &str) -> Result<Option<FileInfo>> {
        let sql = format!("SELECT {FILE_COLUMNS} FROM files WHERE path = ?1");
        Ok(self.conn.prepare_cached(&sql)?.query_row([path], file_row).optional()?)
    }

    /// Whether some indexed file is in the module (a Java package, a Rust module path).
    pub fn module_exists(&self, module: &str) -> Result<bool> {
        Ok(self.conn.prepare_cached("SELECT 1 FROM files WHERE module = ?1 LIMIT 1")?.query_row([module], |_| Ok(())).optional()?.is_some())
    }

    pub fn file(&self, id: i64) -> Result<Option<FileInfo>> {
        let sql = format!("SELECT {FILE_COLUMNS} FROM files WHERE id = ?1");
        Ok(self.conn.prepare_cached(&sql)?.query_row([id], file_row).optional()?)
    }

    /// (id, file id, qualified name) of many symbols in one statement, without the rest of
    /// their rows: what graph answers sort and group thousands of nodes by.
    pub fn symbol_places(&self, ids: &[i64]) -> Result<Vec<(i64, i64, String)>> {
        let list = serde_json::to_string(ids).expect("ids serialize");
        let mut stmt = self.conn.prepare_cached("SELECT id, file_id, qname FROM symbols WHERE id IN (SELECT value FROM json_each(?1))")?;
        let rows = stmt.query_map([list], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Many files in one statement (missing ids are left out), in no particular order.
    pub fn files_by_ids(&self, ids: &[i64]) -> Result<Vec<FileInfo>> {
        let sql = format!("SELECT {FILE_COLUMNS} FROM files WHERE id IN (SELECT value FROM json_each(?1))");
        let list = serde_json::to_string(ids).expect("ids serialize");
        let rows = self.conn.prepare_cached(&sql)?.query_map([list], file_row)?.collect::<rusqlite::Result<_>>()?;
        Ok(rows)
    }

    /// Indexed files whose path starts with `prefix` ("" for all), sorted.
    pub fn files_under(&self, prefix: &str) -> Result<Vec<FileInfo>> {
        let sql = format!("SELECT {FILE_COLUMNS} FROM files WHERE path LIKE ?1 ESCAPE '\\' ORDER BY path");
        let mut stmt = self.conn.prepare_cached(&sql)?;
        let rows = stmt.query_map([format!("{}%", like_escape(prefix))], file_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Symbols that imports name with this alias (`use a::B as Alias`).
    pub fn alias_targets(&self, alias: &str) -> Result<Vec<i64>> {
        let mut stmt = self.conn.prepare_cached(concat!(
            "SELECT DISTINCT target_id FROM refs WHERE kind = ",
            kind_sql!(imports),
            " AND alias = ?1 AND target_id IS NOT NULL"
        ))?;
        let rows = stmt.query_map([alias], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The re-exports (`pub use`, `pub extern crate`) of files of a module that bring `name`
    /// in, and the glob re-exports there: (the path re-exported, its target if a symbol,
    /// whether a glob). A public path's next step (`engine_core::Searcher` through the
    /// crate root's `pub use search::Searcher;`).
    pub fn reexports(&self, module: &str, name: &str) -> Result<Vec<Reexport>> {
        let mut stmt = self.conn.prepare_cached(concat!(
            "SELECT r.name, r.target_id, (r.flags & 1) != 0 FROM refs r JOIN files f ON f.id = r.file_id WHERE r.kind = ",
            kind_sql!(imports),
            " AND f.module = ?1 AND (r.flags & 4) != 0 AND ((r.flags & 1) != 0 OR COALESCE(r.alias, r.simple, r.name) = ?2)
             ORDER BY r.flags & 1, r.id"
        ))?;
        let rows = stmt.query_map([module, name], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    pub fn external_qname(&self, id: i64) -> Result<Option<String>> {
        Ok(self.conn.prepare_cached("SELECT qname FROM externals WHERE id = ?1")?.query_row([id], |r| r.get(0)).optional()?)
    }

    /// Externals whose last segment is `name` (`WriteColor` for `termcolor::WriteColor`),
    /// at most `limit`, by qualified name. A scan of the externals: only asked when no
    /// symbol of the repository has the name.
    pub fn externals_by_simple_name(&self, name: &str, limit: usize) -> Result<Vec<(i64, String)>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT id, qname FROM externals WHERE qname = ?1 OR qname LIKE ?2 ESCAPE '\\' OR qname LIKE ?3 ESCAPE '\\'
             ORDER BY qname LIMIT ?4",
        )?;
        let escaped = like_escape(name);
        let rows =
            stmt.query_map(params![name, format!("%.{escaped}"), format!("%::{escaped}"), limit as i64], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    pub fn external_by_qname(&self, qname: &str) -> Result<Option<i64>> {
        Ok(self.conn.prepare_cached("SELECT id FROM externals WHERE qname = ?1")?.query_row([qname], |r| r.get(0)).optional()?)
    }

    /// The build units the last full walk read (none when it read no manifest, or when an
    /// index from before units has not been walked again).
    pub fn units(&self) -> Result<crate::build::Units> {
        Ok(self.meta(super::UNITS_KEY)?.and_then(|j| serde_json::from_str(&j).ok()).unwrap_or_default())
    }

    pub fn meta(&self, key: &str) -> Result<Option<String>> {
        Ok(self.conn.prepare_cached("SELECT value FROM meta WHERE key = ?1")?.query_row([key], |r| r.get(0)).optional()?)
    }

    /// References to a symbol (or an external), filtered by kind, in file and line order.
    /// A page of the references to a target and to the symbols `also` (a type's
    /// constructors: who creates it). An ambiguous reference is listed under each
    /// overload it may mean (the one it points at and those in `ref_alts`).
    pub fn references(&self, target: Target, also: &[i64], kinds: &[RefKind], limit: usize, offset: usize) -> Result<ReferencePage> {
        let (column, ids) = match target {
            Target::Symbol(id) => ("r.target_id", std::iter::once(id).chain(also.iter().copied()).collect::<Vec<i64>>()),
            Target::External(id) => ("r.external_id", vec![id]),
        };
        let symbol = matches!(target, Target::Symbol(_));
        let kind_list = kinds.iter().map(|k| k.code().to_string()).collect::<Vec<_>>().join(",");
        // The rows asked for, by id: those pointing at one of `ids`, and (for symbols) the
        // ambiguous ones naming one of them as an alternative. Each part is read through
        // its own index (an OR of the two read the whole table).
        let alternatives = if symbol {
            format!(
                " UNION SELECT x.ref_id FROM ref_alts x JOIN refs a ON a.id = x.ref_id WHERE x.target_id IN (SELECT value FROM json_each(?1))
                 AND a.kind IN ({kind_list}) AND a.file_id IN (SELECT value FROM json_each(?4))"
            )
        } else {
            String::new()
        };
        let filter = format!(
            "r.id IN (SELECT id FROM refs WHERE {} IN (SELECT value FROM json_each(?1)) AND kind IN ({kind_list})
             AND file_id IN (SELECT value FROM json_each(?4)){alternatives})",
            column.trim_start_matches("r.")
        );
        // Per-file counts from the index alone, one query per target and kind: the index is
        // by (target, kind, file), so a kind's references come grouped by file as they are
        // read, where grouping all kinds at once sorted every reference (java.lang.String:
        // 19k, 4 ms). Ordered by path here; then only the files the page overlaps are read.
        let mut by_file: rustc_hash::FxHashMap<i64, (String, i64)> = Default::default();
        let mut counts = Vec::new();
        {
            // Grouped by (kind, file) in the index's own order (no sort), then joined: one
            // file lookup per file and kind, not per reference.
            let direct = format!(
                "SELECT g.kind, f.path, g.file_id, g.n FROM (SELECT r.kind, r.file_id, COUNT(*) AS n FROM refs r WHERE {column} = ?1
                 GROUP BY r.kind, r.file_id) g JOIN files f ON f.id = g.file_id"
            );
            let alternative = "SELECT g.kind, f.path, g.file_id, g.n FROM (SELECT r.kind, r.file_id, COUNT(*) AS n FROM ref_alts x
                 JOIN refs r ON r.id = x.ref_id WHERE x.target_id = ?1 GROUP BY r.kind, r.file_id) g JOIN files f ON f.id = g.file_id";
            let mut of_kind: rustc_hash::FxHashMap<i64, usize> = Default::default();
            for id in &ids {
                // Alternatives only where there are any (a lookup in the table's primary key).
                let alternatives =
                    symbol && self.conn.prepare_cached("SELECT 1 FROM ref_alts WHERE target_id = ?1 LIMIT 1")?.exists([id])?;
                let sqls: &[&str] = if alternatives { &[direct.as_str(), alternative] } else { &[direct.as_str()] };
                for sql in sqls {
                    let mut stmt = self.conn.prepare_cached(sql)?;
                    let mut rows = stmt.query([id])?;
                    while let Some(r) = rows.next()? {
                        let (kind, file, n): (i64, i64, i64) = (r.get(0)?, r.get(2)?, r.get(3)?);
                        *of_kind.entry(kind).or_default() += n as usize;
                        if !RefKind::from_code(kind).is_some_and(|k| kinds.contains(&k)) {
                            continue;
                        }
                        match by_file.entry(file) {
                            std::collections::hash_map::Entry::Occupied(mut e) => e.get_mut().1 += n,
                            std::collections::hash_map::Entry::Vacant(e) => {
                                e.insert((r.get(1)?, n));
                            }
                        }
                    }
                }
            }
            for kind in RefKind::all() {
                if let Some(n) = of_kind.get(&kind.code()).filter(|n| **n > 0) {
                    counts.push((kind, *n));
                }
            }
        }
        let ids = serde_json::to_string(&ids).expect("ids serialize");
        counts.sort_by_key(|(kind, _)| kind.as_str());
        let mut per_file: Vec<(String, i64, i64)> = by_file.into_iter().map(|(file, (path, n))| (path, file, n)).collect();
        per_file.sort();
        let total: i64 = per_file.iter().map(|f| f.2).sum();
        let (mut before, mut seen, mut page_files) = (0i64, 0i64, Vec::new());
        for (_, file_id, n) in &per_file {
            if seen + n > offset as i64 && seen < (offset + limit) as i64 {
                if page_files.is_empty() {
                    before = seen;
                }
                page_files.push(*file_id);
            }
            seen += n;
        }
        let files = serde_json::to_string(&page_files).expect("ids serialize");
        let sql = format!(
            "SELECT f.path, r.line, r.kind, e.qname, r.confidence,
                    CASE WHEN r.confidence = 4 THEN (SELECT COUNT(*) FROM ref_alts x WHERE x.ref_id = r.id) + 1 ELSE 0 END, r.target_id,
                    CASE WHEN r.kind = {calls} THEN r.alias END
             FROM refs r JOIN files f ON f.id = r.file_id
             LEFT JOIN symbols e ON e.id = r.enclosing_id WHERE {filter} AND r.file_id IN (SELECT value FROM json_each(?4))
             ORDER BY f.path, r.line, r.kind, e.qname, r.confidence, r.id LIMIT ?2 OFFSET ?3",
            calls = RefKind::Calls.code()
        );
        let mut stmt = self.conn.prepare_cached(&sql)?;
        let rows = stmt.query_map(params![ids, limit as i64, offset as i64 - before, files], |r| {
            Ok(RefInfo {
                path: r.get(0)?,
                line: r.get(1)?,
                kind: RefKind::from_code(r.get(2)?).unwrap_or(RefKind::UsesType),
                enclosing: r.get(3)?,
                confidence: Confidence::from_code(r.get(4)?).unwrap_or(Confidence::Unresolved),
                overloads: r.get::<_, i64>(5)? as usize,
                target: r.get(6)?,
                implicit_via: r.get(7)?,
            })
        })?;
        Ok(ReferencePage { refs: rows.collect::<rusqlite::Result<_>>()?, total: total as usize, counts })
    }

    /// The edges between declarations from `from` and to `to`: (source, target, kind), once
    /// each. Imports, name-only guesses and references to outside code are left out, as from
    /// the graph. Search's walk (`tools::walk_rank`) reads its neighbourhood with it.
    /// (`+r.target_id`: not by `refs_target`, whose range of every target SQLite would
    /// otherwise scan: 200 ms instead of 1 on `java.base`.)
    pub fn edges_touching(&self, from: &[i64], to: &[i64]) -> Result<Vec<(i64, i64, RefKind)>> {
        let json = |ids: &[i64]| serde_json::to_string(ids).expect("ids serialize");
        let mut stmt = self.conn.prepare_cached(concat!(
            "SELECT r.source_id, r.target_id, r.kind FROM refs r
             WHERE r.source_id IN (SELECT value FROM json_each(?1)) AND +r.target_id IS NOT NULL
               AND r.kind != ",
            kind_sql!(imports),
            " AND r.confidence != 1
             UNION SELECT r.source_id, r.target_id, r.kind FROM refs r
             WHERE r.target_id IN (SELECT value FROM json_each(?2)) AND r.source_id IS NOT NULL
               AND r.kind != ",
            kind_sql!(imports),
            " AND r.confidence != 1"
        ))?;
        let rows = stmt.query_map([json(from), json(to)], |r| {
            Ok((r.get(0)?, r.get(1)?, RefKind::from_code(r.get(2)?).unwrap_or(RefKind::UsesType)))
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The references to `ids` (ambiguous ones that may mean one of them included), grouped
    /// by (source, target, kind), with the first file and line of each group. Imports and
    /// name-only guesses are left out, as from the graph.
    pub fn reference_sources(&self, ids: &[i64]) -> Result<Vec<SourceRow>> {
        let ids = serde_json::to_string(ids).expect("ids serialize");
        let mut stmt = self.conn.prepare_cached(
            concat!("SELECT r.source_id, t.id, r.kind, COUNT(*), MIN(r.file_id * 4294967296 + r.line) FROM (SELECT value AS id FROM json_each(?1)) t
             JOIN refs r ON r.id IN (SELECT id FROM refs WHERE target_id = t.id UNION SELECT ref_id FROM ref_alts WHERE target_id = t.id)
             WHERE r.kind != ", kind_sql!(imports), " AND r.confidence != 1
             GROUP BY r.source_id, t.id, r.kind ORDER BY t.id, r.source_id, r.kind"),
        )?;
        let rows = stmt.query_map([ids], source_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The references to the repository's symbols (imports left out), of every file or of
    /// one, as (file, symbol, declaration referencing it: None at a file's top level), in
    /// table order: what sentence search's `uses` field and its fan-in are made of.
    pub fn symbol_users(&self, file: Option<FileId>, mut each: impl FnMut(i64, i64, Option<i64>)) -> Result<()> {
        let mut stmt = match file {
            None => self.conn.prepare_cached(&format!(
                "SELECT file_id, target_id, source_id FROM refs WHERE target_id IS NOT NULL AND kind != {}",
                kind_sql!(imports)
            ))?,
            Some(_) => self.conn.prepare_cached(&format!(
                "SELECT file_id, target_id, source_id FROM refs WHERE id BETWEEN ?1 AND ?2 AND target_id IS NOT NULL AND kind != {}",
                kind_sql!(imports)
            ))?,
        };
        let mut rows = stmt.query(rusqlite::params_from_iter(file.map(super::ref_ids_of).into_iter().flat_map(|(lo, hi)| [lo, hi])))?;
        while let Some(r) = rows.next()? {
            each(r.get(0)?, r.get(1)?, r.get(2)?);
        }
        Ok(())
    }

    /// The declarations that reference these externals (imports left out): (declaration,
    /// external id) pairs, once each. (The repository's own symbols' users are read all at
    /// once: `symbol_users`.)
    pub fn declarations_using_externals(&self, ids: &[i64]) -> Result<Vec<(i64, i64)>> {
        let ids = serde_json::to_string(ids).expect("ids serialize");
        let mut stmt = self.conn.prepare_cached(concat!(
            "SELECT DISTINCT r.source_id, r.external_id FROM refs r
             WHERE r.external_id IN (SELECT value FROM json_each(?1)) AND r.source_id IS NOT NULL AND r.kind != ",
            kind_sql!(imports)
        ))?;
        let rows = stmt.query_map([ids], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The declarations whose body text (string literals and comments) holds a word starting
    /// with this stem, at most `limit`.
    pub fn text_matches(&self, stem: &str, limit: usize) -> Result<Vec<i64>> {
        let mut stmt = self.conn.prepare_cached("SELECT rowid FROM text_fts WHERE text_fts MATCH ?1 LIMIT ?2")?;
        let rows = stmt.query_map(params![format!("\"{stem}\"*"), limit as i64], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Every external: (id, qualified name).
    pub fn externals(&self) -> Result<Vec<(i64, String)>> {
        let mut stmt = self.conn.prepare_cached("SELECT id, qname FROM externals")?;
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// What some symbols reference (name-only guesses and imports left out), grouped by
    /// source, target and kind: a member's own dependencies. `target` is a symbol id, or
    /// minus an external's id.
    pub fn reference_targets(&self, ids: &[i64]) -> Result<Vec<SourceRow>> {
        let ids = serde_json::to_string(ids).expect("ids serialize");
        let mut stmt = self.conn.prepare_cached(concat!(
            "SELECT r.source_id, COALESCE(r.target_id, -r.external_id), r.kind, COUNT(*), MIN(r.file_id * 4294967296 + r.line)
             FROM refs r WHERE r.source_id IN (SELECT value FROM json_each(?1))
               AND (r.target_id IS NOT NULL OR r.external_id IS NOT NULL)
               AND r.kind != ",
            kind_sql!(imports),
            " AND r.confidence != 1
             GROUP BY r.source_id, 2, r.kind ORDER BY r.source_id, 2, r.kind"
        ))?;
        let rows = stmt.query_map([ids], source_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Name-only guesses left out of the graph around some symbols (a node's symbols),
    /// declared in `files`: (made from them, made to them). Those made from them are read in
    /// their files' ranges.
    pub fn guesses_around(&self, ids: &[i64], files: &[i64]) -> Result<(usize, usize)> {
        let json = serde_json::to_string(ids).expect("ids serialize");
        let to: i64 = self
            .conn
            .prepare_cached("SELECT COUNT(*) FROM refs WHERE target_id IN (SELECT value FROM json_each(?1)) AND confidence = 1")?
            .query_row([&json], |r| r.get(0))?;
        let mut from = 0i64;
        for f in files {
            let (lo, hi) = super::ref_ids_of(*f);
            from += self
                .conn
                .prepare_cached(
                    "SELECT COUNT(*) FROM refs WHERE id BETWEEN ?1 AND ?2 AND confidence = 1 AND source_id IN (SELECT value FROM json_each(?3))",
                )?
                .query_row(params![lo, hi, json], |r| r.get::<_, i64>(0))?;
        }
        Ok((from as usize, to as usize))
    }

    /// A symbol's members: (id, file id).
    pub fn member_ids(&self, id: i64) -> Result<Vec<(i64, i64)>> {
        let mut stmt = self.conn.prepare_cached("SELECT id, file_id FROM symbols WHERE parent_id = ?1")?;
        let rows = stmt.query_map([id], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The types a type extends or implements directly (resolved in the repository).
    pub fn supertype_ids(&self, id: i64) -> Result<Vec<i64>> {
        let mut stmt = self.conn.prepare_cached(super::SUPERTYPES_SQL)?;
        let rows = stmt.query_map([id], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Counts of references to a target by kind.
    pub fn reference_counts(&self, target: Target) -> Result<Vec<(RefKind, usize)>> {
        let (column, id) = match target {
            Target::Symbol(id) => ("target_id", id),
            Target::External(id) => ("external_id", id),
        };
        let sql = format!("SELECT kind, COUNT(*) FROM refs WHERE {column} = ?1 GROUP BY kind ORDER BY kind");
        let mut stmt = self.conn.prepare_cached(&sql)?;
        let rows = stmt.query_map([id], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?)))?;
        let mut out = Vec::new();
        for row in rows {
            let (kind, n) = row?;
            if let Some(kind) = RefKind::from_code(kind) {
                out.push((kind, n as usize));
            }
        }
        out.sort_by_key(|(kind, _)| kind.as_str());
        Ok(out)
    }

    /// `impl Trait for X` of the target trait where X is no symbol of the repository: a
    /// type parameter (a blanket impl) or a type from elsewhere. (path, line, X, blanket)
    pub fn impls_without_type(&self, target: Target) -> Result<Vec<(String, i64, String, bool)>> {
        let (column, id) = match target {
            Target::Symbol(id) => ("r.target_id", id),
            Target::External(id) => ("r.external_id", id),
        };
        let sql = format!(
            "SELECT f.path, r.line, r.subject, r.flags FROM refs r JOIN files f ON f.id = r.file_id
             WHERE {column} = ?1 AND r.kind = {} AND r.source_id IS NULL AND r.subject IS NOT NULL ORDER BY f.path, r.line",
            RefKind::Implements.code()
        );
        let mut stmt = self.conn.prepare_cached(&sql)?;
        let rows = stmt.query_map([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get::<_, i64>(3)? & super::FLAG_BLANKET != 0)))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Types that directly extend or implement the target: (symbol id, edge kind).
    pub fn direct_subtypes(&self, target: Target) -> Result<Vec<(i64, RefKind)>> {
        let (column, id) = match target {
            Target::Symbol(id) => ("target_id", id),
            Target::External(id) => ("external_id", id),
        };
        let sql = format!(
            concat!(
                "SELECT DISTINCT source_id, kind FROM refs WHERE {column} = ?1 AND kind IN (",
                kind_sql!(supertypes),
                ") AND source_id IS NOT NULL ORDER BY source_id"
            ),
            column = column
        );
        let mut stmt = self.conn.prepare_cached(&sql)?;
        let rows = stmt.query_map([id], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?)))?;
        let mut out = Vec::new();
        for row in rows {
            let (id, kind) = row?;
            out.push((id, RefKind::from_code(kind).unwrap_or(RefKind::Implements)));
        }
        Ok(out)
    }

    /// Direct supertypes of a type: (qualified name, edge kind, in the repository).
    pub fn supertypes(&self, id: i64) -> Result<Vec<(String, RefKind, bool)>> {
        let mut stmt = self.conn.prepare_cached(concat!(
            "SELECT DISTINCT COALESCE(t.qname, e.qname, r.name), r.kind, r.target_id IS NOT NULL FROM refs r
             LEFT JOIN symbols t ON t.id = r.target_id LEFT JOIN externals e ON e.id = r.external_id
             WHERE r.source_id = ?1 AND r.kind IN (",
            kind_sql!(supertypes),
            ") ORDER BY r.kind, 1"
        ))?;
        let rows = stmt.query_map([id], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?, r.get::<_, bool>(2)?)))?;
        let mut out = Vec::new();
        for row in rows {
            let (name, kind, internal) = row?;
            out.push((name, RefKind::from_code(kind).unwrap_or(RefKind::Extends), internal));
        }
        Ok(out)
    }

    /// The repository's annotation types a declaration is annotated with: (id, simple name,
    /// modifiers), by name.
    pub fn annotation_types_on(&self, id: i64) -> Result<Vec<(i64, String, String)>> {
        let mut stmt = self.conn.prepare_cached(concat!(
            "SELECT DISTINCT t.id, t.name, t.modifiers FROM refs r JOIN symbols t ON t.id = r.target_id
             WHERE r.source_id = ?1 AND r.kind = ",
            kind_sql!(annotates),
            " AND t.kind = 'annotation' ORDER BY t.name, t.id"
        ))?;
        let rows = stmt.query_map([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The symbols of a file with an `implements` edge to a repository type, or to a type
    /// from outside that is written where it stands (`Runnable r = () -> ..`): a Java lambda
    /// passed to a JDK method (`stream.map(x -> ..)`, a `Function`) has neither.
    pub fn implementing_in_file(&self, file: i64) -> Result<std::collections::HashSet<i64>> {
        let mut stmt = self.conn.prepare_cached(concat!(
            "SELECT source_id FROM refs WHERE id BETWEEN ?1 AND ?2 AND kind IN (",
            kind_sql!(supertypes),
            ") AND source_id IS NOT NULL AND (target_id IS NOT NULL OR (external_id IS NOT NULL AND alias IS NULL))"
        ))?;
        let (lo, hi) = super::ref_ids_of(file);
        let rows = stmt.query_map([lo, hi], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Every distinct symbol name (for typo-tolerant matching).
    pub fn distinct_names(&self) -> Result<Vec<String>> {
        // In the name index's order, so that SQLite needs no temporary B-tree to make them
        // distinct (on the whole JDK that was most of the name list's 130-140 ms after each
        // save): names equal but for ASCII case (the index's collation) come together, and
        // each such run is made distinct here, first come first: `SELECT DISTINCT`'s order.
        let mut stmt = self.conn.prepare_cached("SELECT name FROM symbols ORDER BY name COLLATE NOCASE")?;
        let mut rows = stmt.query([])?;
        let mut out: Vec<String> = Vec::new();
        let mut run = 0;
        while let Some(row) = rows.next()? {
            let name = row.get_ref(0)?.as_str().map_err(rusqlite::Error::from)?;
            if out.get(run).is_some_and(|first| !first.eq_ignore_ascii_case(name)) {
                run = out.len();
            }
            if !out[run..].iter().any(|n| n == name) {
                out.push(name.to_owned());
            }
        }
        Ok(out)
    }

    /// Symbol ids by full-text match on the name words or the doc summary, best first.
    pub fn fts(&self, column: &str, query: &str, limit: usize) -> Result<Vec<i64>> {
        self.ranked()?;
        // bm25 reads each matching row's sizes: a word in thousands of names (`string`)
        // cost milliseconds. The best of the first FTS_SCORED matches is close enough
        // for a ranking that is one vote among several.
        let sql = format!(
            "SELECT rowid FROM (SELECT rowid, symbols_rank(symbols_fts) AS score FROM symbols_fts WHERE {column} MATCH ?1 LIMIT {FTS_SCORED})
             ORDER BY score LIMIT ?2"
        );
        let mut stmt = self.conn.prepare_cached(&sql)?;
        let rows = stmt.query_map(params![query, limit as i64], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Every row matching an FTS5 expression, with its instances of each of the
    /// expression's phrases in each column and its length (`rank::Collected`): what
    /// `symbols_rank` reads of it, for ranking several queries of those phrases at once.
    /// `phrases`: how many the expression has (`symbols_fts` has four columns); with none,
    /// nothing is asked (FTS5 has no empty expression) and no row is collected.
    pub fn fts_collect(&self, expression: &str, phrases: usize) -> Result<super::Collected> {
        if phrases == 0 {
            return Ok(super::Collected::new(0, 4));
        }
        self.ranked()?;
        self.lengths.lock().expect("lengths lock").collect = Some(super::Collected::new(phrases, 4));
        let stepped = (|| -> Result<()> {
            let mut stmt = self.conn.prepare_cached("SELECT symbols_collect(symbols_fts) FROM symbols_fts WHERE symbols_fts MATCH ?1")?;
            let mut rows = stmt.query([expression])?;
            while rows.next()?.is_some() {}
            Ok(())
        })();
        let collected = self.lengths.lock().expect("lengths lock").collect.take().unwrap_or_default();
        stepped.map(|()| collected)
    }

    /// Every symbol's length in the full-text index (its words, owner, doc and place, in
    /// tokens), which `symbols_rank` reads instead of a row a match (`rank`).
    pub fn doc_lengths(&self) -> Result<super::DocLengths> {
        self.lengths_of("symbols_fts_docsize")
    }

    /// How many words the literals and comments of each declaration that has them hold
    /// (FTS5's own count of the row's tokens).
    pub fn text_lengths(&self) -> Result<super::DocLengths> {
        self.lengths_of("text_fts_docsize")
    }

    fn lengths_of(&self, docsize: &str) -> Result<super::DocLengths> {
        let mut stmt = self.conn.prepare_cached(&format!("SELECT id, sz FROM {docsize}"))?;
        // Each row's length summed as it is read: no copy of 400k small blobs (the whole JDK).
        let rows = stmt.query_map([], |r| Ok((r.get::<_, i64>(0)?, super::rank::total_size(r.get_ref(1)?.as_blob()?))))?;
        Ok(super::DocLengths::from_rows(rows.collect::<rusqlite::Result<_>>()?))
    }

    /// The lengths this connection's ranking reads from now on (None: from the index).
    pub fn use_doc_lengths(&self, lengths: Option<std::sync::Arc<super::DocLengths>>) {
        self.lengths.lock().expect("lengths lock").lengths = lengths;
    }

    /// How many symbols the index holds.
    pub fn symbol_count(&self) -> Result<usize> {
        Ok(self.conn.prepare_cached("SELECT COUNT(*) FROM symbols")?.query_row([], |r| r.get::<_, i64>(0))? as usize)
    }

    /// How many symbols match an FTS5 expression.
    pub fn fts_count(&self, expression: &str) -> Result<usize> {
        let n: i64 = self
            .conn
            .prepare_cached("SELECT count(*) FROM symbols_fts WHERE symbols_fts MATCH ?1")?
            .query_row([expression], |r| r.get(0))?;
        Ok(n as usize)
    }

    /// Symbol ids matching a whole FTS5 query expression, best first (all matches scored:
    /// an expression of several words matches few rows).
    pub fn fts_query(&self, expression: &str, limit: usize) -> Result<Vec<i64>> {
        self.ranked()?;
        let mut stmt = self
            .conn
            .prepare_cached("SELECT rowid FROM symbols_fts WHERE symbols_fts MATCH ?1 ORDER BY symbols_rank(symbols_fts) LIMIT ?2")?;
        let rows = stmt.query_map(params![expression, limit as i64], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Symbol ids whose name equals (ignoring case) or starts with `text`.
    pub fn names_like(&self, text: &str, prefix: bool, limit: usize) -> Result<Vec<i64>> {
        // Comparisons under NOCASE (ASCII case folding, as LIKE does) use the index on
        // `name`; a LIKE with an ESCAPE clause would scan the table. A prefix is the range
        // [text, text + U+10FFFF), which no longer name can leave.
        let id = |r: &rusqlite::Row<'_>| r.get(0);
        let rows: Vec<i64> = if prefix {
            let mut stmt = self.conn.prepare_cached(
                "SELECT id FROM symbols WHERE name >= ?1 COLLATE NOCASE AND name < ?2 COLLATE NOCASE ORDER BY length(name), qname LIMIT ?3",
            )?;
            let rows = stmt.query_map(params![text, format!("{text}\u{10FFFF}"), limit as i64], id)?;
            rows.collect::<rusqlite::Result<_>>()?
        } else {
            let mut stmt =
                self.conn.prepare_cached("SELECT id FROM symbols WHERE name = ?1 COLLATE NOCASE ORDER BY length(name), qname LIMIT ?2")?;
            let rows = stmt.query_map(params![text, limit as i64], id)?;
            rows.collect::<rusqlite::Result<_>>()?
        };
        Ok(rows)
    }

    /// Per language: files, lines, symbols.
    pub fn language_counts(&self, prefix: &str) -> Result<Vec<(String, usize, u64, usize)>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT language, COUNT(*), SUM(loc), SUM(symbols) FROM files WHERE path LIKE ?1 ESCAPE '\\' GROUP BY language ORDER BY language",
        )?;
        let rows = stmt.query_map([format!("{}%", like_escape(prefix))], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)? as usize, r.get::<_, i64>(2)? as u64, r.get::<_, i64>(3)? as usize))
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Modules (Java packages, Rust modules) by symbol count: (module, files, symbols).
    /// Symbols for the map's search: (kind, qualified name, path, line); the types and
    /// endpoints first, then the callables, at most `limit`.
    pub fn map_symbols(&self, limit: usize) -> Result<Vec<(String, String, String, u32)>> {
        let types: Vec<&str> = SymbolKind::all().filter(|k| k.is_type() || *k == SymbolKind::Endpoint).map(SymbolKind::as_str).collect();
        let callables: Vec<&str> = SymbolKind::all().filter(|k| k.is_callable()).map(SymbolKind::as_str).collect();
        let mut out = Vec::new();
        for kinds in [types, callables] {
            if out.len() >= limit {
                break;
            }
            let list = serde_json::to_string(&kinds).expect("strings serialize");
            let mut stmt = self.conn.prepare_cached(
                "SELECT s.kind, s.qname || COALESCE('(' || s.params || ')', ''), f.path, s.start_line FROM symbols s JOIN files f ON f.id = s.file_id
                 WHERE s.kind IN (SELECT value FROM json_each(?1)) ORDER BY s.qname, s.id LIMIT ?2",
            )?;
            let rows = stmt.query_map(params![list, (limit - out.len()) as i64], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?;
            for row in rows {
                out.push(row?);
            }
        }
        Ok(out)
    }

    pub fn module_counts(&self, prefix: &str) -> Result<Vec<(String, usize, usize)>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT module, COUNT(*), SUM(symbols) FROM files WHERE path LIKE ?1 ESCAPE '\\' GROUP BY module ORDER BY SUM(symbols) DESC, module",
        )?;
        let rows = stmt.query_map([format!("{}%", like_escape(prefix))], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)? as usize, r.get::<_, i64>(2)? as usize))
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// `main` methods and functions.
    /// Entry points: `main` methods and functions, HTTP endpoints, and methods a framework
    /// calls (`@Scheduled`, listeners: `frameworks::entry_annotations`), by path and line.
    pub fn entry_points(&self, prefix: &str) -> Result<Vec<SymbolInfo>> {
        let mut marked = String::new();
        for (annotation, _) in crate::frameworks::entry_annotations() {
            marked.push_str(&format!(" OR (s.kind = 'method' AND s.modifiers LIKE '%@{annotation}%')"));
        }
        self.symbols_where(
            &format!(
                "((s.name = 'main' AND s.kind IN ('method', 'function')) OR s.kind = 'endpoint'{marked}) AND f.path LIKE ?1 ESCAPE '\\' ORDER BY f.path, s.start_line"
            ),
            [format!("{}%", like_escape(prefix))],
        )
    }

    pub fn count_files(&self) -> Result<usize> {
        Ok(self.conn.query_row("SELECT COUNT(*) FROM files", [], |r| r.get::<_, i64>(0))? as usize)
    }

    /// Which index, at which generation, a reader sees.
    pub fn stamp(&self) -> Result<Stamp> {
        Ok(Stamp {
            index_id: self.meta("index_id")?.unwrap_or_default(),
            generation: self.meta("generation")?.and_then(|g| g.parse().ok()).unwrap_or(0),
        })
    }

    /// Runs `read` on one snapshot of the index: a commit in between is not seen half.
    pub fn snapshot<T>(&self, read: impl FnOnce(&Store) -> Result<T>) -> Result<T> {
        self.conn.execute_batch("BEGIN")?;
        let result = read(self);
        self.conn.execute_batch("COMMIT")?;
        result
    }

    /// The symbols the dependency graph rolls up: every one, or one file's.
    pub fn graph_symbols(&self, file: Option<FileId>) -> Result<Vec<SymbolRow>> {
        let mut stmt = match file {
            None => self.conn.prepare_cached("SELECT id, file_id, parent_id, kind FROM symbols")?,
            Some(_) => self.conn.prepare_cached("SELECT id, file_id, parent_id, kind FROM symbols WHERE file_id = ?1")?,
        };
        let rows = stmt.query_map(rusqlite::params_from_iter(file), |r| {
            let kind = SymbolKind::parse(r.get_ref(3)?.as_str()?).unwrap_or(SymbolKind::Class);
            Ok(SymbolRow { id: r.get(0)?, file: r.get(1)?, parent: r.get(2)?, kind })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Every file, with the generation that last changed its references or symbols.
    pub fn graph_files(&self) -> Result<Vec<(FileRow, u64)>> {
        let mut stmt = self.conn.prepare_cached("SELECT id, module, refs_gen FROM files")?;
        let rows = stmt.query_map([], |r| Ok((FileRow { id: r.get(0)?, module: r.get(1)?, unit: None }, r.get::<_, i64>(2)? as u64)))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The graph's edge rows of every file, or of one: resolved references but imports,
    /// grouped by (file, source, target, kind).
    pub fn graph_edges(&self, file: Option<FileId>) -> Result<Vec<EdgeRow>> {
        // Name-only guesses are no edges (they stay in find_references, marked); nor are
        // imports, except re-exports (`pub use`), which make a module's API of another's.
        const WHERE: &str = concat!(
            "(target_id IS NOT NULL OR external_id IS NOT NULL) AND (kind != ",
            kind_sql!(imports),
            " OR (flags & 4) != 0) AND confidence != 1"
        );
        let mut stmt = match file {
            None => self
                .conn
                .prepare_cached(&format!("SELECT file_id, source_id, target_id, external_id, kind, line FROM refs WHERE {WHERE}"))?,
            Some(_) => self.conn.prepare_cached(&format!(
                "SELECT file_id, source_id, target_id, external_id, kind, line FROM refs WHERE id BETWEEN ?1 AND ?2 AND {WHERE}"
            ))?,
        };
        let mut rows = stmt.query(rusqlite::params_from_iter(file.map(super::ref_ids_of).into_iter().flat_map(|(lo, hi)| [lo, hi])))?;
        // Grouped here rather than by SQL: GROUP BY sorted every reference (java.base: 0.36 s
        // of a 0.40 s graph build); a scan in table order and a hash map take a fraction.
        // Keyed by (file, source, target, kind); external targets are negative, a missing
        // source -1 (ids are positive).
        let mut groups: rustc_hash::FxHashMap<(i64, i64, i64, i64), (u32, u32)> = Default::default();
        while let Some(r) = rows.next()? {
            let target = match (r.get::<_, Option<i64>>(2)?, r.get::<_, Option<i64>>(3)?) {
                (Some(t), _) => t,
                (None, Some(x)) => -x,
                (None, None) => continue,
            };
            let key = (r.get(0)?, r.get::<_, Option<i64>>(1)?.unwrap_or(-1), target, r.get(4)?);
            let line: u32 = r.get(5)?;
            let group = groups.entry(key).or_insert((0, line));
            group.0 += 1;
            group.1 = group.1.min(line);
        }
        // In no particular order: `Graph::build` merges them by node pair anyway.
        Ok(groups
            .into_iter()
            .map(|((file, source, target, kind), (count, line))| EdgeRow {
                file,
                source: (source >= 0).then_some(source),
                target: (target > 0).then_some(target),
                external: (target < 0).then_some(-target),
                kind: RefKind::from_code(kind).unwrap_or(RefKind::UsesType),
                count,
                line,
            })
            .collect())
    }
}

/// What caches of values derived from the index are keyed by: the index's id and its
/// generation (which counts from zero again in a rebuilt index).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stamp {
    pub index_id: String,
    pub generation: u64,
}

/// A reference target: a symbol of the repository or an external name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Symbol(i64),
    External(i64),
}
