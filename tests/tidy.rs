//! House rules checked as tests: every source file says what it owns in a `//!` header,
//! and every module is named in ARCHITECTURE.md's code map.

use std::path::Path;

use crate::util::files_under;

#[test]
fn every_source_file_starts_with_a_module_doc() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let missing: Vec<String> = files_under(&src)
        .into_iter()
        .filter(|f| f.ends_with(".rs"))
        .filter(|f| !std::fs::read_to_string(src.join(f)).unwrap().starts_with("//!"))
        .collect();
    assert_eq!(missing, Vec::<String>::new(), "files without a //! header");
}

#[test]
fn architecture_md_names_every_module() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let architecture = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    let missing: Vec<String> = files_under(&root.join("src"))
        .into_iter()
        .map(|f| f.trim_end_matches(".rs").split('/').next().unwrap().to_string())
        .filter(|m| m != "main" && m != "lib")
        .filter(|m| !architecture.contains(&format!("`{m}`")))
        .collect();
    assert_eq!(missing, Vec::<String>::new(), "modules missing from ARCHITECTURE.md");
}
