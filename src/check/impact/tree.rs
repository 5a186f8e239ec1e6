//! Step 1 of `--base`: REV's tree as `git ls-tree` lists it, and which of
//! its entries decide baselines.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use anyhow::{Result, bail};

use super::super::git::{self, Git};
use super::super::walk::AGENTCTX_IGNORE;

/// The work tree's top directory holding `dir`.
pub(super) fn toplevel(git: &Git) -> Result<PathBuf> {
    let out = git.output(&["rev-parse", "--show-toplevel"])?;
    let text = String::from_utf8_lossy(&out);
    Ok(PathBuf::from(text.trim_end_matches('\n')))
}

/// One entry of `git ls-tree`.
#[derive(Debug, Clone)]
pub(super) struct Entry {
    pub mode: u32,
    pub oid: String,
    pub path: Vec<u8>,
}

impl Entry {
    pub fn is_link(&self) -> bool {
        self.mode == git::MODE_LINK
    }
}

/// Lists REV's tree: every blob, symlink and submodule, by path (the bytes
/// git stores; a repeated path keeps its last entry).
pub(super) fn ls_tree(git: &Git, top: &Path, rev: &str) -> Result<HashMap<Vec<u8>, Entry>> {
    let spec = format!("{rev}^{{tree}}");
    let oid = git
        .output(&["rev-parse", "--verify", "--quiet", &spec])
        .map_err(|_| anyhow::anyhow!("--base {rev}: not a revision of {}", top.display()))?;
    let oid = String::from_utf8_lossy(&oid).trim().to_owned();
    if !is_oid(&oid) {
        bail!("--base {rev}: not a revision of {}", top.display());
    }
    let out = git.output(&["ls-tree", "-r", "-z", "--full-tree", &oid])?;
    let mut entries = HashMap::new();
    for record in out.split(|b| *b == 0).filter(|r| !r.is_empty()) {
        let Some(tab) = record.iter().position(|b| *b == b'\t') else {
            continue;
        };
        let (meta, path) = (&record[..tab], &record[tab + 1..]);
        let meta = String::from_utf8_lossy(meta);
        let mut parts = meta.split(' ');
        let (Some(mode), Some(_kind), Some(oid)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let Ok(mode) = u32::from_str_radix(mode, 8) else {
            continue;
        };
        if !is_oid(oid) {
            continue;
        }
        entries.insert(
            path.to_vec(),
            Entry {
                mode,
                oid: oid.to_owned(),
                path: path.to_vec(),
            },
        );
    }
    Ok(entries)
}

/// A full object id in lowercase hex (SHA-1 or SHA-256).
fn is_oid(text: &str) -> bool {
    matches!(text.len(), 40 | 64) && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// The last component of a tree path.
pub(super) fn base_name(path: &[u8]) -> &[u8] {
    path.rsplit(|b| *b == b'/').next().unwrap_or(path)
}

/// Whether an entry decides baselines: a candidate, a plain root marker or
/// an ignore file (names matched ignoring ASCII case, as the walk does).
pub(super) fn wanted(folded_names: &HashSet<Vec<u8>>, path: &[u8]) -> bool {
    let base = base_name(path);
    folded_names.contains(&base.to_ascii_lowercase()) || is_ignore_file(base)
}

pub(super) fn is_ignore_file(base: &[u8]) -> bool {
    base == b".gitignore" || base == AGENTCTX_IGNORE.as_bytes()
}
