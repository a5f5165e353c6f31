//! Build script: a fingerprint of the program's own source (`src/`), so that an index made
//! by another build of the same version (a development build of another commit, whose
//! extraction or resolution may differ) is rebuilt rather than served stale. The grammar
//! queries and rules are fingerprinted at run time (`store::extractor_fingerprint`).

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

fn main() {
    println!("cargo:rerun-if-changed=src");
    let mut files = Vec::new();
    collect(Path::new("src"), &mut files);
    files.sort();
    let mut hasher = DefaultHasher::new();
    for path in &files {
        path.to_string_lossy().hash(&mut hasher);
        std::fs::read(path).unwrap_or_default().hash(&mut hasher);
    }
    println!("cargo:rustc-env=REPOCHART_SOURCE_HASH={:016x}", hasher.finish());
}

fn collect(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}
