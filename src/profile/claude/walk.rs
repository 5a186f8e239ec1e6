//! Claude Code's reading of one memory file and its imports (rules 3-4):
//! each path once, links resolved, imports depth first, rules folders in
//! the order the OS lists them.

use std::collections::HashSet;
use std::io;
use std::path::{Path, PathBuf};

use super::{MAX_BYTES, MAX_DEPTH, MISSING, MemoryType, markdown};
use crate::discovery::js_trim;
use crate::paths;
use crate::profile::{FileEntry, Status, Why};

/// One entry of the block.
#[derive(Debug, Clone)]
pub(super) struct Entry {
    pub(super) path: String,
    pub(super) ty: MemoryType,
    pub(super) content: String,
    /// The file that imported it.
    pub(super) parent: Option<String>,
    /// The source (depth 0) its import chain starts at.
    pub(super) root: String,
    pub(super) bytes: Option<u64>,
    /// A rule with `paths:` frontmatter.
    pub(super) conditional: bool,
}

/// What one read gives: the entries, and the files that gave none.
pub(super) struct Walk<'a> {
    pub(super) cwd: &'a Path,
    pub(super) home: &'a Path,
    pub(super) seen: HashSet<PathBuf>,
    /// Files met that gave no entry, in the order met (recorded only when
    /// `record` is on).
    pub(super) skipped: Vec<FileEntry>,
    pub(super) record: bool,
    /// The import chain being read (for the cycle wording).
    pub(super) stack: Vec<PathBuf>,
}

/// Whether `path` is `dir` or below it.
pub(super) fn inside(path: &Path, dir: &Path) -> bool {
    path.starts_with(dir)
}

/// The real path, or the path itself when it does not resolve.
fn real(path: &Path) -> PathBuf {
    crate::bounded::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// The real path with missing components kept: the longest existing
/// ancestor resolved, the rest appended.
pub(super) fn real_kept(path: &Path) -> PathBuf {
    let mut rest = Vec::new();
    let mut cur = path;
    loop {
        if let Ok(r) = crate::bounded::canonicalize(cur) {
            return rest.iter().rev().fold(r, |acc: PathBuf, c| acc.join(c));
        }
        match (cur.parent(), cur.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                cur = parent;
            }
            _ => return path.to_path_buf(),
        }
    }
}

/// Node's `extname`, lower-cased: from the last `.` of the base name that
/// is not its first character.
pub(super) fn extension(path: &Path) -> String {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    match name.rfind('.') {
        Some(i) if i > 0 => name[i..].to_lowercase(),
        _ => String::new(),
    }
}

const TEXT_EXTENSIONS: &[&str] = &[
    ".md",
    ".txt",
    ".text",
    ".json",
    ".yaml",
    ".yml",
    ".toml",
    ".xml",
    ".csv",
    ".html",
    ".htm",
    ".css",
    ".scss",
    ".sass",
    ".less",
    ".js",
    ".ts",
    ".tsx",
    ".jsx",
    ".mjs",
    ".cjs",
    ".mts",
    ".cts",
    ".py",
    ".pyi",
    ".pyw",
    ".rb",
    ".erb",
    ".rake",
    ".go",
    ".rs",
    ".java",
    ".kt",
    ".kts",
    ".scala",
    ".c",
    ".cpp",
    ".cc",
    ".cxx",
    ".h",
    ".hpp",
    ".hxx",
    ".cs",
    ".swift",
    ".sh",
    ".bash",
    ".zsh",
    ".fish",
    ".ps1",
    ".bat",
    ".cmd",
    ".env",
    ".ini",
    ".cfg",
    ".conf",
    ".config",
    ".properties",
    ".sql",
    ".graphql",
    ".gql",
    ".proto",
    ".vue",
    ".svelte",
    ".astro",
    ".ejs",
    ".hbs",
    ".pug",
    ".jade",
    ".php",
    ".pl",
    ".pm",
    ".lua",
    ".r",
    ".dart",
    ".ex",
    ".exs",
    ".erl",
    ".hrl",
    ".clj",
    ".cljs",
    ".cljc",
    ".edn",
    ".hs",
    ".lhs",
    ".elm",
    ".ml",
    ".mli",
    ".f",
    ".f90",
    ".f95",
    ".for",
    ".cmake",
    ".make",
    ".makefile",
    ".gradle",
    ".sbt",
    ".rst",
    ".adoc",
    ".asciidoc",
    ".org",
    ".tex",
    ".latex",
    ".lock",
    ".log",
    ".diff",
    ".patch",
];

/// What reading one file found before its text is used.
enum Read {
    Missing,
    /// Not a regular file (links followed).
    NotRegular,
    TooLarge,
    Failed(io::Error),
    Text(u64, String),
}

