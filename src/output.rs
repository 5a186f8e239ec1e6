//! Presentation helpers shared by the subcommands: escaping for people,
//! JSON documents, and the exact-bytes writer.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::io::{self, Write};

use serde::Serialize;

/// Whether a character must not reach a terminal raw: C0 and C1 controls,
/// DEL, and the bidirectional formatting characters.
fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
        )
}

/// Shows control and bidi characters escaped (`\x1b`, `\n`, `\u{202e}`),
/// everything else as is. For names and snippets printed to people.
pub fn escape(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
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
    Cow::Owned(out)
}

/// Writes a JSON document and a newline.
pub fn json<T: Serialize>(out: &mut dyn Write, value: &T) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, value).map_err(io::Error::other)?;
    writeln!(out)
}

/// Writes message parts exactly, separated by one `\n`, with a final `\n`
/// only for a terminal (SPEC 1, 6).
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
pub fn warnings(err: &mut dyn Write, quiet: bool, warnings: &[String]) -> io::Result<()> {
    if quiet {
        return Ok(());
    }
    for w in warnings {
        writeln!(err, "agentctx: warning: {}", escape(w))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_controls_and_bidi_only() {
        assert_eq!(escape("a\u{1b}[31mb"), "a\\x1b[31mb");
        assert_eq!(escape("x\u{202e}y\nz"), "x\\u{202e}y\\nz");
        assert_eq!(escape("中文 ok"), "中文 ok");
        assert_eq!(escape("\u{85}"), "\\x85");
    }
}
