//! Helpers shared by the integration tests: fixture paths and temp copies of fixtures.

use std::path::{Path, PathBuf};

pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata").join(name)
}

/// Every file under `dir`, as sorted paths relative to it, with `/` separators.
pub fn files_under(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push(path.strip_prefix(dir).unwrap().to_string_lossy().replace('\\', "/"));
            }
        }
    }
    out.sort();
    out
}

/// A copy of a fixture in a fresh temp dir, under the fixture's own name (answers
/// that name the repository stay stable), removed when dropped.
pub struct TempRepo {
    _tmp: tempfile::TempDir,
    root: PathBuf,
}

impl TempRepo {
    pub fn path(&self) -> &Path {
        &self.root
    }
}

/// Copies a fixture into a fresh temp dir, so a test can edit it.
pub fn temp_copy(name: &str) -> TempRepo {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join(name);
    let src = fixture(name);
    // A fixture someone indexed or served by hand has an index of its own: not copied.
    for rel in files_under(&src).into_iter().filter(|r| !r.starts_with(".codeatlas/")) {
        let to = root.join(&rel);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(src.join(&rel), to).unwrap();
    }
    TempRepo { _tmp: tmp, root }
}
