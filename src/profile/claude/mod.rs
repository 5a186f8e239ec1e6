//! Claude Code (SPEC 10.6): the memory files of its first request, the
//! `<system-reminder>` block that carries them, byte for byte. Managed and
//! user files, then each directory from the top down to the cwd
//! (`CLAUDE.md`, `.claude/CLAUDE.md`, `.claude/rules/**`, `CLAUDE.local.md`),
//! `@imports` as their own entries, then the AGENTS.md files where no
//! CLAUDE.md holds them back.

mod agents;
mod inputs;
mod markdown;
mod walk;

mod harness;

pub use harness::{PROFILE, input};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::{
    FileEntry, HarnessReport, HarnessSetting, Note, NoteKind, Part, ProfileSettings, Status,
    ValueOrigin,
};
use crate::discovery::js_trim;
use agents::{agents_md, insert_agents};
use inputs::{approval, disabled, managed_settings_text, not_modelled, project_key};
use walk::{Walk, real_kept};

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
    pub config_dir_origin: ValueOrigin,
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
            ValueOrigin::Default => self.home.join(".claude.json"),
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

/// How Claude Code names the managed settings' `claudeMd` entry.
pub const MANAGED_SETTINGS: &str = "<managed-settings>";

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
pub fn load(input: &Input) -> HarnessReport {
    let cwd = real_kept(&input.cwd);
    let global = cwd.join(input.global_config());
    let key = project_key(&cwd);
    let mut warnings = Vec::new();
    let (approved, approved_origin) = approval(&global, &key, &mut warnings);
    let off = disabled(input.disable.as_deref());
    let settings = settings_of(input, &global, &key, (approved, approved_origin), off);
    let mut report = HarnessReport::new(PROFILE, settings);
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
    put_entries(&entries, &mut report);
    report.files.append(&mut walk.skipped);
    report
}

/// The settings of a load, in the order they are resolved.
fn settings_of(
    input: &Input,
    global: &Path,
    key: &Path,
    (approved, approved_origin): (bool, ValueOrigin),
    off: bool,
) -> ProfileSettings {
    let mut settings = ProfileSettings::default();
    settings.push(
        "config_dir",
        HarnessSetting::new(
            super::show(&input.config_dir),
            input.config_dir_origin.clone(),
        ),
    );
    settings.push(
        "global_config",
        HarnessSetting::new(super::show(global), ValueOrigin::Derived),
    );
    settings.push(
        "project_key",
        HarnessSetting::new(super::show(key), ValueOrigin::Derived),
    );
    settings.push(
        "external_includes_approved",
        HarnessSetting::new(approved, approved_origin),
    );
    settings.push(
        "disable_claude_mds",
        HarnessSetting::new(
            off,
            match input.disable {
                Some(_) => ValueOrigin::Env("CLAUDE_CODE_DISABLE_CLAUDE_MDS".to_owned()),
                None => ValueOrigin::Default,
            },
        ),
    );
    settings
}

/// The block of the entries, and a loaded file for each (a note for a
/// long one).
fn put_entries(entries: &[walk::Entry], report: &mut HarnessReport) {
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
    for e in entries {
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
}

#[cfg(test)]
mod tests {
    use super::agents::{is_below, project_dir_of};
    use super::walk::extension;
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
            config_dir_origin: ValueOrigin::Default,
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