fn read_text(path: &Path) -> Read {
    let meta = match crate::bounded::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Read::Missing,
        Err(e) if e.raw_os_error() == Some(libc::ENOTDIR) => return Read::Missing,
        Err(e) => return Read::Failed(e),
    };
    if !meta.is_file() {
        return Read::NotRegular;
    }
    if meta.len() > MAX_BYTES {
        return Read::TooLarge;
    }
    match crate::profile::read_file(path, Some(MAX_BYTES)) {
        Ok(bytes) => Read::Text(meta.len(), String::from_utf8_lossy(&bytes).into_owned()),
        Err(e) => Read::Failed(e),
    }
}

impl Walk<'_> {
    pub(super) fn skip(
        &mut self,
        path: &Path,
        status: Status,
        why: Why,
        ty: MemoryType,
        parent: Option<&str>,
    ) {
        if !self.record {
            return;
        }
        let size = crate::profile::file_size(&self.cwd.join(path));
        let mut entry = FileEntry::new(crate::profile::show(path), size, status).why(why);
        entry.memory = Some(ty);
        entry.imported_by = parent.map(str::to_owned);
        self.skipped.push(entry);
    }

    /// Rule 3: one file and, depth first, its imports.
    pub(super) fn read(
        &mut self,
        path: &Path,
        ty: MemoryType,
        depth: usize,
        parent: Option<&str>,
        external: bool,
    ) -> Vec<Entry> {
        let fs_path = self.cwd.join(path);
        let Some((resolved, linked)) = self.admit(path, &fs_path, ty, depth, parent, external)
        else {
            return Vec::new();
        };
        // Claude Code never reads a device or process file ("names a device
        // or process file"); neither does agentctx.
        let special = |p: &Path| ["/proc", "/sys", "/dev"].iter().any(|d| p.starts_with(d));
        if special(&fs_path) || special(&resolved) {
            let why = Why::Error("a device or process file".to_owned());
            self.skip(path, Status::Unreadable, why, ty, parent);
            return Vec::new();
        }
        let Some((bytes, raw)) = self.text(path, &fs_path, ty, parent) else {
            return Vec::new();
        };
        if linked {
            self.seen.insert(resolved.clone());
        }
        let ext = extension(path);
        if !ext.is_empty() && !TEXT_EXTENSIONS.contains(&ext.as_str()) {
            self.skip(path, Status::NotText, Why::None, ty, parent);
            return Vec::new();
        }
        let fm = markdown::frontmatter(&raw);
        let content = markdown::strip_comments(fm.body).unwrap_or_else(|| fm.body.to_owned());
        if js_trim(&content).is_empty() {
            self.skip(path, Status::Empty, Why::None, ty, parent);
            return Vec::new();
        }
        let shown = crate::profile::show(path);
        let mut out = vec![Entry {
            path: shown.clone(),
            ty,
            content,
            parent: parent.map(str::to_owned),
            root: shown.clone(),
            bytes: Some(bytes),
            conditional: fm.paths.is_some(),
        }];
        let base = resolved.parent().unwrap_or(Path::new("/")).to_path_buf();
        self.stack.push(path.to_path_buf());
        out.extend(self.imports(fm.body, &base, (ty, depth), &shown, external));
        self.stack.pop();
        out
    }

    /// Rule 3's gate: a file read already, too deep, outside the cwd, or
    /// the same as one read, is noted (when it exists) and not read; else
    /// it is marked read, with its real path and whether it is a link.
    fn admit(
        &mut self,
        path: &Path,
        fs_path: &Path,
        ty: MemoryType,
        depth: usize,
        parent: Option<&str>,
        external: bool,
    ) -> Option<(PathBuf, bool)> {
        let exists = crate::bounded::symlink_metadata(fs_path).is_ok();
        if self.seen.contains(path) {
            if exists {
                let why = if self.stack.iter().any(|p| p == path) {
                    Why::Rule("a cycle: this file is being imported already")
                } else {
                    Why::Rule("read already: Claude Code reads each file once")
                };
                self.skip(path, Status::Duplicate, why, ty, parent);
            }
            return None;
        }
        if depth >= MAX_DEPTH {
            if exists {
                self.skip(path, Status::TooDeep, Why::None, ty, parent);
            }
            return None;
        }
        // A missing file resolves to itself (no realpath walk for it).
        let resolved = if exists {
            real(fs_path)
        } else {
            fs_path.to_path_buf()
        };
        let linked = resolved != path;
        if depth > 0 && !external && !inside(&resolved, self.cwd) {
            if exists {
                self.skip(path, Status::Outside, Why::None, ty, parent);
            }
            return None;
        }
        if linked && self.seen.contains(&resolved) {
            if exists {
                self.skip(
                    path,
                    Status::Duplicate,
                    Why::By(crate::profile::show(&resolved)),
                    ty,
                    parent,
                );
            }
            return None;
        }
        self.seen.insert(path.to_path_buf());
        Some((resolved, linked))
    }

    /// The imports of a file's body, each read once, depth first.
    fn imports(
        &mut self,
        body: &str,
        base: &Path,
        (ty, depth): (MemoryType, usize),
        shown: &str,
        external: bool,
    ) -> Vec<Entry> {
        // Claude Code keeps the resolved paths in a set: each path once.
        let mut targets: Vec<PathBuf> = Vec::new();
        for token in markdown::import_tokens(body) {
            let target = self.resolve(&token, base);
            if !targets.contains(&target) {
                targets.push(target);
            }
        }
        let mut out = Vec::new();
        for target in targets {
            if !external && !inside(&target, self.cwd) {
                if crate::bounded::symlink_metadata(&target).is_ok() {
                    self.skip(&target, Status::Outside, Why::None, ty, Some(shown));
                }
                continue;
            }
            out.extend(self.read(&target, ty, depth + 1, Some(shown), external));
        }
        out
    }

    /// The text of a file to read, or `None` with why it gives none noted.
    fn text(
        &mut self,
        path: &Path,
        fs_path: &Path,
        ty: MemoryType,
        parent: Option<&str>,
    ) -> Option<(u64, String)> {
        let (status, why) = match read_text(fs_path) {
            Read::Text(bytes, raw) => return Some((bytes, raw)),
            Read::Missing if parent.is_none() => return None,
            Read::Missing => (Status::Unreadable, Why::Error(MISSING.to_owned())),
            Read::NotRegular => (
                Status::Unreadable,
                Why::Error("not a regular file".to_owned()),
            ),
            Read::TooLarge => (Status::TooLarge, Why::None),
            Read::Failed(e) => (
                Status::Unreadable,
                Why::Error(crate::discovery::os_error(&e)),
            ),
        };
        self.skip(path, status, why, ty, parent);
        None
    }

    /// An import token's path: `~/` from home, absolute as is, else against
    /// the importing file's (real) directory; normalised.
    fn resolve(&self, token: &str, base: &Path) -> PathBuf {
        let joined = match token.strip_prefix("~/") {
            Some(rest) => self.home.join(rest),
            None => PathBuf::from(token),
        };
        paths::normalize(base, &joined)
    }

    /// Rule 4: a rules folder, walked in the order the OS lists it.
    pub(super) fn rules(
        &mut self,
        dir: &Path,
        ty: MemoryType,
        external: bool,
        visited: &mut HashSet<PathBuf>,
        top: bool,
    ) -> Vec<Entry> {
        if visited.contains(dir) {
            return Vec::new();
        }
        let fs_dir = self.cwd.join(dir);
        let resolved = crate::bounded::canonicalize(&fs_dir);
        let canonical = resolved.is_ok();
        let resolved = resolved.unwrap_or_else(|_| fs_dir.clone());
        let linked = resolved != dir;
        visited.insert(dir.to_path_buf());
        if linked {
            visited.insert(resolved.clone());
        }
        if top && !external && !inside(&resolved, self.cwd) {
            let is_link = |p: &Path| {
                crate::bounded::symlink_metadata(p).is_ok_and(|m| m.file_type().is_symlink())
            };
            let parent_link =
                ty == MemoryType::Project && linked && fs_dir.parent().is_some_and(is_link);
            if is_link(&fs_dir) || parent_link {
                self.skip(dir, Status::Outside, Why::None, ty, None);
                return Vec::new();
            }
        }
        let Ok(listing) = crate::bounded::read_dir(&resolved) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for item in listing.filter_map(Result::ok) {
            let name = item.file_name();
            let constructed = dir.join(&name);
            let target = real(&self.cwd.join(&constructed));
            let link = target != constructed;
            let (is_dir, is_file) = if link {
                match crate::bounded::metadata(&target) {
                    Ok(m) => (m.is_dir(), m.is_file()),
                    Err(_) => (false, false),
                }
            } else {
                match item.file_type() {
                    Ok(t) => (t.is_dir(), t.is_file()),
                    Err(_) => (false, false),
                }
            };
            let elsewhere =
                canonical && target != resolved.join(&name) && !inside(&target, self.cwd);
            if is_dir {
                if elsewhere && !external {
                    self.skip(&constructed, Status::Outside, Why::None, ty, None);
                    continue;
                }
                out.extend(self.rules(&target, ty, external, visited, false));
            } else if is_file && name.to_string_lossy().ends_with(".md") {
                if elsewhere && !external {
                    self.skip(&constructed, Status::Outside, Why::None, ty, None);
                    continue;
                }
                for entry in self.read(&target, ty, 0, None, external) {
                    if entry.conditional {
                        let why = Why::Rule(
                            "a `paths:` rule: loaded when a matching file is read, not at start",
                        );
                        let p = PathBuf::from(&entry.path);
                        self.skip(&p, Status::Conditional, why, ty, entry.parent.as_deref());
                    } else {
                        out.push(entry);
                    }
                }
            }
        }
        out
    }
}
