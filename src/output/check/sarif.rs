//! `check --format sarif`: every harness's report as one SARIF 2.1.0 run
//! of one tool, `agentctx`, with harness-scoped rule ids: dsh's rules keep
//! their ids (`AGX001`), another harness's are the same rule below its name
//! (`AGX001/codex`, a SARIF hierarchical id). One run keeps one upload
//! category for code scanning whatever `--profile` checks.
//!
//! The rules every checked harness can report are listed, in harness then
//! id order, so indices never shift for a given `--profile`; results point
//! at files relative to the directory check was started from (`uriBaseId`
//! `SRCROOT`), carry the fix after the message and in `properties.hint`
//! (both worded by `words`),
//! and `partialFingerprints` hash the rule, the file and the directory
//! only, so an alert keeps its identity across runs while its numbers
//! change.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;

use serde_json::{Value, json};

use super::words;
use crate::check::impact::Impact;
use crate::check::{Finding, RULES, Report, Rule};
use crate::text::sha1_hex;

/// The SARIF schema the output follows.
pub const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// The SARIF rule id of `rule` for `harness`: dsh's as it is, another's
/// below its name.
#[must_use]
pub fn rule_id(rule: &str, harness: &str) -> String {
    if harness == "dsh" {
        rule.to_owned()
    } else {
        format!("{rule}/{harness}")
    }
}

/// The rules `harness` can report.
fn rules_of(harness: &str) -> impl Iterator<Item = &'static Rule> + '_ {
    RULES
        .iter()
        .filter(move |r| if harness == "dsh" { r.dsh } else { r.profiles })
}

/// The SARIF log of the reports (one per harness, each with its impact
/// when `--base` was given); `base` is the directory paths are relative
/// to. With an impact, each result says whether the change brought it
/// (`baselineState` `new`) or it was there before (`unchanged`).
#[must_use]
pub fn log(reports: &[(&Report, Option<&Impact>)], base: &Path) -> Value {
    let mut rules = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    // A harness's rules, then any other rule one of its findings has.
    let listed = reports.iter().flat_map(|(report, _)| {
        let h = report.harness;
        rules_of(h).map(move |r| (h, r)).chain(
            report
                .findings
                .iter()
                .filter_map(move |f| RULES.iter().find(|r| r.id == f.rule).map(|r| (h, r))),
        )
    });
    for (h, r) in listed {
        let id = rule_id(r.id, h);
        if index.contains_key(&id) {
            continue;
        }
        index.insert(id.clone(), rules.len());
        let (short, name) = if h == "dsh" {
            (r.title.to_owned(), r.kind.to_owned())
        } else {
            (format!("{} ({h})", r.title), format!("{}/{h}", r.kind))
        };
        rules.push(json!({
            "id": id,
            "name": name,
            "shortDescription": {"text": short},
            "fullDescription": {"text": r.full},
            "help": {"text": r.help},
            "defaultConfiguration": {"level": r.level.name()},
            "properties": {"tags": [h]},
        }));
    }
    let mut driver = json!({
        "name": "agentctx",
        "version": env!("CARGO_PKG_VERSION"),
        "rules": rules,
    });
    if let Some(uri) = option_env!("CARGO_PKG_REPOSITORY").filter(|u| !u.is_empty()) {
        driver["informationUri"] = json!(uri);
    }
    let mut results = Vec::new();
    for (report, impact) in reports {
        for f in &report.findings {
            let id = rule_id(f.rule, report.harness);
            let at = index.get(&id).copied().unwrap_or(0);
            results.push(result(f, &id, at, *impact));
        }
    }
    json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": driver},
            "originalUriBaseIds": {
                "SRCROOT": {"uri": format!("file://{}/", encode(&base.to_string_lossy()).trim_end_matches('/'))},
            },
            "results": results,
        }],
    })
}

