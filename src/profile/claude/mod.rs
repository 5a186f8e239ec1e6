//! Claude Code (SPEC 10.6): the memory files of its first request, the
//! `<system-reminder>` block that carries them, byte for byte. Managed and
//! user files, then each directory from the top down to the cwd
//! (`CLAUDE.md`, `.claude/CLAUDE.md`, `.claude/rules/**`, `CLAUDE.local.md`),
//! `@imports` as their own entries, then the AGENTS.md files where no
//! CLAUDE.md holds them back.

mod markdown;

use std::collections::HashSet;
use std::io;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value;

use super::{
    FileEntry, Note, NoteKind, Origin, Part, Profile, ProfileSettings, Report, Setting, Status, Why,
};
use crate::discovery::js_trim;
use crate::paths;

/// The text Claude Code puts before the entries [CL-desc].
pub const HEADER: &str = "Codebase and user instructions are shown below. Be sure to adhere to these instructions. IMPORTANT: These instructions OVERRIDE any default behavior and you MUST follow them exactly as written.";

/// Files larger than this are skipped (`too-large`).
pub const MAX_BYTES: u64 = 4_194_304;

/// Claude Code warns about a memory file longer than this (UTF-16 code units).
pub const WARN_CHARS: usize = 40_000;

/// Imports are followed to this depth (a source is depth 0).
pub const MAX_DEPTH: usize = 5;

/// Why an import that does not resolve gives nothing.
pub const MISSING: &str = "No such file or directory";

/// The names that make a directory a cwd worth checking (`check`).
pub const CANDIDATES: [&str; 3] = ["CLAUDE.md", "CLAUDE.local.md", "AGENTS.md"];

/// Where the managed (organisation) files live on Linux.
pub const MANAGED_DIR: &str = "/etc/claude-code";

/// Who a memory file belongs to, as Claude Code types it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum MemoryType {
    Managed,
    User,
    Project,
    Local,
}

impl MemoryType {
    /// The description Claude Code writes after the path.
    #[must_use]
    pub fn description(self) -> &'static str {
        match self {
            MemoryType::Managed => "organization-managed policy instructions",
            MemoryType::User => "user's private global instructions for all projects",
            MemoryType::Project => "project instructions, checked into the codebase",
            MemoryType::Local => "user's private project instructions, not checked in",
        }
    }

    fn is_project_own(self) -> bool {
        matches!(self, MemoryType::Project | MemoryType::Local)
    }
}

/// Everything the claude profile needs, resolved by the caller.
#[derive(Debug, Clone)]
pub struct Input {
    /// Absolute; its links are resolved here (Claude Code runs in the real path).
    pub cwd: PathBuf,
    pub home: PathBuf,
    /// `--claude-config-dir` (absolute), else `$CLAUDE_CONFIG_DIR` as set
    /// (relative to the cwd, empty included: real agent, case
    /// `cl-src-config-dir-empty-project`), else `~/.claude`.
    pub config_dir: PathBuf,
    pub config_dir_origin: Origin,
    /// `CLAUDE_CODE_DISABLE_CLAUDE_MDS` as set.
    pub disable: Option<String>,
    /// Where the managed files are (`/etc/claude-code`; tests move it).
    pub managed_dir: PathBuf,
}

impl Input {
    /// `~/.claude.json`, or `<config dir>/.claude.json` when the config dir
    /// was given (flag or variable).
    #[must_use]
    pub fn global_config(&self) -> PathBuf {
        match self.config_dir_origin {
            Origin::Default => self.home.join(".claude.json"),
            _ => node_join(&self.config_dir, ".claude.json"),
        }
    }
}

/// `path.join(dir, name)` as Node writes it: an empty `dir` leaves `name`.
fn node_join(dir: &Path, name: &str) -> PathBuf {
    if dir.as_os_str().is_empty() {
        PathBuf::from(name)
    } else {
        dir.join(name)
    }
}

/// One entry of the block.
#[derive(Debug, Clone)]
struct Entry {
    path: String,
    ty: MemoryType,
    content: String,
    /// The file that imported it.
    parent: Option<String>,
    /// The source (depth 0) its import chain starts at.
    root: String,
    bytes: Option<u64>,
    /// A rule with `paths:` frontmatter.
    conditional: bool,
}

/// What one read gives: the entries, and the files that gave none.
struct Walk<'a> {
    cwd: &'a Path,
    home: &'a Path,
    seen: HashSet<PathBuf>,
    /// Files met that gave no entry, in the order met (recorded only when
    /// `record` is on).
    skipped: Vec<FileEntry>,
    record: bool,
    /// The import chain being read (for the cycle wording).
    stack: Vec<PathBuf>,
}

