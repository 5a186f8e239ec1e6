//! The one colour scheme of the text views (explain, check, the profile
//! views): a piece of text has a role, the role picks its style, and a
//! palette that is off writes no escape codes at all.

use owo_colors::{OwoColorize, Style};

/// Whether text is coloured, decided once per command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Palette {
    pub on: bool,
}

/// The role of a piece of text, which picks its style.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    Plain,
    /// Section headings and check's directory lines: bold.
    Heading,
    /// File and log names: cyan.
    Name,
    /// Loaded, matching: green.
    Good,
    /// Something a person should look at: yellow.
    Warn,
    /// Lost or failing: red.
    Bad,
    /// Absent, not applicable, notes: dimmed.
    Dim,
    /// check's `error` label and error count: bold red.
    Error,
    /// check's `warning` label and warning count: bold yellow.
    Warning,
}

impl Tone {
    fn style(self) -> Option<Style> {
        Some(match self {
            Tone::Plain => return None,
            Tone::Heading => Style::new().bold(),
            Tone::Name => Style::new().cyan(),
            Tone::Good => Style::new().green(),
            Tone::Warn => Style::new().yellow(),
            Tone::Bad => Style::new().red(),
            Tone::Dim => Style::new().dimmed(),
            Tone::Error => Style::new().red().bold(),
            Tone::Warning => Style::new().yellow().bold(),
        })
    }
}

impl Palette {
    /// `text` in the style of `tone`; unchanged when the palette is off,
    /// the tone is plain or the text is empty.
    #[must_use]
    pub fn paint(self, tone: Tone, text: &str) -> String {
        match tone.style() {
            Some(style) if self.on && !text.is_empty() => text.style(style).to_string(),
            _ => text.to_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn an_off_palette_writes_no_escape_codes() {
        let off = Palette { on: false };
        assert_eq!(off.paint(Tone::Error, "error"), "error");
        let on = Palette { on: true };
        assert_eq!(on.paint(Tone::Error, "error"), "\x1b[31;1merror\x1b[0m");
        assert_eq!(on.paint(Tone::Heading, ""), "");
        assert_eq!(on.paint(Tone::Plain, "x"), "x");
    }
}