fn result(f: &Finding, id: &str, index: usize, impact: Option<&Impact>) -> Value {
    let said = words::words(f);
    let mut result = json!({
        "ruleId": id,
        "ruleIndex": index,
        "level": f.severity.name(),
        "message": {"text": format!("{}\nFix: {}", said.message, said.hint)},
        "partialFingerprints": {
            "agentctxFinding/v1": sha1_hex(format!("{id}\0{}\0{}", f.file, f.dir).as_bytes()),
        },
        "properties": {"hint": said.hint},
    });
    if !f.file.is_empty() {
        let mut artifact = json!({"uri": encode(&f.file)});
        // Paths inside the start directory are relative to it; others
        // (`../x`, the user-global `~/.dsh/AGENTS.md`) cannot be and carry
        // no base; an absolute one (a layer of dsh's configuration, a
        // harness's `/etc/...`) is a `file://` URI.
        if f.file.starts_with('/') {
            artifact["uri"] = json!(format!("file://{}", encode(&f.file)));
        } else if !(f.file.starts_with("..") || f.file.starts_with(['~', '$'])) {
            artifact["uriBaseId"] = json!("SRCROOT");
        }
        let mut physical = json!({"artifactLocation": artifact});
        if let Some(line) = f.detail.line() {
            physical["region"] = json!({"startLine": line});
        }
        result["locations"] = json!([{"physicalLocation": physical}]);
    }
    if let Some(impact) = impact {
        let new = impact
            .new_errors
            .iter()
            .chain(&impact.new_warnings)
            .any(|n| n == f);
        result["baselineState"] = json!(if new { "new" } else { "unchanged" });
    }
    result
}

