//! Presentation helpers shared by the subcommands: escaping for people,
//! JSON documents, and the exact-bytes writer.

pub mod check;
pub mod explain;
pub mod palette;
pub mod profile;
pub mod prompt;
pub mod sessions;

use std::borrow::Cow;
use std::fmt::Write as _;
use std::io::{self, Write};

use serde::Serialize;

use crate::discovery::{Absence, Candidate, Dir, Load, Place, Probe, Symlink, Workspace};

/// Whether a character must not reach a terminal raw: C0 and C1 controls,
/// DEL, and the bidirectional formatting characters.
fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
        )
}

/// Shows a name or snippet to people: control and bidi characters escaped
/// ([`escape_controls`]), and the two spellings of a GitHub Actions workflow
/// command broken ([`break_commands`]), so that no name can repaint a
/// terminal or act as a command in a CI log. For everything printed to
/// people: text output, warnings, errors.
#[must_use]
pub fn escape(text: &str) -> Cow<'_, str> {
    match escape_controls(text) {
        Cow::Borrowed(safe) => break_commands(safe),
        Cow::Owned(safe) => Cow::Owned(break_commands(&safe).into_owned()),
    }
}

/// Shows control and bidi characters escaped (`\x1b`, `\n`, `\u{202e}`),
/// everything else as is. Where the workflow-command rules are applied
/// otherwise (the `github` format's own escaping).
pub fn escape_controls(text: &str) -> Cow<'_, str> {
    let Some(mut at) = first_unsafe(text, 0) else {
        return Cow::Borrowed(text);
    };
    let mut out = String::with_capacity(text.len() + 8);
    let mut start = 0;
    loop {
        out.push_str(&text[start..at]);
        let Some(c) = text[at..].chars().next() else {
            start = at;
            break;
        };
        match c {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x100 => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
        }
        start = at + c.len_utf8();
        match first_unsafe(text, start) {
            Some(next) => at = next,
            None => break,
        }
    }
    out.push_str(&text[start..]);
    Cow::Owned(out)
}

/// The byte offset of the first character at or after `from` (a character
/// boundary) that [`is_unsafe`]: ASCII is judged by its byte, the rest
/// character by character.
fn first_unsafe(text: &str, from: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut i = from;
    while let Some(&b) = bytes.get(i) {
        if b.is_ascii() {
            if b < 0x20 || b == 0x7f {
                return Some(i);
            }
            i += 1;
        } else {
            let c = text[i..].chars().next()?;
            if is_unsafe(c) {
                return Some(i);
            }
            i += c.len_utf8();
        }
    }
    None
}

/// Breaks what a GitHub Actions runner reads as a workflow command in a
/// line of log: a `::` at the start of the text after whitespace (the
/// runner trims a line and obeys `::name::`) becomes `\:\:`, and every
/// `##[` (the legacy form, obeyed anywhere in a line) becomes `\#\#[`. The
/// text holds no line break (controls are escaped first), so a name can
/// start a line only where it starts; escaping its own start covers every
/// place it is shown.
#[must_use]
pub fn break_commands(text: &str) -> Cow<'_, str> {
    let rest = text.trim_start();
    let leading = rest.starts_with("::");
    if !leading && !text.contains("##[") {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 4);
    let mut tail = text;
    if leading {
        out.push_str(&text[..text.len() - rest.len()]);
        out.push_str("\\:\\:");
        tail = &rest[2..];
    }
    out.push_str(&tail.replace("##[", "\\#\\#["));
    Cow::Owned(out)
}

pub use crate::text::plural;

/// A UTC time, to the second, as `2026-12-01T09:30:00Z`.
#[must_use]
pub fn utc(secs: i64) -> String {
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    // Civil date from days since 1970-01-01 (proleptic Gregorian).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

/// Writes a JSON document and a newline.
///
/// # Errors
/// Whatever writing to `out` returns.
pub fn json<T: Serialize>(out: &mut dyn Write, value: &T) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, value).map_err(io::Error::other)?;
    writeln!(out)
}

