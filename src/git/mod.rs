//! Git, read in-process with gix: blob ids (`blob_id`, the one implementation), the diff of
//! the working tree or a revision against `HEAD` (`diff`), the history behind dates,
//! last commits and churn (`history`), and a declaration's last change (`blame`).
//!
//! Owns reading git. It must not parse source code or answer tools: it hands `tools` line
//! ranges, commits and blob ids.

pub mod blame;
pub mod diff;
pub mod history;

/// The git blob id of a file's content in a repository of this hash kind (what its tree
/// holds for the file when the content is unchanged).
pub fn blob_id_in(kind: gix::hash::Kind, bytes: &[u8]) -> anyhow::Result<gix::ObjectId> {
    gix::objs::compute_hash(kind, gix::objs::Kind::Blob, bytes).map_err(|e| anyhow::anyhow!("hashing a blob: {e}"))
}

/// The SHA-1 blob id of a file's content, as bytes (empty if it cannot be computed).
pub fn blob_id(bytes: &[u8]) -> Vec<u8> {
    blob_id_in(gix::hash::Kind::Sha1, bytes).map(|id| id.as_bytes().to_vec()).unwrap_or_default()
}
