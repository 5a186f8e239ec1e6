//! The committed completions/ and man/ files must match what the CLI
//! definition generates now. Refresh them with the command in the failure.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fs;
use std::path::Path;

const REFRESH: &str = "AGENTCTX_REGENERATE=1 cargo test --test generated";

#[test]
fn committed_completions_and_man_pages_are_current() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files = agentctx::cmd::completions::artifacts().unwrap();
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
