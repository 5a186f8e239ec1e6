//! The manual text of the help and man pages: agentctx's examples and exit
//! codes, the help headings and the environment variables.
#![allow(clippy::doc_markdown)]

use std::fmt::Write as _;

/// agentctx's own examples and exit codes (the short help of every
/// command ends with these exit codes).
pub const MANUAL: Manual = Manual {
    examples: &[
        ("render", "the baseline a new session here gets"),
        ("explain", "every decision, for people"),
        (
            "diff --session latest",
            "what the newest dsh session gets on resume",
        ),
        ("check --format github", "the CI gate"),
        ("render --profile codex", "what Codex loads here"),
    ],
    exit: &[
        (0, "success"),
        (1, "a finding (render --check, diff --exit-code, check)"),
        (2, "bad usage or unusable input"),
    ],
};

/// A subcommand's examples and exit codes: the end of its long help, and
/// its man page's EXAMPLES and EXIT STATUS sections.
#[derive(Debug)]
pub struct Manual {
    /// (command line, what it shows; may be empty).
    pub examples: &'static [(&'static str, &'static str)],
    /// (exit code, when).
    pub exit: &'static [(u8, &'static str)],
}

impl Manual {
    /// The text after the options in `--help`: every example, each
    /// comment on a line of its own above its command (so that at 80
    /// columns no comment wraps onto a line that reads like a command),
    /// then the exit codes.
    #[must_use]
    pub fn help(&self) -> String {
        let mut out = String::from("Examples:\n");
        for (command, what) in self.examples {
            if !what.is_empty() {
                let _ = writeln!(out, "  # {what}");
            }
            let _ = writeln!(out, "  agentctx {command}");
        }
        out.push('\n');
        out.push_str(&self.exit_help());
        out
    }

    /// The text after the options in `-h`: the first example, then the
    /// exit codes.
    #[must_use]
    pub fn short_help(&self) -> String {
        let mut out = self.short_example();
        out.push_str(&self.exit_help());
        out
    }

    /// The first example, its comment above it, and a blank line.
    #[must_use]
    pub fn short_example(&self) -> String {
        let mut out = String::new();
        if let Some((command, what)) = self.examples.first() {
            out.push_str("Example:\n");
            if !what.is_empty() {
                let _ = writeln!(out, "  # {what}");
            }
            let _ = writeln!(out, "  agentctx {command}\n");
        }
        out
    }

    /// The exit codes as the help shows them.
    #[must_use]
    pub fn exit_help(&self) -> String {
        let mut out = String::from("Exit status:");
        for (code, when) in self.exit {
            let _ = write!(out, "\n  {code}  {when}");
        }
        out
    }
}

/// The help headings (issue 27). Every command shows its flags under the
/// same headings, in this order: its own options (with the global ones),
/// then [`SESSION`](heading::SESSION), [`HARNESS`](heading::HARNESS),
/// [`DSH`](heading::DSH), [`OUTPUT`](heading::OUTPUT). A profile's own
/// settings sit under their profile's heading (`profile::Definition::heading`),
/// hidden from `--help` and shown by `--help-profile P` (and in the man pages).
pub mod heading {
    /// Where the session runs and which log it is: `--cwd`, `--log`,
    /// `--session`, `--sessions-root`, `--strict`.
    pub const SESSION: &str = "Session";
    /// Which harness, and which of its generations: `--profile`,
    /// `--help-profile`, `--source-kind`.
    pub const HARNESS: &str = "Harness";
    /// The dsh settings (`ConfigArgs`): the values of dsh's configuration.
    pub const DSH: &str = "dsh settings";
    /// What is printed and the exit status: `--format`, `--check`, ...
    pub const OUTPUT: &str = "Output";
}

/// The environment variables agentctx reads (the man pages' ENVIRONMENT).
pub const ENVIRONMENT: &[(&str, &str)] = &[
    (
        "DSH_HOME",
        "dsh's home when it is not blank [default: ~/.dsh]: its configuration layers (cordis.patch.yml, profiles/, .agent-presets/), its sessions, and the user-global AGENTS.md unless --dsh-home or the loader's dshHome says otherwise",
    ),
    (
        "AGENTCTX_DSH_PROFILE",
        "the dsh profile whose configuration decides the settings when --dsh-profile is not given and it is not empty (headless, web or a custom one)",
    ),
    (
        "HOME",
        "the home directory: ~ in paths, the default dsh home ~/.dsh",
    ),
    (
        "NO_COLOR",
        "set and not empty: no colour unless --color or CLICOLOR_FORCE asks for it",
    ),
    (
        "CLICOLOR_FORCE",
        "set, not empty and not 0: colour even when the stream is not a terminal",
    ),
    (
        "CODEX_HOME",
        "--profile codex: the Codex home when --codex-home is not given and it is not empty [default: ~/.codex]",
    ),
    (
        "GEMINI_CLI_HOME",
        "--profile gemini: where Gemini CLI keeps its .gemini directory when it is not empty [default: the home directory]",
    ),
    (
        "GEMINI_CLI_SYSTEM_SETTINGS_PATH",
        "--profile gemini: the system settings file, when not empty",
    ),
    (
        "GEMINI_CLI_SYSTEM_DEFAULTS_PATH",
        "--profile gemini: the system defaults file, when not empty",
    ),
    (
        "GEMINI_MODEL",
        "--profile gemini: the model when --model is not given and it is not empty (it picks the memory header)",
    ),
    (
        "XDG_CONFIG_HOME",
        "--profile opencode: opencode's global config directory is $XDG_CONFIG_HOME/opencode [default: ~/.config/opencode]",
    ),
    (
        "OPENCODE_CONFIG",
        "--profile opencode: one more config file, when not empty",
    ),
    (
        "OPENCODE_CONFIG_DIR",
        "--profile opencode: when not empty and --opencode-config-dir is not given, its AGENTS.md is the global file and its opencode.json(c) the last config layer",
    ),
    (
        "OPENCODE_DISABLE_CLAUDE_CODE_PROMPT",
        "--profile opencode: 1 or true: no CLAUDE.md files, as --disable-claude-code-prompt",
    ),
    (
        "CLAUDE_CONFIG_DIR",
        "--profile claude: Claude Code's config directory when --claude-config-dir is not given and it is not empty [default: ~/.claude]",
    ),
    (
        "OPENCODE_DISABLE_PROJECT_CONFIG",
        "--profile opencode: 1 or true: no project files or project config, as --disable-project-config",
    ),
];
