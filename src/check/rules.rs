//! The rules of check: one per finding kind, with a stable id. Ids are
//! never reused or renumbered (SARIF consumers key alerts on them); a new
//! kind takes the next number.

use super::{Detail, Severity};

/// One kind of finding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    /// Stable id: `AGX001`...
    pub id: &'static str,
    /// The `kind` of the finding in JSON.
    pub kind: &'static str,
    /// A short title (GitHub annotation titles, SARIF short description).
    pub title: &'static str,
    /// One sentence: what it means for sessions.
    pub full: &'static str,
    /// What to do about it.
    pub help: &'static str,
    /// How serious its findings are: the one place a rule's severity is
    /// written (`Detail::severity` reads it).
    pub level: Severity,
    /// Which harnesses report it: dsh, the other harnesses (profiles).
    pub dsh: bool,
    pub profiles: bool,
}

/// Which harnesses a rule is for.
#[derive(Debug, Clone, Copy)]
enum For {
    Dsh,
    Profiles,
    All,
}

const fn rule(
    id: &'static str,
    kind: &'static str,
    title: &'static str,
    full: &'static str,
    help: &'static str,
    level: Severity,
    harnesses: For,
) -> Rule {
    Rule {
        id,
        kind,
        title,
        full,
        help,
        level,
        dsh: !matches!(harnesses, For::Profiles),
        profiles: !matches!(harnesses, For::Dsh),
    }
}