/// Whether `path` is `dir` or below it.
fn inside(path: &Path, dir: &Path) -> bool {
    path.starts_with(dir)
}

/// The real path, or the path itself when it does not resolve.
fn real(path: &Path) -> PathBuf {
    crate::bounded::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// The real path with missing components kept: the longest existing
/// ancestor resolved, the rest appended.
fn real_kept(path: &Path) -> PathBuf {
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
fn extension(path: &Path) -> String {
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
    match super::read_file(path, Some(MAX_BYTES)) {
        Ok(bytes) => Read::Text(meta.len(), String::from_utf8_lossy(&bytes).into_owned()),
        Err(e) => Read::Failed(e),
    }
}

impl Walk<'_> {
    fn skip(
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
        let size = super::file_size(&self.cwd.join(path));
        let mut entry = FileEntry::new(super::show(path), size, status).why(why);
        entry.memory = Some(ty);
        entry.imported_by = parent.map(str::to_owned);
        self.skipped.push(entry);
    }

    /// Rule 3: one file and, depth first, its imports.
    fn read(
        &mut self,
        path: &Path,
        ty: MemoryType,
        depth: usize,
        parent: Option<&str>,
        external: bool,
    ) -> Vec<Entry> {
        let fs_path = self.cwd.join(path);
        let exists = crate::bounded::symlink_metadata(&fs_path).is_ok();
        if self.seen.contains(path) {
            if exists {
                let why = if self.stack.iter().any(|p| p == path) {
                    Why::Rule("a cycle: this file is being imported already")
                } else {
                    Why::Rule("read already: Claude Code reads each file once")
                };
                self.skip(path, Status::Duplicate, why, ty, parent);
            }
            return Vec::new();
        }
        if depth >= MAX_DEPTH {
            if exists {
                self.skip(path, Status::TooDeep, Why::None, ty, parent);
            }
            return Vec::new();
        }
        // A missing file resolves to itself (no realpath walk for it).
        let resolved = if exists {
            real(&fs_path)
        } else {
            fs_path.clone()
        };
        let linked = resolved != path;
        if depth > 0 && !external && !inside(&resolved, self.cwd) {
            if exists {
                self.skip(path, Status::Outside, Why::None, ty, parent);
            }
            return Vec::new();
        }
        if linked && self.seen.contains(&resolved) {
            if exists {
                self.skip(
                    path,
                    Status::Duplicate,
                    Why::By(super::show(&resolved)),
                    ty,
                    parent,
                );
            }
            return Vec::new();
        }
        self.seen.insert(path.to_path_buf());
        // Claude Code never reads a device or process file ("names a device
        // or process file"); neither does agentctx.
        let special = |p: &Path| ["/proc", "/sys", "/dev"].iter().any(|d| p.starts_with(d));
        if special(&fs_path) || special(&resolved) {
            let why = Why::Error("a device or process file".to_owned());
            self.skip(path, Status::Unreadable, why, ty, parent);
            return Vec::new();
        }
        let (bytes, raw) = match read_text(&fs_path) {
            Read::Text(bytes, raw) => (bytes, raw),
            Read::Missing => {
                if parent.is_some() {
                    let why = Why::Error(MISSING.to_owned());
                    self.skip(path, Status::Unreadable, why, ty, parent);
                }
                return Vec::new();
            }
            Read::NotRegular => {
                let why = Why::Error("not a regular file".to_owned());
                self.skip(path, Status::Unreadable, why, ty, parent);
                return Vec::new();
            }
            Read::TooLarge => {
                self.skip(path, Status::TooLarge, Why::None, ty, parent);
                return Vec::new();
            }
            Read::Failed(e) => {
                let why = Why::Error(crate::discovery::os_error(&e));
                self.skip(path, Status::Unreadable, why, ty, parent);
                return Vec::new();
            }
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
        let shown = super::show(path);
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
        // Claude Code keeps the resolved paths in a set: each path once.
        let mut targets: Vec<PathBuf> = Vec::new();
        for token in markdown::import_tokens(fm.body) {
            let target = self.resolve(&token, &base);
            if !targets.contains(&target) {
                targets.push(target);
            }
        }
        for target in targets {
            if !external && !inside(&target, self.cwd) {
                if crate::bounded::symlink_metadata(&target).is_ok() {
                    self.skip(&target, Status::Outside, Why::None, ty, Some(&shown));
                }
                continue;
            }
            out.extend(self.read(&target, ty, depth + 1, Some(&shown), external));
        }
        self.stack.pop();
        out
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
    fn rules(
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

/// Rule 9: whether G approves imports leaving the cwd for project `key`.
fn approval(global: &Path, key: &Path, warnings: &mut Vec<String>) -> (bool, Origin) {
    let bytes = match super::bounded::read_config(global) {
        Ok(Some(bytes)) => bytes,
        Ok(None) => return (false, Origin::Default),
        Err(e) => {
            warnings.push(format!(
                "{}: cannot be read ({}); imports outside the cwd count as not approved",
                global.display(),
                crate::discovery::os_error(&e)
            ));
            return (false, Origin::Default);
        }
    };
    let value: Value = match serde_json::from_slice(&bytes) {
        Ok(v) => v,
        Err(e) => {
            warnings.push(format!(
                "{}: not valid JSON ({e}); imports outside the cwd count as not approved",
                global.display()
            ));
            return (false, Origin::Default);
        }
    };
    // JavaScript truthiness (real agent: cases `cl-approved-truthy-*`).
    let approved = value
        .get("projects")
        .and_then(|p| p.get(super::show(key)))
        .and_then(|p| p.get("hasClaudeMdExternalIncludesApproved"))
        .is_some_and(|v| match v {
            Value::Null => false,
            Value::Bool(b) => *b,
            Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
            Value::String(s) => !s.is_empty(),
            Value::Array(_) | Value::Object(_) => true,
        });
    (approved, Origin::Settings(super::show(global)))
}

/// The project key of `~/.claude.json`: the nearest ancestor-or-self of
/// the cwd holding `.git`, else the cwd.
fn project_key(cwd: &Path) -> PathBuf {
    cwd.ancestors()
        .find(|d| crate::bounded::symlink_metadata(d.join(".git")).is_ok())
        .unwrap_or(cwd)
        .to_path_buf()
}

/// Whether `CLAUDE_CODE_DISABLE_CLAUDE_MDS` switches the files off.
fn disabled(value: Option<&str>) -> bool {
    value.is_some_and(|v| {
        matches!(
            v.trim().to_lowercase().as_str(),
            "1" | "true" | "yes" | "on"
        )
    })
}

/// The directory of an entry for the AGENTS.md placement: the path before
/// its last `/.claude/`, else its directory.
fn project_dir_of(path: &str) -> &str {
    let cut = path.rfind("/.claude/").or_else(|| path.rfind('/'));
    match cut {
        Some(i) if i > 0 => &path[..i],
        _ => "/",
    }
}

fn is_below(path: &str, dir: &str) -> bool {
    path.strip_prefix(dir)
        .is_some_and(|rest| rest.starts_with('/'))
        && path != dir
        || dir == "/" && path.len() > 1 && path.starts_with('/')
}

/// Rule 8's insertion point for a group of AGENTS.md entries of `dir`.
fn insertion_index(entries: &[Entry], dir: &str) -> usize {
    if let Some(i) = entries
        .iter()
        .position(|e| e.ty.is_project_own() && is_below(project_dir_of(&e.root), dir))
    {
        return i;
    }
    match entries.iter().rposition(|e| e.ty.is_project_own()) {
        Some(i) => i + 1,
        None => entries.len(),
    }
}

/// The directories of rule 1: from the one below `/` down to the cwd.
fn chain(cwd: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = cwd
        .ancestors()
        .filter(|d| d.parent().is_some())
        .map(Path::to_path_buf)
        .collect();
    dirs.reverse();
    dirs
}

/// What Claude Code loads for `input.cwd`.
#[must_use]
pub fn load(input: &Input) -> Report {
    let cwd = real_kept(&input.cwd);
    let global = cwd.join(input.global_config());
    let key = project_key(&cwd);
    let mut warnings = Vec::new();
    let (approved, approved_origin) = approval(&global, &key, &mut warnings);
    let off = disabled(input.disable.as_deref());
    let mut settings = ProfileSettings::default();
    settings.push(
        "config_dir",
        Setting::new(
            super::show(&input.config_dir),
            input.config_dir_origin.clone(),
        ),
    );
    settings.push(
        "global_config",
        Setting::new(super::show(&global), Origin::Derived),
    );
    settings.push(
        "project_key",
        Setting::new(super::show(&key), Origin::Derived),
    );
    settings.push(
        "external_includes_approved",
        Setting::new(approved, approved_origin),
    );
    settings.push(
        "disable_claude_mds",
        Setting::new(
            off,
            match input.disable {
                Some(_) => Origin::Env("CLAUDE_CODE_DISABLE_CLAUDE_MDS".to_owned()),
                None => Origin::Default,
            },
        ),
    );
    let mut report = Report::new(Profile::Claude, settings);
    report.warnings = warnings;
    if off {
        return report;
    }
    let mut walk = Walk {
        cwd: &cwd,
        home: &input.home,
        seen: HashSet::new(),
        skipped: Vec::new(),
        record: true,
        stack: Vec::new(),
    };
    let mut visited = HashSet::new();
    let managed_md = input.managed_dir.join("CLAUDE.md");
    let user_md = node_join(&input.config_dir, "CLAUDE.md");
    let mut entries = walk.read(&managed_md, MemoryType::Managed, 0, None, approved);
    entries.extend(managed_settings_text(&input.managed_dir));
    let managed_rules = input.managed_dir.join(".claude/rules");
    entries.extend(walk.rules(
        &managed_rules,
        MemoryType::Managed,
        approved,
        &mut visited,
        true,
    ));
    entries.extend(walk.read(&user_md, MemoryType::User, 0, None, true));
    let user_rules = node_join(&input.config_dir, "rules");
    entries.extend(walk.rules(&user_rules, MemoryType::User, true, &mut visited, true));
    let dirs = chain(&cwd);
    for dir in &dirs {
        for name in ["CLAUDE.md", ".claude/CLAUDE.md"] {
            entries.extend(walk.read(&dir.join(name), MemoryType::Project, 0, None, approved));
        }
        let rules = dir.join(".claude/rules");
        entries.extend(walk.rules(&rules, MemoryType::Project, approved, &mut visited, true));
        let local = dir.join("CLAUDE.local.md");
        entries.extend(walk.read(&local, MemoryType::Local, 0, None, approved));
    }
    let agents = agents_md(
        &mut walk,
        &dirs,
        [&managed_md, &user_md],
        approved,
        &entries,
    );
    let entries = insert_agents(entries, agents);
    not_modelled(input, &dirs, &mut report);
    if !entries.is_empty() {
        let body: Vec<String> = entries
            .iter()
            .map(|e| {
                format!(
                    "Contents of {} ({}):\n\n{}",
                    e.path,
                    e.ty.description(),
                    js_trim(&e.content)
                )
            })
            .collect();
        report.parts.push(Part {
            kind: "system-reminder".to_owned(),
            text: format!(
                "<system-reminder>\n{HEADER}\n\n{}\n</system-reminder>",
                body.join("\n\n")
            ),
        });
    }
    for e in &entries {
        let chars = e.content.encode_utf16().count();
        if chars > WARN_CHARS {
            report.notes.push(Note {
                path: e.path.clone(),
                kind: NoteKind::LongMemory { chars },
            });
        }
        let mut f = FileEntry::new(e.path.clone(), e.bytes, Status::Loaded);
        f.memory = Some(e.ty);
        f.imported_by.clone_from(&e.parent);
        report.files.push(f);
    }
    report.files.append(&mut walk.skipped);
    report
}

/// Rule 8: the AGENTS.md entries to add, or none (held back, each listed).
fn agents_md(
    walk: &mut Walk<'_>,
    dirs: &[PathBuf],
    first_seen: [&Path; 2],
    approved: bool,
    entries: &[Entry],
) -> Vec<Entry> {
    let fresh_seen: HashSet<PathBuf> = first_seen.iter().map(|p| p.to_path_buf()).collect();
    let mut holder = None;
    'find: for dir in dirs {
        for name in ["CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md"] {
            let path = dir.join(name);
            let mut probe = Walk {
                cwd: walk.cwd,
                home: walk.home,
                seen: fresh_seen.clone(),
                skipped: Vec::new(),
                record: false,
                stack: Vec::new(),
            };
            let ty = if name == "CLAUDE.local.md" {
                MemoryType::Local
            } else {
                MemoryType::Project
            };
            if probe
                .read(&path, ty, 0, None, approved)
                .iter()
                .any(|e| e.parent.is_none())
            {
                holder = Some(path);
                break 'find;
            }
        }
    }
    if let Some(by) = holder {
        for dir in dirs {
            for name in ["AGENTS.md", ".claude/AGENTS.md"] {
                let path = dir.join(name);
                if crate::bounded::symlink_metadata(&path).is_ok() {
                    walk.skip(
                        &path,
                        Status::HeldBack,
                        Why::By(super::show(&by)),
                        MemoryType::Project,
                        None,
                    );
                }
            }
        }
        return Vec::new();
    }
    let mut agents = Walk {
        cwd: walk.cwd,
        home: walk.home,
        seen: fresh_seen,
        skipped: Vec::new(),
        record: true,
        stack: Vec::new(),
    };
    let mut found = Vec::new();
    for dir in dirs {
        for name in ["AGENTS.md", ".claude/AGENTS.md"] {
            let parts = agents.read(&dir.join(name), MemoryType::Project, 0, None, approved);
            let root = parts.first().map(|p| p.path.clone());
            for mut part in parts {
                if let Some(root) = &root {
                    part.root.clone_from(root);
                }
                found.push(part);
            }
        }
    }
    walk.skipped.append(&mut agents.skipped);
    let mut paths: HashSet<String> = entries.iter().map(|e| e.path.clone()).collect();
    let texts: HashSet<&str> = entries
        .iter()
        .filter(|e| e.ty.is_project_own())
        .map(|e| js_trim(&e.content))
        .collect();
    let mut kept = Vec::new();
    for part in found {
        let text = js_trim(&part.content);
        if paths.contains(&part.path) || !text.is_empty() && texts.contains(text) {
            let why = if paths.contains(&part.path) {
                Why::Rule("already an entry")
            } else {
                Why::Rule("the same text as a project entry")
            };
            walk.skip(
                Path::new(&part.path),
                Status::Duplicate,
                why,
                MemoryType::Project,
                part.parent.as_deref(),
            );
            continue;
        }
        paths.insert(part.path.clone());
        kept.push(part);
    }
    kept
}

/// Rule 8's placement: the AGENTS.md entries grouped by directory, each
/// group before the first project or local entry below it.
fn insert_agents(mut entries: Vec<Entry>, agents: Vec<Entry>) -> Vec<Entry> {
    let mut groups: Vec<(String, Vec<Entry>)> = Vec::new();
    for a in agents {
        let dir = project_dir_of(&a.root).to_owned();
        match groups.iter_mut().find(|(d, _)| *d == dir) {
            Some((_, g)) => g.push(a),
            None => groups.push((dir, vec![a])),
        }
    }
    for (dir, group) in groups {
        let at = insertion_index(&entries, &dir);
        entries.splice(at..at, group);
    }
    entries
}

/// Rule 11: what agentctx does not reproduce, found and said.
fn not_modelled(input: &Input, dirs: &[PathBuf], report: &mut Report) {
    let inexact = |report: &mut Report, message: String| {
        report.exact = false;
        report.warnings.push(message);
    };
    let projects = input.cwd.join(node_join(&input.config_dir, "projects"));
    if let Ok(listing) = crate::bounded::read_dir(&projects) {
        let mut found: Vec<PathBuf> = listing
            .filter_map(Result::ok)
            .map(|e| e.path().join("memory"))
            .filter(|p| crate::bounded::symlink_metadata(p).is_ok())
            .collect();
        found.sort();
        if let Some(first) = found.first() {
            inexact(
                report,
                format!(
                    "{}: an auto-memory directory; Claude Code may add its MEMORY.md after the project files, agentctx does not model it (output not exact)",
                    first.display()
                ),
            );
        }
    }
    let drop_ins = input.managed_dir.join("managed-settings.d");
    if let Ok(listing) = crate::bounded::read_dir(&drop_ins) {
        let mut found: Vec<PathBuf> = listing
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| has_key(p, &["claudeMd"]))
            .collect();
        found.sort();
        if let Some(first) = found.first() {
            inexact(
                report,
                format!(
                    "{}: a managed drop-in that sets claudeMd; agentctx does not merge drop-ins (output not exact)",
                    first.display()
                ),
            );
        }
    }
    let mut settings = vec![
        input
            .cwd
            .join(node_join(&input.config_dir, "settings.json")),
    ];
    for dir in dirs {
        settings.push(dir.join(".claude/settings.json"));
        settings.push(dir.join(".claude/settings.local.json"));
    }
    let keys = [
        "claudeMdExcludes",
        "instructionFiles",
        "projectInstructions",
    ];
    for file in settings {
        if has_key(&file, &keys) {
            inexact(
                report,
                format!(
                    "{}: sets claudeMdExcludes, instructionFiles or projectInstructions; agentctx does not apply them (output not exact)",
                    file.display()
                ),
            );
        }
    }
}

/// The `claudeMd` text of the managed settings file, as the entry Claude
/// Code adds right after the managed CLAUDE.md (real agent: case
/// `clm-order` with a managed-settings.json).
fn managed_settings_text(managed_dir: &Path) -> Option<Entry> {
    let path = managed_dir.join("managed-settings.json");
    let bytes = super::bounded::read_config(&path).ok()??;
    let value: Value = serde_json::from_slice(&bytes).ok()?;
    let text = value.get("claudeMd")?.as_str().filter(|t| !t.is_empty())?;
    Some(Entry {
        path: MANAGED_SETTINGS.to_owned(),
        ty: MemoryType::Managed,
        content: text.to_owned(),
        parent: None,
        root: MANAGED_SETTINGS.to_owned(),
        bytes: None,
        conditional: false,
    })
}

/// How Claude Code names the managed settings' `claudeMd` entry.
pub const MANAGED_SETTINGS: &str = "<managed-settings>";

/// Whether a JSON file holds any of `keys` (at any depth).
fn has_key(path: &Path, keys: &[&str]) -> bool {
    fn walk(v: &Value, keys: &[&str]) -> bool {
        match v {
            Value::Object(map) => map
                .iter()
                .any(|(k, v)| keys.contains(&k.as_str()) || walk(v, keys)),
            Value::Array(items) => items.iter().any(|v| walk(v, keys)),
            _ => false,
        }
    }
    let Ok(Some(bytes)) = super::bounded::read_config(path) else {
        return false;
    };
    serde_json::from_slice::<Value>(&bytes).is_ok_and(|v| walk(&v, keys))
}

/// The check warning of a memory file over [`WARN_CHARS`] (check shows
/// the file beside it).
#[must_use]
pub fn long_memory_words(chars: usize) -> String {
    format!(
        "{chars} characters; Claude Code warns above {WARN_CHARS} (a large memory file costs every request)"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn node_extname() {
        assert_eq!(extension(Path::new("/a/q.md.")), ".");
        assert_eq!(extension(Path::new("/a/.env")), "");
        assert_eq!(extension(Path::new("/a/noext")), "");
        assert_eq!(extension(Path::new("/a/UP.MD")), ".md");
    }

    #[test]
    fn project_dirs_for_placement() {
        assert_eq!(project_dir_of("/r/.claude/rules/a.md"), "/r");
        assert_eq!(project_dir_of("/r/s/CLAUDE.md"), "/r/s");
        assert_eq!(project_dir_of("/CLAUDE.md"), "/");
        assert!(is_below("/r/s", "/r"));
        assert!(!is_below("/r", "/r"));
        assert!(!is_below("/rs", "/r"));
    }

    #[test]
    fn managed_file_then_its_settings_text_then_managed_rules() {
        let t = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(t.path()).unwrap();
        let w = |rel: &str, text: &str| {
            let p = root.join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        };
        w("etc/CLAUDE.md", "managed\n");
        w("etc/managed-settings.json", r#"{"claudeMd": " policy "}"#);
        w("etc/.claude/rules/m.md", "managed rule\n");
        w("home/.claude/CLAUDE.md", "user\n");
        w("r/.git/HEAD", "");
        let input = Input {
            cwd: root.join("r"),
            home: root.join("home"),
            config_dir: root.join("home/.claude"),
            config_dir_origin: Origin::Default,
            disable: None,
            managed_dir: root.join("etc"),
        };
        let report = load(&input);
        let d = |p: &Path| super::super::show(p);
        let managed = MemoryType::Managed.description();
        let user = MemoryType::User.description();
        assert_eq!(
            report.parts[0].text,
            format!(
                "<system-reminder>\n{HEADER}\n\nContents of {}/etc/CLAUDE.md ({managed}):\n\nmanaged\n\n\
                 Contents of <managed-settings> ({managed}):\n\npolicy\n\n\
                 Contents of {}/etc/.claude/rules/m.md ({managed}):\n\nmanaged rule\n\n\
                 Contents of {}/home/.claude/CLAUDE.md ({user}):\n\nuser\n</system-reminder>",
                d(&root),
                d(&root),
                d(&root)
            )
        );
        assert!(report.exact);
    }

    #[test]
    fn disable_values() {
        assert!(disabled(Some(" True ")));
        assert!(disabled(Some("on")));
        assert!(!disabled(Some("0")));
        assert!(!disabled(None));
    }
}