/// Writes message parts exactly, separated by one `\n`, with a final `\n`
/// only for a terminal (SPEC 1, 6).
///
/// # Errors
/// Whatever writing to `out` returns.
pub fn parts(out: &mut dyn Write, parts: &[&str], tty: bool) -> io::Result<()> {
    for (i, part) in parts.iter().enumerate() {
        if i > 0 {
            out.write_all(b"\n")?;
        }
        out.write_all(part.as_bytes())?;
    }
    if tty && !parts.is_empty() {
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// Writes warnings (unless quiet), each as one `agentctx: warning: ...` line.
///
/// # Errors
/// Whatever writing to `err` returns.
pub fn warnings(err: &mut dyn Write, quiet: bool, warnings: &[String]) -> io::Result<()> {
    if quiet {
        return Ok(());
    }
    for w in warnings {
        writeln!(err, "agentctx: warning: {}", escape(w))?;
    }
    Ok(())
}

/// Folds clap's multi-line usage error into the one line SPEC 1 wants: the
/// message, its indented details and tips, without the usage block and the
/// help hint, then a pointer to `--help`. The caller escapes it.
#[must_use]
pub fn usage_line(rendered: &str) -> String {
    let mut line = String::new();
    for raw in rendered.lines() {
        let text = raw.trim();
        if text.starts_with("Usage:") || text.starts_with("For more information") {
            break;
        }
        let text = text.strip_prefix("error: ").unwrap_or(text);
        if text.is_empty() {
            continue;
        }
        if !line.is_empty() {
            line.push_str(if text.starts_with("tip:") { "; " } else { " " });
        }
        line.push_str(text);
    }
    line.push_str("; try '--help'");
    line
}

/// Warnings about the candidates of a scanned workspace that a person
/// would otherwise puzzle over: not a regular file, a dangling symlink, a
/// directory on the way that is a file, unavailable, oversized, unreadable.
/// Each names the candidate's display path, what happened and why; the
/// caller escapes them when it prints ([`warnings`]).
///
/// The probe already tells a dangling symlink or a file in place of a
/// directory from a plain absence, so a missing candidate costs nothing here.
pub fn discovery_warnings(ws: &Workspace, max_source_bytes: i64) -> Vec<String> {
    let mut out = Vec::new();
    for dir in &ws.dirs {
        for c in &dir.candidates {
            if let Some(w) = candidate_warning(dir, c, max_source_bytes) {
                out.push(w);
            }
        }
    }
    out
}

/// One warning per candidate entry the settings ignore (SPEC 1): a name
/// that is empty, `.`, `..`, or holds `/` or `\` is no file name, so no
/// directory is ever probed for it. Says which setting and why.
#[must_use]
pub fn ignored_entry_warnings(settings: &crate::settings::Settings) -> Vec<String> {
    let mut out = Vec::new();
    for (flag, key, list) in [
        (
            "--candidates",
            "instructionFileCandidates",
            &settings.candidates,
        ),
        (
            "--local-candidates",
            "localInstructionFileCandidates",
            &settings.local_candidates,
        ),
    ] {
        let whose = match list.origin {
            crate::settings::Origin::Log => format!("the log's {key}"),
            _ => flag.to_owned(),
        };
        for entry in &list.value.ignored {
            let why = match entry.as_str() {
                "" => "it is empty",
                "." | ".." => "it names a directory, not a file",
                _ => {
                    "it holds a path separator: candidates are file names, looked for in every directory of the chain"
                }
            };
            out.push(format!("{whose}: entry \"{entry}\" is ignored: {why}"));
        }
    }
    out
}

/// Why `render` sends nothing, for a person at a terminal: one line that
/// says why no instruction file applies and points at `agentctx explain`.
#[must_use]
pub fn nothing_sent_hint(ws: &Workspace, settings: &crate::settings::Settings) -> String {
    let max = settings.max_bytes.value;
    if !max.is_enabled() {
        return format!(
            "nothing is sent: max-bytes {max} disables loading (<= 0, NaN or infinite); `agentctx explain` shows where each setting came from"
        );
    }
    let present = ws
        .dirs
        .iter()
        .flat_map(|d| &d.candidates)
        .filter(|c| c.probe.as_ref().is_some_and(Probe::is_present))
        .count();
    if present > 0 {
        return format!(
            "no instruction file loads here: {} found, none loaded (the warnings above say why); `agentctx explain` shows every file looked for",
            plural(present, "candidate", "candidates")
        );
    }
    let mut names: Vec<&str> = settings
        .candidates
        .value
        .names
        .iter()
        .map(String::as_str)
        .collect();
    names.extend(
        settings
            .local_candidates
            .value
            .names
            .iter()
            .map(String::as_str),
    );
    let chain = ws.dirs.iter().filter(|d| !d.is_user_global()).count();
    let names = match names.as_slice() {
        [] => "no candidate names".to_owned(),
        [one] => (*one).to_owned(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    };
    format!(
        "no instruction file applies here: no {names} in {} from the project root {} down to the cwd, and no {}; `agentctx explain` shows every file looked for",
        plural(chain, "directory", "directories"),
        escape(&ws.root().to_string_lossy()),
        settings.user_global_display(),
    )
}

/// What `render --check` found cut, for its exit status 1: the files the
/// byte budget omitted and the one it truncated, with the numbers.
#[must_use]
pub fn cut_hint(fit: &crate::render::Fit, max: crate::jsnum::MaxBytes) -> String {
    let mut parts = Vec::new();
    if !fit.omitted.is_empty() {
        parts.push(format!("omitted {}", fit.omitted.join(", ")));
    }
    if let Some(t) = &fit.truncated {
        parts.push(format!(
            "truncated {} from {} to {} bytes",
            t.path, t.original_bytes, t.included_bytes
        ));
    }
    format!(
        "the byte budget (max-bytes {max}) cut this baseline: {}",
        parts.join("; ")
    )
}

/// One hint line on stderr, unless `quiet`.
///
/// # Errors
/// When stderr cannot be written.
pub fn hint(err: &mut dyn Write, quiet: bool, hint: &str) -> io::Result<()> {
    if quiet {
        return Ok(());
    }
    writeln!(err, "agentctx: {}", escape(hint))
}

/// `FILE:LINE`, `FILE` without a line, as dsh configuration messages name a place.
#[must_use]
pub fn file_line(file: &str, line: Option<usize>) -> String {
    match line {
        Some(line) => format!("{file}:{line}"),
        None => file.to_owned(),
    }
}

/// The stderr line for a configuration that mounts no loader (CONFIG 11.7).
#[must_use]
pub fn not_mounted(config: &crate::dshconfig::DshConfig) -> String {
    match &config.outcome {
        crate::dshconfig::Outcome::NotMounted { file, line, reason } if !file.is_empty() => {
            format!(
                "{}: nothing is sent: {reason}, so a dsh --profile {} session receives no agent instructions",
                file_line(file, *line),
                config.profile
            )
        }
        crate::dshconfig::Outcome::NotMounted { reason, .. } => format!(
            "nothing is sent: {reason}, so a dsh --profile {} session receives no agent instructions",
            config.profile
        ),
        _ => String::new(),
    }
}

/// The warning when dsh's current configuration would change a setting the
/// log recorded (CONFIG 11.6).
#[must_use]
pub fn differs_from_log(log: &str, what: &str) -> String {
    format!(
        "{log}: dsh's current configuration differs from what the log recorded ({what}): a resume under it sends a replacement baseline; --settings-from config shows it"
    )
}

/// The warning for a layer that patches the loader row while dsh web's
/// preset decides (CONFIG 11.5).
#[must_use]
pub fn not_for_web(origin: &crate::dshconfig::ConfigOrigin) -> String {
    format!(
        "{}: its agent-instructions patch applies to dsh --profile headless and custom profiles, not to dsh web, whose agent preset decides (pass --dsh-profile headless, or set AGENTCTX_DSH_PROFILE)",
        origin.file()
    )
}

/// The warning for a candidate symlinked into a secret location (SPEC 7),
/// from what the probe recorded; `None` for any other candidate.
pub fn secret_link(display: &str, probe: Option<&Probe>, link: Option<&Symlink>) -> Option<String> {
    let readable = matches!(probe, Some(Probe::File { .. }));
    let link = link.filter(|l| readable && l.place.is_secret())?;
    let resolved = link
        .resolved
        .as_deref()
        .map_or_else(String::new, |r| r.to_string_lossy().into_owned());
    Some(secret_link_warning(
        display,
        &link.target,
        &resolved,
        link.place,
    ))
}

/// `AGENTS.md: symlink to T (R), in /proc, /sys or /dev: sessions send ...`
/// (worded with check's findings about links: `check::words`).
#[must_use]
pub fn secret_link_warning(display: &str, target: &str, resolved: &str, place: Place) -> String {
    check::words::secret_link_warning(display, target, resolved, place)
}

fn candidate_warning(dir: &Dir, c: &Candidate, max_source_bytes: i64) -> Option<String> {
    let path = &c.display;
    if let Some(w) = secret_link(path, c.probe.as_ref(), c.link.as_ref()) {
        return Some(w);
    }
    match (c.probe.as_ref()?, &c.load) {
        (Probe::NotRegular(kind), _) => {
            let what = if c.link.is_some() {
                "symlink to a "
            } else {
                ""
            };
            Some(format!(
                "{path}: not a regular file ({what}{kind}), treated as absent"
            ))
        }
        (Probe::Missing(Absence::DanglingLink), _) => {
            let target = c.link.as_ref().map_or("", |l| l.target.as_str());
            Some(check::words::dangling_link_warning(path, target))
        }
        (Probe::Missing(Absence::NotADirectory), _) => Some(format!(
            "{path}: {} is not a directory, treated as absent",
            dir.path.display()
        )),
        (Probe::Unavailable(err), _) => Some(format!("{path}: unavailable, skipped: {err}")),
        (Probe::File { .. }, Some(Load::Oversized { bytes, grew: false })) => Some(format!(
            "{path}: oversized, not loaded: {bytes} bytes > max-source-bytes {max_source_bytes}"
        )),
        (Probe::File { .. }, Some(Load::Oversized { bytes, grew: true })) => Some(format!(
            "{path}: oversized, not loaded: it changed while being read ({bytes} bytes when probed, more than max-source-bytes {max_source_bytes} when read)"
        )),
        (Probe::File { .. }, Some(Load::Unreadable(err))) => {
            Some(format!("{path}: unreadable, not loaded: {err}"))
        }
        // Absent, or a file that loads: nothing to say.
        (Probe::Missing(Absence::NoEntry) | Probe::File { .. }, _) => None,
    }
}

/// Why a file is not text to dsh, with where (SPEC 2.4): `binary (NUL at
/// byte 100)`, `invalid UTF-8 at byte 5`.
#[must_use]
pub fn not_text(reason: crate::explain::NotText, offset: u64, cut_at_end: bool) -> String {
    match (reason, cut_at_end) {
        (crate::explain::NotText::Binary, _) => format!("binary (NUL at byte {offset})"),
        (crate::explain::NotText::InvalidUtf8, false) => format!("invalid UTF-8 at byte {offset}"),
        (crate::explain::NotText::InvalidUtf8, true) => {
            format!("invalid UTF-8 at byte {offset} (a sequence cut short by the end of the file)")
        }
    }
}

impl std::fmt::Display for crate::discovery::Unreadable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use crate::discovery::Unreadable;
        use crate::explain::NotText;
        match self {
            Unreadable::Binary { offset } => {
                f.write_str(&not_text(NotText::Binary, *offset, false))
            }
            Unreadable::InvalidUtf8 { offset, cut } => {
                f.write_str(&not_text(NotText::InvalidUtf8, *offset, *cut))
            }
            Unreadable::Error(error) => f.write_str(error),
        }
    }
}

/// The JSON of a session that receives nothing because dsh mounts no
/// loader (CONFIG 11.7): no parts, no source, and what decides it.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NotMounted {
    parts: [&'static str; 0],
    source: Option<crate::baseline::Source>,
    #[serde(rename = "notMounted")]
    why: NotMountedWhy,
}

#[derive(Debug, Serialize)]
struct NotMountedWhy {
    file: Option<String>,
    line: Option<usize>,
    reason: String,
    profile: String,
}

impl NotMounted {
    #[must_use]
    pub fn new(config: &crate::dshconfig::DshConfig) -> Self {
        let (file, line, reason) = match &config.outcome {
            crate::dshconfig::Outcome::NotMounted { file, line, reason } => (
                Some(file.clone()).filter(|f| !f.is_empty()),
                *line,
                reason.clone(),
            ),
            _ => (None, None, String::new()),
        };
        NotMounted {
            parts: [],
            source: None,
            why: NotMountedWhy {
                file,
                line,
                reason,
                profile: config.profile.clone(),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The character-by-character escaping [`escape_controls`] replaced.
    fn escape_controls_by_chars(text: &str) -> String {
        let mut out = String::new();
        for c in text.chars() {
            match c {
                '\n' => out.push_str("\\n"),
                '\t' => out.push_str("\\t"),
                '\r' => out.push_str("\\r"),
                c if is_unsafe(c) && (c as u32) < 0x100 => {
                    let _ = write!(out, "\\x{:02x}", c as u32);
                }
                c if is_unsafe(c) => {
                    let _ = write!(out, "\\u{{{:x}}}", c as u32);
                }
                c => out.push(c),
            }
        }
        out
    }

    proptest! {
        /// Escaping run by run is escaping character by character.
        #[test]
        fn escaping_runs_is_escaping_characters(
            parts in proptest::collection::vec(prop_oneof![
                proptest::sample::select(vec![
                    "\n", "\t", "\r", "\u{1b}", "\u{7f}", "\u{85}", "\u{9f}", "\u{a0}", "\u{202e}",
                    "\u{2066}", "\u{61c}", "\u{200f}", "é", "☃", "😀", "a", " ", "::", "##[",
                ]).prop_map(str::to_owned),
                any::<char>().prop_map(String::from),
                "[ -~]{0,12}",
            ], 0..24)
        ) {
            let text: String = parts.concat();
            prop_assert_eq!(escape_controls(&text).into_owned(), escape_controls_by_chars(&text));
        }
    }

    #[test]
    fn utc_times_are_civil_dates() {
        assert_eq!(utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(utc(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(utc(1_764_585_000), "2025-12-01T10:30:00Z");
        assert_eq!(utc(-1), "1969-12-31T23:59:59Z");
    }

    #[test]
    fn plural_picks_the_word_by_count() {
        assert_eq!(plural(1, "entry", "entries"), "1 entry");
        assert_eq!(plural(0, "entry", "entries"), "0 entries");
        assert_eq!(plural(2, "file", "files"), "2 files");
    }

    #[test]
    fn escapes_controls_and_bidi_only() {
        assert_eq!(escape("a\u{1b}[31mb"), "a\\x1b[31mb");
        assert_eq!(escape("x\u{202e}y\nz"), "x\\u{202e}y\\nz");
        assert_eq!(escape("中文 ok"), "中文 ok");
        assert_eq!(escape("\u{85}"), "\\x85");
    }

    #[test]
    fn names_never_spell_a_workflow_command() {
        assert_eq!(escape("::add-mask::warning"), "\\:\\:add-mask::warning");
        assert_eq!(escape(" \u{3000}::error::x"), " \u{3000}\\:\\:error::x");
        assert_eq!(escape("a ##[error]b ##[x"), "a \\#\\#[error]b \\#\\#[x");
        assert_eq!(escape("::x ##[y]"), "\\:\\:x \\#\\#[y]");
        // A control first is escaped, so the text no longer starts with `::`.
        assert_eq!(escape("\n::x"), "\\n::x");
        assert_eq!(escape("a::b #[c] #"), "a::b #[c] #");
        assert!(matches!(escape("src/a::b"), Cow::Borrowed(_)));
    }

    #[test]
    fn usage_errors_fold_into_one_line() {
        assert_eq!(
            usage_line(
                "error: unexpected argument '--maxbytes' found\n\n  tip: a similar argument exists: '--max-bytes'\n\nUsage: agentctx render --max-bytes <N>\n\nFor more information, try '--help'.\n"
            ),
            "unexpected argument '--maxbytes' found; tip: a similar argument exists: '--max-bytes'; try '--help'"
        );
        assert_eq!(
            usage_line(
                "error: the following required arguments were not provided:\n  --log <FILE>\n\nUsage: agentctx diff --log <FILE>\n\nFor more information, try '--help'.\n"
            ),
            "the following required arguments were not provided: --log <FILE>; try '--help'"
        );
    }
}

/// One warning per logged scope outside the project root (SPEC 6: it is
/// reconciled as logged).
#[must_use]
pub fn outside_scope_warnings(
    log: &str,
    outside: &[crate::reconcile::OutsideScope],
) -> Vec<String> {
    outside
        .iter()
        .map(|o| {
            format!(
                "{log}:{}: the logged scope {} is outside the project root; reconciled as logged",
                o.line, o.dir
            )
        })
        .collect()
}

/// Standard output that stops writing, quietly, once its reader has gone
/// (EPIPE: `agentctx check | head -1`). The command runs to its end, so the
/// exit status is still the one its findings decide. Any other write error
/// is reported, naming stdout.
#[derive(Debug)]
pub struct PipeOut<W> {
    inner: W,
    closed: bool,
}

impl<W: Write> PipeOut<W> {
    pub fn new(inner: W) -> Self {
        PipeOut {
            inner,
            closed: false,
        }
    }

    fn settle<T>(&mut self, result: io::Result<T>, done: T) -> io::Result<T> {
        match result {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(done)
            }
            Err(e) => Err(io::Error::new(e.kind(), format!("writing to stdout: {e}"))),
            ok => ok,
        }
    }
}

impl<W: Write> Write for PipeOut<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.closed {
            return Ok(buf.len());
        }
        let result = self.inner.write(buf);
        self.settle(result, buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.closed {
            return Ok(());
        }
        let result = self.inner.flush();
        self.settle(result, ())
    }
}