/// Every rule, in id order.
pub const RULES: [Rule; 27] = [
    rule(
        "AGX001",
        "overBudget",
        "Instruction budget exceeded",
        "Sessions started in the directories the finding names lose bytes of this file: the byte budget (dsh's max-bytes, codex's project_doc_max_bytes) omits or truncates it.",
        "Cut the bytes the finding names from what those sessions load (move detail into files read on demand), or raise the budget to the size the finding names.",
        Severity::Error,
        For::All,
    ),
    rule(
        "AGX002",
        "oversized",
        "Instruction file too large",
        "The file is larger than max-source-bytes, so sessions never load it.",
        "Split or shorten the file below max-source-bytes.",
        Severity::Error,
        For::All,
    ),
    rule(
        "AGX003",
        "secretSymlink",
        "Instruction file points at a secret",
        "The candidate is a symlink into /proc, /sys or /dev, the system's secrets (/etc/shadow, /etc/gshadow, /run/secrets, /var/run/secrets), a git directory (.git), a credentials store (.ssh, .gnupg, .aws, .netrc, .git-credentials), or to a file under the home directory outside the project; with --profile, any file, config entry, glob or import the harness reads there: sessions would send that content to the model.",
        "Replace the symlink with a regular file holding only instructions.",
        Severity::Error,
        For::All,
    ),
    rule(
        "AGX004",
        "drift",
        "Instruction files drift",
        "With precedence first, this shadowed file differs from the file that wins, so sessions never see it.",
        "Make it a symlink to the winning file, or delete it.",
        Severity::Warning,
        For::Dsh,
    ),
    rule(
        "AGX005",
        "twoSources",
        "Two sources of truth",
        "With precedence all, two sibling files both load with different content: sessions get both.",
        "Keep one file and make the other a symlink to it, or give each distinct content.",
        Severity::Warning,
        For::Dsh,
    ),
    rule(
        "AGX006",
        "symlinkLeavesTree",
        "Symlink leaves the project",
        "The candidate is a symlink whose target resolves outside its project root.",
        "Keep instruction files inside the project so every checkout gets the same text.",
        Severity::Warning,
        For::All,
    ),
    rule(
        "AGX007",
        "danglingSymlink",
        "Dangling symlink",
        "The candidate is a symlink to nothing: sessions load nothing from it.",
        "Fix the link target or remove the link.",
        Severity::Warning,
        For::Dsh,
    ),
    rule(
        "AGX008",
        "invalidUtf8",
        "Invalid UTF-8",
        "The file is not valid UTF-8 (an ill-formed sequence, or one cut short at the end): dsh reads instruction files as strict UTF-8, so sessions never load it.",
        "Re-encode the file as UTF-8 (the finding names the byte offset of the first bad sequence).",
        Severity::Error,
        For::Dsh,
    ),
    rule(
        "AGX009",
        "systemReminder",
        "Literal </system-reminder>",
        "The file holds a literal </system-reminder>, which sessions see escaped.",
        "Remove or reword the closing tag.",
        Severity::Warning,
        For::Dsh,
    ),
    rule(
        "AGX010",
        "empty",
        "Empty instruction file",
        "The file is empty or holds only whitespace: sessions get an empty section.",
        "Add instructions or delete the file.",
        Severity::Warning,
        For::Dsh,
    ),
    rule(
        "AGX011",
        "notRegular",
        "Not a regular file",
        "The candidate is a directory, FIFO, socket or device: sessions skip it.",
        "Rename it, or replace it with a regular file.",
        Severity::Warning,
        For::All,
    ),
    rule(
        "AGX012",
        "symlinkStub",
        "Symlink checked out as text",
        "The whole content is the name of a sibling file: a symlink checked out as a text stub, so sessions get the name instead of the instructions.",
        "Enable symlinks in the checkout (git config core.symlinks true) or replace the stub with the real content.",
        Severity::Warning,
        For::All,
    ),
    rule(
        "AGX013",
        "unavailable",
        "Unreadable instruction file",
        "stat or the read of the file failed: sessions skip it.",
        "Fix the file's permissions.",
        Severity::Warning,
        For::All,
    ),
    rule(
        "AGX014",
        "unreadableDir",
        "Unreadable directory",
        "The directory could not be listed: nothing below it is checked.",
        "Fix the directory's permissions, or exclude it.",
        Severity::Warning,
        For::All,
    ),
    rule(
        "AGX015",
        "nearBudget",
        "Instruction budget nearly used",
        "The baseline of this directory uses at least the --warn-at share of max-bytes: a little more and the harness starts cutting.",
        "Shorten the instruction files of this directory's chain before they grow past the budget.",
        Severity::Warning,
        For::All,
    ),
    rule(
        "AGX016",
        "loadsTwice",
        "Same instructions load twice",
        "The candidate is a symlink to a file that the same baseline also loads under its own name: sessions get the same bytes twice.",
        "Point only one of the two names at the file.",
        Severity::Warning,
        For::Dsh,
    ),
    rule(
        "AGX017",
        "binary",
        "Binary instruction file",
        "The file holds a NUL byte among its first 8192 bytes: dsh takes it for a binary file, so sessions never load it.",
        "Remove the NUL bytes (the finding names the offset of the first), or save the file as UTF-8 text.",
        Severity::Error,
        For::Dsh,
    ),
    rule(
        "AGX018",
        "ignoredName",
        "Instruction file ignored",
        "The harness ignores this file because another name won in the chain (opencode: an AGENTS.md anywhere in it hides every CLAUDE.md), so its sessions never see it.",
        "Merge what it says into the file that wins, or make it a symlink or a pointer (@AGENTS.md) to it.",
        Severity::Warning,
        For::Profiles,
    ),
    rule(
        "AGX019",
        "hiddenByOverride",
        "Hidden by an empty override",
        "codex: an empty AGENTS.override.md in the same directory wins and yields nothing, so this AGENTS.md never loads.",
        "Delete the empty AGENTS.override.md, or give it the instructions.",
        Severity::Warning,
        For::Profiles,
    ),
    rule(
        "AGX020",
        "loadsOnce",
        "Same file under two names",
        "The harness finds the same file (device and inode) under two names and loads it once, under the first.",
        "Keep one name for the file.",
        Severity::Warning,
        For::Profiles,
    ),
    rule(
        "AGX021",
        "notExact",
        "Not reproduced exactly",
        "An opencode instructions entry that is a URL (fetched by opencode): agentctx does not reproduce it, so what it shows is not exact.",
        "Keep the instructions in a file of the repository, or accept that the URL's content is not checked.",
        Severity::Warning,
        For::Profiles,
    ),
    rule(
        "AGX022",
        "importProblem",
        "Import not expanded",
        "gemini replaces an @import that leaves the project, repeats an import in progress (a cycle) or fails with a comment, and leaves one past five levels as text; Claude Code skips one outside the cwd, not a text file, past four levels or unresolved.",
        "Fix or remove the import the finding names.",
        Severity::Warning,
        For::Profiles,
    ),
    rule(
        "AGX023",
        "lossyUtf8",
        "Invalid UTF-8 replaced",
        "The file is not valid UTF-8: the harness replaces each bad sequence with U+FFFD and sends the rest.",
        "Re-encode the file as UTF-8.",
        Severity::Warning,
        For::Profiles,
    ),
    rule(
        "AGX024",
        "aborted",
        "Project docs dropped",
        "codex's project doc discovery failed (a stat error other than not found), so sessions get no project doc at all.",
        "Fix the path the finding names (permissions, a symlink loop).",
        Severity::Warning,
        For::Profiles,
    ),
    rule(
        "AGX025",
        "harnessWarning",
        "Harness warning",
        "The harness warns about its own inputs: an untrusted project, a setting it ignores, a name it skips.",
        "Fix the setting or file the finding names.",
        Severity::Warning,
        For::Profiles,
    ),
    rule(
        "AGX026",
        "dshConfigRefused",
        "dsh would refuse to start",
        "dsh's own configuration (a patch layer, the profile, the preset) fails as dsh reads it: dsh exits at boot, so no session starts.",
        "Fix the layer file at the line the finding names (dsh's own message says what it expects; maxBytes is required whenever a patch sets config).",
        Severity::Error,
        For::Dsh,
    ),
    rule(
        "AGX027",
        "dshConfigNotMounted",
        "No instruction loader mounted",
        "dsh's configuration mounts no agent-instructions row (it is disabled, or the web preset has none): sessions receive no instruction files at all.",
        "Remove the `disabled: true` the finding names, or choose a preset that mounts the loader.",
        Severity::Warning,
        For::Dsh,
    ),
];

