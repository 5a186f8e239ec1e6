//! Paths as check shows them: relative to where it was started, `~/` in
//! the home directory, else as the harness writes them.

use std::path::{Path, PathBuf};

/// Shows the harness's paths relative to where check was started.
pub(super) struct Shower {
    /// Paths as the harness writes them (explain), not relative.
    pub(super) absolute: bool,
    pub(super) base: PathBuf,
    pub(super) base_real: Option<PathBuf>,
    pub(super) home: Option<PathBuf>,
    pub(super) home_real: Option<PathBuf>,
}

impl Shower {
    pub(super) fn new(base: &Path, home: Option<&Path>) -> Self {
        Shower {
            absolute: false,
            base: base.to_path_buf(),
            base_real: crate::bounded::canonicalize(base)
                .ok()
                .filter(|r| r != base),
            home: home.map(Path::to_path_buf),
            home_real: home
                .and_then(|h| crate::bounded::canonicalize(h).ok())
                .filter(|r| Some(r.as_path()) != home),
        }
    }

    /// `text` (a harness's error message) with the start directory's
    /// absolute paths in it shown relative (`'/r/a/x.md'` as `'a/x.md'`).
    pub(super) fn within(&self, text: &str) -> String {
        if self.absolute {
            return text.to_owned();
        }
        let mut out = text.to_owned();
        for base in std::iter::once(&self.base).chain(&self.base_real) {
            let prefix = format!("{}/", base.to_string_lossy().trim_end_matches('/'));
            out = out.replace(&prefix, "");
        }
        out
    }

    /// `a/AGENTS.md` inside the start directory, `~/.codex/AGENTS.md` in
    /// the home directory, else absolute (`/proc/self/environ`).
    pub(super) fn show(&self, path: &str) -> String {
        if path.is_empty() || self.absolute {
            return path.to_owned();
        }
        let p = crate::paths::normalize(&self.base, Path::new(path));
        for base in std::iter::once(&self.base).chain(&self.base_real) {
            if p.starts_with(base) {
                return crate::paths::relative(base, &p);
            }
        }
        for home in self.home.iter().chain(&self.home_real) {
            if let Ok(rel) = p.strip_prefix(home) {
                return format!("~/{}", rel.to_string_lossy());
            }
        }
        crate::profile::show(&p)
    }
}
