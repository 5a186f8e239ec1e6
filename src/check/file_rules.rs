//! Stage 3 of check for files: judge every candidate file once, in the
//! directory that holds it, from what the probe recorded and what the
//! text holds: broken links, not files, unreadable, oversized, not text,
//! drift and two sources of truth, symlink stubs and pointers.

use std::collections::HashSet;
use std::fs;
use std::path::Path;

use super::chains::{Checker, Root};
use super::links::{dangling_finding, link_finding};
use super::{Detail, Finding, is_plain_name};
use crate::discovery::{Candidate, Dir, Fate, Load, Probe, TierKind, Unreadable, js_trim};
use crate::render;
use crate::settings::Precedence;

impl Checker<'_> {
    /// Judges one candidate file, once, in the directory that holds it.
    /// `root` is its project root (`None` for the user-global file).
    pub(super) fn judge_file(
        &mut self,
        dir: &Dir,
        cand: &Candidate,
        shown_dir: &str,
        root: Option<&Root>,
    ) {
        let file = self.shown_file(dir, cand);
        let mut found: Vec<Detail> = Vec::new();
        found.extend(self.judge_probe(cand));
        if let Some(link) = &cand.link {
            // A secret matters only where sessions would read it: a regular file.
            let readable = matches!(cand.probe, Some(Probe::File { .. }));
            let shown_root = root.map(|r| self.shown(&r.path));
            found.extend(link_finding(link, readable, shown_root.as_deref()));
        }
        if let Some(text) = cand.text() {
            let shadowed = matches!(cand.fate, Fate::Shadowed { .. });
            // A shadowed file is never read by sessions in `first` mode, so
            // a stub there is no symlink checked out as text to them.
            let stub = root
                .filter(|_| !shadowed)
                .and_then(|_| stub_target(&dir.path, &cand.name, &text.text));
            if let Some(sibling) = &stub {
                let shown = self.shown(&dir.path.join(sibling));
                found.push(stub_finding(&shown));
            } else if !(shadowed && stub_target(&dir.path, &cand.name, &text.text).is_some()) {
                found.extend(self.differs(dir, cand));
            }
            found.extend(judge_text(&text.text));
        }
        for detail in found {
            self.findings
                .push(Finding::new(shown_dir.to_owned(), file.clone(), detail));
        }
    }

    /// What the probe and the read say: broken link, not a file, unreadable, oversized.
    fn judge_probe(&self, cand: &Candidate) -> Option<Detail> {
        let max_source_bytes = self.opts.settings.max_source_bytes.value;
        match (cand.probe.as_ref()?, &cand.load) {
            (Probe::Missing(_), _) => {
                let target = cand.link.as_ref()?.target.clone();
                Some(dangling_finding(target))
            }
            (Probe::NotRegular(kind), _) => Some(Detail::NotRegular { file_type: kind }),
            (Probe::Unavailable(error), _)
            | (Probe::File { .. }, Some(Load::Unreadable(Unreadable::Error(error)))) => {
                Some(Detail::Unavailable {
                    error: error.clone(),
                    too_large: None,
                    imported_by: None,
                })
            }
            (
                Probe::File { .. },
                Some(Load::Unreadable(Unreadable::InvalidUtf8 { offset, cut })),
            ) => Some(Detail::InvalidUtf8 {
                offset: *offset,
                cut: *cut,
            }),
            (Probe::File { .. }, Some(Load::Unreadable(Unreadable::Binary { offset }))) => {
                Some(Detail::Binary { offset: *offset })
            }
            (Probe::File { .. }, Some(Load::Oversized { bytes, grew })) => {
                Some(Detail::Oversized {
                    bytes: *bytes,
                    max_source_bytes,
                    grew: *grew,
                })
            }
            (Probe::File { .. }, _) => None,
        }
    }

    /// Drift (`first`: a shadowed file that differs from its winner) or two
    /// sources of truth (`all`: a later sibling of the same tier that loads
    /// too, so its trimmed content differs). A pointer to the other file
    /// (`@AGENTS.md`, `See AGENTS.md.`) is neither.
    fn differs(&self, dir: &Dir, cand: &Candidate) -> Option<Detail> {
        let text = cand.text()?;
        match (&cand.fate, self.opts.settings.precedence.value) {
            (Fate::Shadowed { by }, Precedence::First) => {
                let winner = dir
                    .candidates
                    .iter()
                    .find(|c| c.tier == cand.tier && &c.display == by)?;
                let won = winner.text()?;
                // Equal, the winner is a stub naming this file (that finding
                // says it all), or either points at the other.
                if js_trim(&won.text) == js_trim(&text.text)
                    || stub_target(&dir.path, &winner.name, &won.text)
                        .is_some_and(|n| n == cand.name)
                    || pointer_to(&text.text, &winner.name)
                    || pointer_to(&won.text, &cand.name)
                {
                    return None;
                }
                Some(Detail::Drift {
                    winner: self.shown(&winner.path),
                    name: winner.name.clone(),
                })
            }
            (Fate::Loaded, Precedence::All) => {
                let first = dir
                    .candidates
                    .iter()
                    .find(|c| c.tier == cand.tier && c.fate == Fate::Loaded)?;
                if std::ptr::eq(first, cand) {
                    return None;
                }
                let first_text = first.text()?;
                if pointer_to(&text.text, &first.name) || pointer_to(&first_text.text, &cand.name) {
                    return None;
                }
                Some(Detail::TwoSources {
                    sibling: self.shown(&first.path),
                    overlap_bytes: overlap(&first_text.text, &text.text),
                    name: first.name.clone(),
                })
            }
            _ => None,
        }
    }

    /// A candidate as shown; the user-global file by its display path.
    pub(super) fn shown_file(&self, dir: &Dir, cand: &Candidate) -> String {
        if cand.tier == TierKind::UserGlobal {
            cand.display.clone()
        } else {
            self.shown(&dir.path.join(&cand.name))
        }
    }
}