/// The index in [`RULES`] of a finding's rule.
pub(super) fn index(detail: &Detail) -> usize {
    match detail {
        Detail::OverBudget { .. } => 0,
        Detail::Oversized { .. } => 1,
        Detail::SecretSymlink { .. } => 2,
        Detail::Drift { .. } => 3,
        Detail::TwoSources { .. } => 4,
        Detail::SymlinkLeavesTree { .. } => 5,
        Detail::DanglingSymlink { .. } => 6,
        Detail::InvalidUtf8 { .. } => 7,
        Detail::SystemReminder { .. } => 8,
        Detail::Empty { .. } => 9,
        Detail::NotRegular { .. } => 10,
        Detail::SymlinkStub { .. } => 11,
        Detail::Unavailable { .. } => 12,
        Detail::UnreadableDir { .. } => 13,
        Detail::NearBudget { .. } => 14,
        Detail::LoadsTwice { .. } => 15,
        Detail::Binary { .. } => 16,
        Detail::IgnoredName { .. } => 17,
        Detail::HiddenByOverride { .. } => 18,
        Detail::LoadsOnce { .. } => 19,
        Detail::NotExact { .. } => 20,
        Detail::ImportProblem { .. } => 21,
        Detail::LossyUtf8 {} => 22,
        Detail::Aborted {} => 23,
        Detail::HarnessWarning { .. } => 24,
        Detail::DshConfigRefused { .. } => 25,
        Detail::DshConfigNotMounted { .. } => 26,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{Finding, Radius, Reach, Said};
    use crate::discovery::Place;
    use crate::jsnum::MaxBytes;
    use pretty_assertions::assert_eq;

    /// One detail of every kind a finding can carry.
    fn samples() -> Vec<Detail> {
        [some_samples(), more_samples()].concat()
    }

    /// Budgets, links, drift and what a file holds.
    fn some_samples() -> Vec<Detail> {
        let s = String::new;
        vec![
            Detail::OverBudget {
                bytes: 1,
                kept_bytes: 0,
                max_bytes: MaxBytes(1.0),
                directories: Radius::from(vec![s()]),
                omitted_in: 1,
                truncated_in: 0,
                worst: s(),
                whole_bytes: 2,
                excess: 1,
                pushes_out: Vec::new(),
                grew_from: None,
                kept_min: 0,
                setting: "max-bytes",
                itself: None,
            },
            Detail::Oversized {
                bytes: 2,
                max_source_bytes: 1,
                grew: false,
            },
            Detail::SecretSymlink {
                target: s(),
                resolved: s(),
                place: "secrets",
                at: Place::Secrets,
                reach: Reach::Link,
            },
            Detail::Drift {
                winner: s(),
                name: s(),
            },
            Detail::TwoSources {
                sibling: s(),
                overlap_bytes: 0,
                name: s(),
            },
            Detail::SymlinkLeavesTree {
                target: s(),
                project_root: s(),
            },
            Detail::DanglingSymlink { target: s() },
            Detail::InvalidUtf8 {
                offset: 0,
                cut: false,
            },
            Detail::Binary { offset: 0 },
            Detail::SystemReminder { line: 1 },
            Detail::Empty { whitespace: false },
            Detail::NotRegular { file_type: "fifo" },
            Detail::SymlinkStub { sibling: s() },
            Detail::Unavailable {
                error: s(),
                too_large: None,
                imported_by: None,
            },
            Detail::UnreadableDir { error: s() },
        ]
    }

    /// The rest: budgets and what the harness profiles and dsh's
    /// configuration report.
    fn more_samples() -> Vec<Detail> {
        let s = String::new;
        vec![
            Detail::NearBudget {
                bytes: 1,
                max_bytes: MaxBytes(1.0),
                percent: 100,
                session: s(),
                warn_at: 100,
                setting: "max-bytes",
            },
            Detail::LoadsTwice {
                same_as: s(),
                bytes: 0,
            },
            Detail::IgnoredName { by: s() },
            Detail::HiddenByOverride { by: s() },
            Detail::LoadsOnce { first: s() },
            Detail::NotExact {
                reason: "url",
                url: s(),
            },
            Detail::ImportProblem {
                token: s(),
                problem: "cycle",
                error: None,
                imported_by: None,
            },
            Detail::LossyUtf8 {},
            Detail::Aborted {},
            Detail::HarnessWarning {
                said: Said::Warning(s()),
            },
            Detail::DshConfigRefused {
                line: None,
                dsh_message: s(),
            },
            Detail::DshConfigNotMounted {
                line: None,
                reason: s(),
                profile: s(),
            },
        ]
    }

    /// Ids are AGX001.. in order, and the table is the rules that fire:
    /// every kind of finding has its row (`index` is total), no two kinds
    /// share one, every row is some kind's (none is reserved), and a
    /// finding carries its row's id, title, JSON kind and severity.
    #[test]
    fn the_rule_table_is_the_rules_that_fire() {
        for (i, r) in RULES.iter().enumerate() {
            assert_eq!(r.id, format!("AGX{:03}", i + 1));
        }
        let mut indices: Vec<usize> = samples().iter().map(index).collect();
        indices.sort_unstable();
        assert_eq!(indices, (0..RULES.len()).collect::<Vec<_>>());
        for detail in samples() {
            let rule = &RULES[index(&detail)];
            let f = Finding::new(String::new(), String::new(), detail);
            let json = serde_json::to_value(&f).unwrap_or_default();
            assert_eq!(
                (
                    json["rule"].as_str(),
                    json["kind"].as_str(),
                    json["severity"].as_str()
                ),
                (Some(rule.id), Some(rule.kind), Some(rule.level.name())),
            );
            assert_eq!((f.title, f.severity), (rule.title, rule.level));
        }
    }

    /// docs/check.md's table of rules says what the table says: the same
    /// ids in order, kinds and levels, and harnesses the table allows.
    #[test]
    fn the_documented_rules_are_the_table() {
        let doc = include_str!("../../docs/check.md");
        let rows: Vec<Vec<&str>> = doc
            .lines()
            .filter(|l| l.starts_with("| AGX"))
            .map(|l| l.trim_matches('|').split(" | ").map(str::trim).collect())
            .collect();
        let listed: Vec<(&str, &str, &str)> = rows.iter().map(|r| (r[0], r[1], r[2])).collect();
        let table: Vec<(&str, &str, &str)> = RULES
            .iter()
            .map(|r| (r.id, r.kind, r.level.name()))
            .collect();
        assert_eq!(listed, table);
        for (row, rule) in rows.iter().zip(&RULES) {
            let harnesses = row[3];
            let ok = match harnesses {
                "all" => rule.dsh && rule.profiles,
                "dsh" => rule.dsh,
                _ => rule.profiles && !harnesses.contains("dsh"),
            };
            assert!(ok, "{}: documented for {harnesses}", rule.id);
        }
    }
}