/// Percent-encodes a path for a URI: everything but unreserved characters
/// and `/`.
fn encode(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{Detail, Reach, Said};
    use crate::discovery::Place;

    /// One finding of every kind, so the schema sees every rule and shape.
    fn every_kind() -> Vec<Detail> {
        [budgets_and_links(), contents(), harness_kinds()].concat()
    }

    /// Budgets, secrets, drift and symlinks.
    fn budgets_and_links() -> Vec<Detail> {
        vec![
            Detail::OverBudget {
                bytes: 10,
                kept_bytes: 3,
                max_bytes: crate::jsnum::MaxBytes(10.0),
                directories: vec![".".to_owned(), "a".to_owned()].into(),
                omitted_in: 1,
                truncated_in: 1,
                worst: "a".into(),
                whole_bytes: 20,
                excess: 10,
                pushes_out: vec!["a/AGENTS.md".into()],
                grew_from: Some(4),
                kept_min: 3,
                setting: "max-bytes",
                itself: None,
            },
            Detail::Oversized {
                bytes: 5,
                max_source_bytes: 4,
                grew: false,
            },
            Detail::SecretSymlink {
                target: "/proc/self/environ".into(),
                resolved: "/proc/1/environ".into(),
                place: "system",
                at: Place::System,
                reach: Reach::Link,
            },
            Detail::Drift {
                winner: "AGENTS.md".into(),
                name: "AGENTS.md".into(),
            },
            Detail::TwoSources {
                sibling: "AGENTS.md".into(),
                overlap_bytes: 3,
                name: "AGENTS.md".into(),
            },
            Detail::SymlinkLeavesTree {
                target: "../x".into(),
                project_root: ".".into(),
            },
            Detail::DanglingSymlink {
                target: "gone".into(),
            },
        ]
    }

    /// What a file holds, or why it could not be read.
    fn contents() -> Vec<Detail> {
        vec![
            Detail::InvalidUtf8 {
                offset: 3,
                cut: false,
            },
            Detail::Binary { offset: 100 },
            Detail::SystemReminder { line: 3 },
            Detail::Empty { whitespace: true },
            Detail::NotRegular {
                file_type: "directory",
            },
            Detail::SymlinkStub {
                sibling: "CLAUDE.md".into(),
            },
            Detail::Unavailable {
                error: "denied".into(),
                too_large: None,
                imported_by: None,
            },
            Detail::UnreadableDir {
                error: "denied".into(),
            },
        ]
    }

    /// Near budget, loads twice, and what the harness profiles and dsh's
    /// configuration report.
    fn harness_kinds() -> Vec<Detail> {
        vec![
            Detail::NearBudget {
                bytes: 9,
                max_bytes: crate::jsnum::MaxBytes(10.0),
                percent: 90,
                session: ".".into(),
                warn_at: 80,
                setting: "max-bytes",
            },
            Detail::LoadsTwice {
                same_as: ".agents/AGENTS.md".into(),
                bytes: 4,
            },
            Detail::IgnoredName {
                by: "AGENTS.md".into(),
            },
            Detail::HiddenByOverride {
                by: "AGENTS.override.md".into(),
            },
            Detail::LoadsOnce {
                first: "GEMINI.md".into(),
            },
            Detail::NotExact {
                reason: "url",
                url: "https://example.com/a.md".into(),
            },
            Detail::ImportProblem {
                token: "./x.md".into(),
                problem: "failed",
                error: Some("ENOENT".into()),
                imported_by: None,
            },
            Detail::LossyUtf8 {},
            Detail::Aborted {},
            Detail::HarnessWarning {
                said: Said::Warning("untrusted project".into()),
            },
            Detail::DshConfigRefused {
                line: Some(2),
                dsh_message: "invalid config: - $.maxBytes missing required value (at maxBytes)"
                    .into(),
            },
            Detail::DshConfigNotMounted {
                line: None,
                reason: "preset minimal has no agent-instructions row".into(),
                profile: "default".into(),
            },
        ]
    }

    fn report(harness: &'static str, findings: Vec<Finding>) -> Report {
        Report {
            harness,
            paths: vec!["/r".into()],
            walked: 1,
            checked: 1,
            max_bytes: Some(crate::jsnum::MaxBytes(10.0)),
            largest: None,
            errors: 0,
            warnings: 0,
            findings,
            directories: None,
            received: Vec::new(),
            sessions: Vec::new(),
            unmatched_excludes: Vec::new(),
            ignore_warnings: Vec::new(),
        }
    }

    #[test]
    fn every_finding_kind_of_every_harness_validates_against_the_sarif_schema() {
        // The official schema's `language` pattern has a stray `]`, a literal
        // to ECMAScript regexes but an error to Rust's: escape it.
        let text = include_str!("../../../tests/sarif/sarif-2.1.0-rtm.5.json")
            .replace("{2}]?$", "{2}\\\\]?$");
        let schema: Value = serde_json::from_str(&text).unwrap_or_default();
        let validator = jsonschema::draft4::options()
            .should_validate_formats(true)
            .build(&schema)
            .unwrap_or_else(|e| panic!("schema: {e}"));
        let findings: Vec<Finding> = every_kind()
            .into_iter()
            .enumerate()
            .map(|(i, d)| {
                let file = match i {
                    0 => "~/.dsh/AGENTS.md".into(),
                    24 => String::new(),
                    _ => format!("a b/{i}%,AGENTS.md"),
                };
                Finding::new("a b".into(), file, d)
            })
            .collect();
        let kinds: std::collections::HashSet<&str> = findings.iter().map(|f| f.rule).collect();
        assert_eq!(kinds.len(), RULES.len());
        let reports: Vec<Report> = ["dsh", "codex", "gemini", "opencode"]
            .into_iter()
            .map(|h| report(h, findings.clone()))
            .collect();
        let impact = crate::check::impact::compare("HEAD", &reports[0], &reports[0]);
        for impact in [None, Some(&impact)] {
            let pairs: Vec<(&Report, Option<&Impact>)> =
                reports.iter().map(|r| (r, impact)).collect();
            let log = log(&pairs, Path::new("/r/x y"));
            let errors: Vec<String> = validator.iter_errors(&log).map(|e| e.to_string()).collect();
            assert_eq!(errors, Vec::<String>::new());
            // Every result's rule is the one its index names.
            let rules = &log["runs"][0]["tool"]["driver"]["rules"];
            for r in log["runs"][0]["results"].as_array().into_iter().flatten() {
                let at = r["ruleIndex"].as_u64().unwrap_or(u64::MAX);
                let at = usize::try_from(at).unwrap_or(usize::MAX);
                assert_eq!(rules[at]["id"], r["ruleId"]);
            }
            // The validator does reject a wrong log.
            let mut bad = log.clone();
            bad["runs"][0]["results"][0]["level"] = json!("fatal");
            assert!(!validator.is_valid(&bad));
        }
    }

    #[test]
    fn rule_ids_are_scoped_by_harness_except_dsh() {
        assert_eq!(rule_id("AGX001", "dsh"), "AGX001");
        assert_eq!(rule_id("AGX001", "codex"), "AGX001/codex");
    }

    #[test]
    fn uris_encode_everything_but_unreserved_and_slashes() {
        assert_eq!(encode("a b/ü,%.md"), "a%20b/%C3%BC%2C%25.md");
    }
}