/// What the text itself holds: a literal closing tag, nothing.
fn judge_text(text: &str) -> Vec<Detail> {
    let mut found = Vec::new();
    if let Some(at) = text.find(render::CLOSE) {
        let line = 1 + text[..at].bytes().filter(|b| *b == b'\n').count();
        found.push(Detail::SystemReminder { line });
    }
    if js_trim(text).is_empty() {
        found.push(Detail::Empty {
            whitespace: !text.is_empty(),
        });
    }
    found
}

/// Bytes of the non-blank lines of `text` that `other` holds too (trimmed).
fn overlap(other: &str, text: &str) -> usize {
    let lines: HashSet<&str> = other
        .lines()
        .map(js_trim)
        .filter(|l| !l.is_empty())
        .collect();
    text.lines()
        .filter(|l| lines.contains(js_trim(l)))
        .map(str::len)
        .sum()
}

/// The sibling a file named `name` in `dir` names when its whole (trimmed)
/// content is the name of another regular file there: a symlink checked
/// out as a text stub.
#[must_use]
pub fn stub_target(dir: &Path, name: &str, text: &str) -> Option<String> {
    let target = js_trim(text);
    if !is_plain_name(target) || target.len() > 255 || target.contains(['\n', '\r', '\0']) {
        return None;
    }
    if target == name {
        return None;
    }
    fs::metadata(dir.join(target))
        .ok()
        .filter(fs::Metadata::is_file)
        .map(|_| target.to_owned())
}

/// The symlink-stub finding: the whole content is the name of `sibling`
/// (shown), so sessions get the name instead.
#[must_use]
pub fn stub_finding(sibling: &str) -> Detail {
    Detail::SymlinkStub {
        sibling: sibling.to_owned(),
    }
}

/// Longest text (trimmed) a pointer stub may have: a line or two of
/// boilerplate around the reference.
pub const POINTER_MAX: usize = 512;

/// Whether `text` is a pointer to the file named `sibling`: a short file
/// that defers to it, as `@AGENTS.md` (Claude Code's import), `See
/// AGENTS.md.`, `[AGENTS.md](./AGENTS.md)` or a heading and a line naming
/// it, and so no second source of truth. That is: at most [`POINTER_MAX`]
/// bytes once trimmed, naming `sibling` as a word of its own (after `@`,
/// `./`, `(`, `[`, a quote or a space; before punctuation, a space or the
/// end), not as part of a longer path.
#[must_use]
pub fn pointer_to(text: &str, sibling: &str) -> bool {
    let text = js_trim(text);
    if text.len() > POINTER_MAX || sibling.is_empty() || text == sibling {
        return false;
    }
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(i) = text[from..].find(sibling) {
        let at = from + i;
        let end = at + sibling.len();
        let before = &text[..at];
        let before = before.strip_suffix("./").unwrap_or(before);
        let opens = before
            .chars()
            .next_back()
            .is_none_or(|c| c.is_whitespace() || "@([<`\"'".contains(c));
        let closes = bytes
            .get(end)
            .is_none_or(|&b| b.is_ascii_whitespace() || b".,;:!?)]>`\"'#".contains(&b));
        if opens && closes {
            return true;
        }
        from = at + 1;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn overlap_counts_the_lines_both_files_hold() {
        assert_eq!(overlap("a\nshared line\n\nb\n", "shared line\nc\n  \n"), 11);
        assert_eq!(overlap("x\n", "y\n"), 0);
    }
}
