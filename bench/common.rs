//! Helpers the benchmarks share: a copy of the tree to measure on, and percentiles.

use std::path::Path;
use std::time::Duration;

/// Copies `from` to `to` (without any `.repochart/`), so that a benchmark never touches
/// the tree it was given. Returns the number of files copied.
pub fn copy_tree(from: &Path, to: &Path) -> usize {
    let mut n = 0;
    for entry in ignore::WalkBuilder::new(from).hidden(false).build().flatten() {
        let Ok(rel) = entry.path().strip_prefix(from) else { continue };
        if rel.starts_with(".repochart") {
            continue;
        }
        let target = to.join(rel);
        if entry.file_type().is_some_and(|t| t.is_dir()) {
            std::fs::create_dir_all(&target).unwrap();
        } else if entry.file_type().is_some_and(|t| t.is_file()) {
            std::fs::copy(entry.path(), &target).unwrap();
            n += 1;
        }
    }
    sync_disk();
    n
}

/// Writes what the kernel holds for the disk now, so that its write-back of a copy (or of
/// an index just built) does not run during the measurement that follows.
pub fn sync_disk() {
    // SAFETY: sync(2) takes no arguments and cannot fail.
    unsafe { libc::sync() };
}

/// The `p` percentile (0..=1) of sorted durations.
pub fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}
