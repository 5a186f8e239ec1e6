//! The wording of check's findings: every sentence a finding says, its
//! message and its hint, from the facts the core returns (`Detail`, the
//! file, the directory, the harness). One match over the kinds; every
//! printer (text, JSON, GitHub, Markdown, SARIF) takes its sentences here.
//! The words of a symlink render and explain warn about live here too.

mod budget;
mod files;
mod harness;
mod links;

pub use budget::radius;
pub use links::{dangling_link_warning, secret_link_warning, secret_warnings};

use crate::check::{Detail, Finding};

/// A finding in words: one sentence for people (raw: escape it before
/// printing; lists abbreviated, the detail keeps them whole), and what to
/// do about it, with the numbers: the bytes to cut, the setting to raise
/// and its value now, or the file to delete or merge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Words {
    pub message: String,
    pub hint: String,
}

/// Its message.
#[must_use]
pub fn message(f: &Finding) -> String {
    words(f).message
}

/// A finding's message and hint: one arm per kind.
#[must_use]
pub fn words(f: &Finding) -> Words {
    let file = f.file.as_str();
    let (message, hint) = match &f.detail {
        d @ Detail::OverBudget { .. } => (budget::over_budget(d), budget::cut_hint(d)),
        Detail::Oversized {
            bytes,
            max_source_bytes: max,
            grew,
        } => budget::oversized(file, *bytes, *max, *grew),
        Detail::SecretSymlink {
            target,
            resolved,
            at,
            reach,
            ..
        } => links::secret(f, (target, resolved, *at), reach),
        Detail::Drift { winner, name } => files::drift(file, winner, name),
        Detail::TwoSources {
            sibling,
            overlap_bytes: overlap,
            name,
        } => files::two_sources(file, sibling, *overlap, name),
        Detail::SymlinkLeavesTree {
            target,
            project_root: root,
        } => links::leaves_tree(target, root),
        Detail::DanglingSymlink { target } => links::dangling(file, target),
        Detail::InvalidUtf8 { offset, cut } => files::not_utf8(file, *offset, *cut),
        Detail::Binary { offset } => files::binary(file, *offset),
        Detail::SystemReminder { line } => files::reminder(*line),
        Detail::Empty { whitespace } => files::empty(*whitespace),
        Detail::NotRegular { file_type } => files::not_regular(f, file_type),
        Detail::SymlinkStub { sibling } => links::stub(f, sibling),
        Detail::Unavailable {
            error,
            too_large,
            imported_by: by,
        } => files::unavailable(f, error, *too_large, by.as_deref()),
        Detail::UnreadableDir { error } => files::unreadable_dir(&f.dir, error),
        d @ Detail::NearBudget { .. } => budget::near_budget(d),
        Detail::LoadsTwice { same_as, bytes } => links::loads_twice(f, same_as, *bytes),
        Detail::IgnoredName { by } => harness::ignored(f, by),
        Detail::HiddenByOverride { by } => harness::hidden(by),
        Detail::LoadsOnce { first } => harness::loads_once(f, first),
        Detail::NotExact { url, .. } => harness::not_exact(url),
        d @ Detail::ImportProblem { .. } => harness::import(f, d),
        Detail::LossyUtf8 {} => harness::lossy(f),
        Detail::Aborted {} => harness::aborted(f),
        Detail::HarnessWarning { said } => harness::harness_warning(f, said),
        Detail::DshConfigRefused { line, dsh_message } => files::dsh_refused(*line, dsh_message),
        Detail::DshConfigNotMounted {
            line,
            reason,
            profile,
        } => files::dsh_not_mounted(*line, reason, profile),
    };
    Words { message, hint }
}

type Pair = (String, String);

/// Who sends what a file holds: dsh's sessions, or another harness's.
fn who(f: &Finding) -> String {
    if f.harness == "dsh" {
        "sessions".to_owned()
    } else {
        format!("{} sessions", f.harness)
    }
}

fn is_claude(f: &Finding) -> bool {
    f.harness == crate::profile::claude::PROFILE.name()
}

/// `WHAT (imported by FILE)`, when a file imports it.
fn imported(what: String, by: Option<&str>) -> String {
    match by {
        Some(by) => format!("{what} (imported by {by})"),
        None => what,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Radius;
    use crate::jsnum::MaxBytes;
    use pretty_assertions::assert_eq;

    #[test]
    fn a_radius_is_counted_and_abbreviated() {
        let two = Radius::from(vec!["a".to_owned(), "b".to_owned()]);
        assert_eq!(radius(&two), "2 directories (a, b)");
        let many = Radius::from((0..14).map(|i| format!("d{i}")).collect::<Vec<_>>());
        assert_eq!(radius(&many), "14 directories (d0, d1, d2 and 11 more)");
    }

    /// The wordings no tree of the integration tests reaches, as they were
    /// before the core stopped building them.
    #[test]
    fn gemini_findings_say_what_gemini_does() {
        let said = |detail: Detail| {
            let f = Finding::new(".".to_owned(), "GEMINI.md".to_owned(), detail).by("gemini");
            let w = words(&f);
            (w.message, w.hint)
        };
        let import = |problem| Detail::ImportProblem {
            token: "../x.md".to_owned(),
            problem,
            error: None,
            imported_by: None,
        };
        assert_eq!(
            said(Detail::LoadsOnce {
                first: "a/GEMINI.md".to_owned()
            }),
            (
                "the same file as a/GEMINI.md (device and inode): gemini loads it once".to_owned(),
                "keep one name for it: delete GEMINI.md or a/GEMINI.md".to_owned()
            )
        );
        assert_eq!(
            said(Detail::LoadsOnce {
                first: String::new()
            }),
            (
                "the same file as one loaded earlier: gemini loads it once".to_owned(),
                "keep one name for it: GEMINI.md is loaded under another".to_owned()
            )
        );
        assert_eq!(
            said(import("traversal")),
            (
                "import @../x.md leaves the project root: gemini writes a path traversal comment instead".to_owned(),
                "import a file inside the project instead of @../x.md".to_owned()
            )
        );
        assert_eq!(
            said(import("depth")),
            (
                "import @../x.md is deeper than 5 levels: gemini leaves it as text".to_owned(),
                "flatten the imports: gemini stops after 5 levels".to_owned()
            )
        );
    }

    #[test]
    fn a_budget_is_worded_with_its_headroom() {
        let d = Detail::NearBudget {
            bytes: 900,
            max_bytes: MaxBytes(1000.0),
            percent: 90,
            session: "a".to_owned(),
            warn_at: 80,
            setting: "max-bytes",
        };
        let f = Finding::new("a".to_owned(), "a/AGENTS.md".to_owned(), d);
        assert_eq!(
            message(&f),
            "near budget: a session in a gets 900 of max 1000 bytes (90%, warn at 80%), 100 bytes of headroom"
        );
        assert_eq!(
            words(&f).hint,
            "100 bytes of headroom left: cut from what a session in a loads before it grows, or raise max-bytes (now 1,000)"
        );
    }
}
