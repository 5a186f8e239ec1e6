//! The rules of check: one per finding kind, with a stable id. Ids are
//! never reused or renumbered (SARIF consumers key alerts on them); a new
//! kind takes the next number.

use super::Detail;

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
    /// `error` or `warning`.
    pub level: &'static str,
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
    level: &'static str,
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
        "error",
        For::All,
    ),
    rule(
        "AGX002",
        "oversized",
        "Instruction file too large",
        "The file is larger than max-source-bytes, so sessions never load it.",
        "Split or shorten the file below max-source-bytes.",
        "error",
        For::All,
    ),
    rule(
        "AGX003",
        "secretSymlink",
        "Instruction file points at a secret",
        "The candidate is a symlink into /proc, /sys or /dev, the system's secrets (/etc/shadow, /etc/gshadow, /run/secrets, /var/run/secrets), a git directory (.git), a credentials store (.ssh, .gnupg, .aws, .netrc, .git-credentials), or to a file under the home directory outside the project; with --profile, any file, config entry, glob or import the harness reads there: sessions would send that content to the model.",
        "Replace the symlink with a regular file holding only instructions.",
        "error",
        For::All,
    ),
    rule(
        "AGX004",
        "drift",
        "Instruction files drift",
        "With precedence first, this shadowed file differs from the file that wins, so sessions never see it.",
        "Make it a symlink to the winning file, or delete it.",
        "warning",
        For::Dsh,
    ),
    rule(
        "AGX005",
        "twoSources",
        "Two sources of truth",
        "With precedence all, two sibling files both load with different content: sessions get both.",
        "Keep one file and make the other a symlink to it, or give each distinct content.",
        "warning",
        For::Dsh,
    ),
    rule(
        "AGX006",
        "symlinkLeavesTree",
        "Symlink leaves the project",
        "The candidate is a symlink whose target resolves outside its project root.",
        "Keep instruction files inside the project so every checkout gets the same text.",
        "warning",
        For::All,
    ),
    rule(
        "AGX007",
        "danglingSymlink",
        "Dangling symlink",
        "The candidate is a symlink to nothing: sessions load nothing from it.",
        "Fix the link target or remove the link.",
        "warning",
        For::Dsh,
    ),
    rule(
        "AGX008",
        "invalidUtf8",
        "Invalid UTF-8",
        "The file is not valid UTF-8 (an ill-formed sequence, or one cut short at the end): dsh reads instruction files as strict UTF-8, so sessions never load it.",
        "Re-encode the file as UTF-8 (the finding names the byte offset of the first bad sequence).",
        "error",
        For::Dsh,
    ),
    rule(
        "AGX009",
        "systemReminder",
        "Literal </system-reminder>",
        "The file holds a literal </system-reminder>, which sessions see escaped.",
        "Remove or reword the closing tag.",
        "warning",
        For::Dsh,
    ),
    rule(
        "AGX010",
        "empty",
        "Empty instruction file",
        "The file is empty or holds only whitespace: sessions get an empty section.",
        "Add instructions or delete the file.",
        "warning",
        For::Dsh,
    ),
    rule(
        "AGX011",
        "notRegular",
        "Not a regular file",
        "The candidate is a directory, FIFO, socket or device: sessions skip it.",
        "Rename it, or replace it with a regular file.",
        "warning",
        For::All,
    ),
    rule(
        "AGX012",
        "symlinkStub",
        "Symlink checked out as text",
        "The whole content is the name of a sibling file: a symlink checked out as a text stub, so sessions get the name instead of the instructions.",
        "Enable symlinks in the checkout (git config core.symlinks true) or replace the stub with the real content.",
        "warning",
        For::All,
    ),
    rule(
        "AGX013",
        "unavailable",
        "Unreadable instruction file",
        "stat or the read of the file failed: sessions skip it.",
        "Fix the file's permissions.",
        "warning",
        For::All,
    ),
    rule(
        "AGX014",
        "unreadableDir",
        "Unreadable directory",
        "The directory could not be listed: nothing below it is checked.",
        "Fix the directory's permissions, or exclude it.",
        "warning",
        For::All,
    ),
    rule(
        "AGX015",
        "nearBudget",
        "Instruction budget nearly used",
        "The baseline of this directory uses at least the --warn-at share of max-bytes: a little more and the harness starts cutting.",
        "Shorten the instruction files of this directory's chain before they grow past the budget.",
        "warning",
        For::All,
    ),
    rule(
        "AGX016",
        "loadsTwice",
        "Same instructions load twice",
        "The candidate is a symlink to a file that the same baseline also loads under its own name: sessions get the same bytes twice.",
        "Point only one of the two names at the file.",
        "warning",
        For::Dsh,
    ),
    rule(
        "AGX017",
        "binary",
        "Binary instruction file",
        "The file holds a NUL byte among its first 8192 bytes: dsh takes it for a binary file, so sessions never load it.",
        "Remove the NUL bytes (the finding names the offset of the first), or save the file as UTF-8 text.",
        "error",
        For::Dsh,
    ),
    rule(
        "AGX018",
        "ignoredName",
        "Instruction file ignored",
        "The harness ignores this file because another name won in the chain (opencode: an AGENTS.md anywhere in it hides every CLAUDE.md), so its sessions never see it.",
        "Merge what it says into the file that wins, or make it a symlink or a pointer (@AGENTS.md) to it.",
        "warning",
        For::Profiles,
    ),
    rule(
        "AGX019",
        "hiddenByOverride",
        "Hidden by an empty override",
        "codex: an empty AGENTS.override.md in the same directory wins and yields nothing, so this AGENTS.md never loads.",
        "Delete the empty AGENTS.override.md, or give it the instructions.",
        "warning",
        For::Profiles,
    ),
    rule(
        "AGX020",
        "loadsOnce",
        "Same file under two names",
        "The harness finds the same file (device and inode) under two names and loads it once, under the first.",
        "Keep one name for the file.",
        "warning",
        For::Profiles,
    ),
    rule(
        "AGX021",
        "notExact",
        "Not reproduced exactly",
        "An opencode instructions entry that is a URL (fetched by opencode): agentctx does not reproduce it, so what it shows is not exact.",
        "Keep the instructions in a file of the repository, or accept that the URL's content is not checked.",
        "warning",
        For::Profiles,
    ),
    rule(
        "AGX022",
        "importProblem",
        "Import not expanded",
        "gemini replaces an @import that leaves the project, repeats an import in progress (a cycle) or fails with a comment, and leaves one past five levels as text; Claude Code skips one outside the cwd, not a text file, past four levels or unresolved.",
        "Fix or remove the import the finding names.",
        "warning",
        For::Profiles,
    ),
    rule(
        "AGX023",
        "lossyUtf8",
        "Invalid UTF-8 replaced",
        "The file is not valid UTF-8: the harness replaces each bad sequence with U+FFFD and sends the rest.",
        "Re-encode the file as UTF-8.",
        "warning",
        For::Profiles,
    ),
    rule(
        "AGX024",
        "aborted",
        "Project docs dropped",
        "codex's project doc discovery failed (a stat error other than not found), so sessions get no project doc at all.",
        "Fix the path the finding names (permissions, a symlink loop).",
        "warning",
        For::Profiles,
    ),
    rule(
        "AGX025",
        "harnessWarning",
        "Harness warning",
        "The harness warns about its own inputs: an untrusted project, a setting it ignores, a name it skips.",
        "Fix the setting or file the finding names.",
        "warning",
        For::Profiles,
    ),
    rule(
        "AGX026",
        "dshConfigRefused",
        "dsh would refuse to start",
        "dsh's own configuration (a patch layer, the profile, the preset) fails as dsh reads it: dsh exits at boot, so no session starts.",
        "Fix the layer file at the line the finding names (dsh's own message says what it expects; maxBytes is required whenever a patch sets config).",
        "error",
        For::Dsh,
    ),
    rule(
        "AGX027",
        "dshConfigNotMounted",
        "No instruction loader mounted",
        "dsh's configuration mounts no agent-instructions row (it is disabled, or the web preset has none): sessions receive no instruction files at all.",
        "Remove the `disabled: true` the finding names, or choose a preset that mounts the loader.",
        "warning",
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
        Detail::HarnessWarning {} => 24,
        Detail::DshConfigRefused { .. } => 25,
        Detail::DshConfigNotMounted { .. } => 26,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ids are AGX001.. in order and kinds match the JSON `kind` tags.
    #[test]
    fn ids_are_sequential_and_kinds_match_the_json_tags() {
        for (i, r) in RULES.iter().enumerate() {
            assert_eq!(r.id, format!("AGX{:03}", i + 1));
        }
        let detail = Detail::Empty { whitespace: false };
        let json = serde_json::to_value(&detail).unwrap_or_default();
        assert_eq!(json["kind"], RULES[index(&detail)].kind);
        let detail = Detail::LoadsTwice {
            same_as: String::new(),
            bytes: 0,
        };
        let json = serde_json::to_value(&detail).unwrap_or_default();
        assert_eq!(json["kind"], RULES[index(&detail)].kind);
    }
}
