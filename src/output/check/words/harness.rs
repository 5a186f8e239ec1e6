//! The words of what the other harnesses report: a name ignored or held
//! back, a file loaded once, an import not expanded, a harness's own
//! warning.

use super::{Pair, imported, is_claude};
use crate::check::{Detail, Finding, Said};
use crate::profile;

/// opencode's CLAUDE.md hidden by an AGENTS.md, or the AGENTS.md Claude
/// Code holds back.
pub(super) fn ignored(f: &Finding, by: &str) -> Pair {
    if is_claude(f) {
        return (
            format!(
                "not loaded: {by} holds AGENTS.md back (Claude Code reads AGENTS.md only where no CLAUDE.md gives text)"
            ),
            format!("merge what it says into {by}, or make {by} a pointer to it (@AGENTS.md)"),
        );
    }
    (
        format!(
            "ignored by opencode: an AGENTS.md exists in the chain ({by}), and the first name found wins for every directory"
        ),
        format!(
            "merge what it says into {by} and make it a symlink to it (or a pointer: @AGENTS.md)"
        ),
    )
}

pub(super) fn loads_once(f: &Finding, first: &str) -> Pair {
    let file = &f.file;
    if first.is_empty() {
        return (
            format!(
                "the same file as one loaded earlier: {} loads it once",
                f.harness
            ),
            format!("keep one name for it: {file} is loaded under another"),
        );
    }
    (
        format!("the same file as {first} (device and inode): gemini loads it once"),
        format!("keep one name for it: delete {file} or {first}"),
    )
}

/// An import gemini replaced by a comment or left as text, or one Claude
/// Code skips.
pub(super) fn import(f: &Finding, d: &Detail) -> Pair {
    let Detail::ImportProblem {
        token,
        problem,
        error,
        imported_by,
    } = d
    else {
        return Pair::default();
    };
    if is_claude(f) {
        return claude_import(&f.file, problem, error.as_deref(), imported_by.as_deref());
    }
    let depth = profile::gemini::imports::MAX_DEPTH;
    match *problem {
        "traversal" => (
            format!(
                "import @{token} leaves the project root: gemini writes a path traversal comment instead"
            ),
            format!("import a file inside the project instead of @{token}"),
        ),
        "cycle" => (
            format!(
                "import @{token} is already being imported (a cycle): gemini writes a comment instead"
            ),
            format!("remove the import @{token}: it imports itself"),
        ),
        "failed" => (
            format!("import @{token} failed: {}", error.as_deref().unwrap_or("")),
            format!("fix the import @{token} (the error says why), or remove it"),
        ),
        _ => (
            format!("import @{token} is deeper than {depth} levels: gemini leaves it as text"),
            format!("flatten the imports: gemini stops after {depth} levels"),
        ),
    }
}

pub(super) fn claude_import(
    file: &str,
    problem: &str,
    error: Option<&str>,
    by: Option<&str>,
) -> Pair {
    let (what, hint) = match problem {
        "not-text" => (
            "not a text file by its extension; Claude Code skips the import".to_owned(),
            format!("import a text file (.md) instead of {file}, or remove the import"),
        ),
        "outside" => (
            "outside the cwd; Claude Code skips it unless the project approves external imports (hasClaudeMdExternalIncludesApproved)".to_owned(),
            format!("move {file} inside the project, or approve external imports for it in Claude Code"),
        ),
        "failed" => {
            let why = error.map(|e| format!(": {e}")).unwrap_or_default();
            (
                format!("an import that cannot be resolved{why}; Claude Code skips it"),
                format!("fix the import of {file} (the error says why), or remove it"),
            )
        }
        _ => (
            "an import deeper than four levels; Claude Code does not read it".to_owned(),
            "flatten the imports: Claude Code stops after four levels".to_owned(),
        ),
    };
    (imported(what, by), hint)
}

pub(super) fn harness_warning(f: &Finding, said: &Said) -> Pair {
    match said {
        Said::Warning(words) => (
            words.clone(),
            format!(
                "fix the setting or file the warning names, as {} reads it",
                f.harness
            ),
        ),
        Said::LongMemory { chars } => {
            let warn = profile::claude::WARN_CHARS;
            (
                format!(
                    "{chars} characters; Claude Code warns above {warn} (a large memory file costs every request)"
                ),
                format!(
                    "cut {} to {warn} characters or fewer (or move parts into .claude/rules): Claude Code sends it with every request",
                    f.file
                ),
            )
        }
    }
}

pub(super) fn hidden(by: &str) -> Pair {
    (
        format!("hidden by the empty {by}: codex loads nothing from this directory"),
        format!("delete the empty {by}, or give it the instructions"),
    )
}

pub(super) fn not_exact(url: &str) -> Pair {
    (
        profile::opencode::url_warning(url),
        "keep the instructions in a file of the repository to have them checked".to_owned(),
    )
}

pub(super) fn lossy(f: &Finding) -> Pair {
    (
        format!(
            "invalid UTF-8: {} replaces each bad sequence with U+FFFD",
            f.harness
        ),
        format!("re-encode {} as UTF-8", f.file),
    )
}

pub(super) fn aborted(f: &Finding) -> Pair {
    (
        format!(
            "dropped: {}'s project doc discovery failed, so no project doc loads",
            f.harness
        ),
        "fix the path the harness warning names (its permissions, a symlink loop)".to_owned(),
    )
}
