//! The committed completions/ and man/ files must match what the CLI
//! definition generates now. Refresh them with the command in the failure.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fs;
use std::path::Path;

const REFRESH: &str = "AGENTCTX_REGENERATE=1 cargo test --test generated";

#[test]
fn committed_completions_and_man_pages_are_current() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files = agentctx::app::artifacts().unwrap();
    assert!(files.iter().any(|(p, _)| p == "man/agentctx.1"));
    assert!(files.iter().any(|(p, _)| p == "completions/agentctx.bash"));
    if std::env::var_os("AGENTCTX_REGENERATE").is_some() {
        for (rel, bytes) in &files {
            let path = root.join(rel);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, bytes).unwrap();
        }
        return;
    }
    let stale: Vec<&str> = files
        .iter()
        .filter(|(rel, bytes)| fs::read(root.join(rel)).ok().as_ref() != Some(bytes))
        .map(|(rel, _)| rel.as_str())
        .collect();
    assert!(
        stale.is_empty(),
        "generated files are stale: {}\nrefresh them with: {REFRESH}",
        stale.join(", ")
    );
}

#[test]
fn bash_completion_script_sources_cleanly() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let status = std::process::Command::new("bash")
        .arg("-c")
        .arg("source completions/agentctx.bash && complete -p agentctx")
        .current_dir(root)
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    assert!(String::from_utf8_lossy(&status.stdout).contains("agentctx"));
}

/// `zsh -n` and `fish -n` accept their scripts where those shells are
/// installed (they are not needed by CI; the test says when it skips).
#[test]
fn zsh_and_fish_scripts_parse_where_installed() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (shell, script) in [
        ("zsh", "completions/_agentctx"),
        ("fish", "completions/agentctx.fish"),
    ] {
        let out = match std::process::Command::new(shell)
            .arg("-n")
            .arg(script)
            .current_dir(root)
            .output()
        {
            Ok(out) => out,
            Err(e) => {
                eprintln!("skipping the {shell} syntax check: {shell} is not installed ({e})");
                continue;
            }
        };
        assert!(
            out.status.success(),
            "{shell} -n {script}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// Every harness's settings are in the man page of each command that takes
/// it, under its heading (claude's were once left hidden there).
#[test]
fn man_pages_document_every_harness_setting() {
    use agentctx::profile::{HARNESSES, Verb};
    let files = agentctx::app::artifacts().unwrap();
    let page = |name: &str| {
        let (_, bytes) = files
            .iter()
            .find(|(p, _)| p == &format!("man/agentctx-{name}.1"))
            .unwrap();
        String::from_utf8(bytes.clone()).unwrap()
    };
    let mut checked = 0;
    for (command, name) in [
        (Verb::Render, "render"),
        (Verb::Explain, "explain"),
        (Verb::Check, "check"),
    ] {
        let text = page(name);
        for harness in HARNESSES {
            let definition = harness.definition();
            if !definition.takes(command) || definition.flags().is_empty() {
                continue;
            }
            let heading = format!(".SH \"{}\"", definition.heading().to_uppercase());
            let at = text
                .find(&heading)
                .unwrap_or_else(|| panic!("man page of {name} lacks {heading}"));
            for flag in definition.flags() {
                let roff = format!("\\fB\\-\\-{}\\fR", flag.long.replace('-', "\\-"));
                let found = text[at..].find(&roff);
                assert!(found.is_some(), "man page of {name} lacks --{}", flag.long);
                checked += 1;
            }
        }
    }
    assert!(checked > 40, "{checked}");
}
