//! `check --format sarif`: the report as one SARIF 2.1.0 run.
//!
//! Every rule of [`RULES`] is listed, so ids and indices never shift;
//! results point at files relative to the directory check was started from
//! (`uriBaseId` `SRCROOT`), and `partialFingerprints` hash the rule, the
//! file and the directory only, so an alert keeps its identity across runs
//! while its numbers change.

use std::fmt::Write as _;
use std::path::Path;

use serde_json::{Value, json};

use super::impact::Impact;
use super::{Finding, RULES, Report, Severity};
use crate::text::sha1_hex;

/// The SARIF schema the output follows.
pub const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// The SARIF log of a report; `base` is the directory paths are relative to.
/// With an impact, each result says whether the change brought it
/// (`baselineState` `new`) or it was there before (`unchanged`).
#[must_use]
pub fn log(report: &Report, base: &Path, impact: Option<&Impact>) -> Value {
    let mut driver = json!({
        "name": "agentctx",
        "version": env!("CARGO_PKG_VERSION"),
        "rules": RULES.iter().map(|r| json!({
            "id": r.id,
            "name": r.kind,
            "shortDescription": {"text": r.title},
            "fullDescription": {"text": r.full},
            "help": {"text": r.help},
            "defaultConfiguration": {"level": r.level},
        })).collect::<Vec<_>>(),
    });
    if let Some(uri) = option_env!("CARGO_PKG_REPOSITORY").filter(|u| !u.is_empty()) {
        driver["informationUri"] = json!(uri);
    }
    json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": driver},
            "originalUriBaseIds": {
                "SRCROOT": {"uri": format!("file://{}/", encode(&base.to_string_lossy()).trim_end_matches('/'))},
            },
            "results": report.findings.iter().map(|f| result(f, impact)).collect::<Vec<_>>(),
        }],
    })
}

fn result(f: &Finding, impact: Option<&Impact>) -> Value {
    let index = RULES.iter().position(|r| r.id == f.rule).unwrap_or(0);
    let mut artifact = json!({"uri": encode(&f.file)});
    // Paths inside the start directory are relative to it; others (`../x`,
    // the user-global `~/.dsh/AGENTS.md`) cannot be and carry no base; an
    // absolute one (a layer of dsh's configuration) is a `file://` URI.
    if f.file.starts_with('/') {
        artifact["uri"] = json!(format!("file://{}", encode(&f.file)));
    } else if !(f.file.starts_with("..") || f.file.starts_with('~') || f.file.starts_with('$')) {
        artifact["uriBaseId"] = json!("SRCROOT");
    }
    let mut physical = json!({"artifactLocation": artifact});
    if let Some(line) = f.detail.line() {
        physical["region"] = json!({"startLine": line});
    }
    let fingerprint = sha1_hex(format!("{}\0{}\0{}", f.rule, f.file, f.dir).as_bytes());
    let mut result = json!({
        "ruleId": f.rule,
        "ruleIndex": index,
        "level": match f.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        },
        "message": {"text": f.message},
        "locations": [{"physicalLocation": physical}],
        "partialFingerprints": {"agentctxFinding/v1": fingerprint},
    });
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
    use crate::check::Detail;
    use crate::render::Truncation;

    /// One finding of every kind, so the schema sees every rule and shape.
    fn every_kind() -> Vec<Detail> {
        vec![
            Detail::OverBudget {
                bytes: 10,
                whole_bytes: 20,
                max_bytes: crate::jsnum::MaxBytes(10.0),
                omitted: vec!["AGENTS.md".to_owned()].into(),
                truncated: vec![Truncation {
                    path: "a/AGENTS.md".into(),
                    original_bytes: 9,
                    included_bytes: 3,
                }],
            },
            Detail::Oversized {
                bytes: 5,
                max_source_bytes: 4,
            },
            Detail::SecretSymlink {
                target: "/proc/self/environ".into(),
                resolved: "/proc/1/environ".into(),
                place: "system",
            },
            Detail::Drift {
                winner: "AGENTS.md".into(),
            },
            Detail::TwoSources {
                sibling: "AGENTS.md".into(),
                overlap_bytes: 3,
            },
            Detail::SymlinkLeavesTree {
                target: "../x".into(),
                project_root: ".".into(),
            },
            Detail::DanglingSymlink {
                target: "gone".into(),
            },
            Detail::InvalidUtf8 { offset: 3 },
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
            },
            Detail::UnreadableDir {
                error: "denied".into(),
            },
            Detail::NearBudget {
                bytes: 9,
                max_bytes: crate::jsnum::MaxBytes(10.0),
                percent: 90,
            },
            Detail::LoadsTwice {
                same_as: ".agents/AGENTS.md".into(),
                bytes: 4,
            },
            Detail::DshConfigRefused {
                line: Some(2),
                dsh_message: "invalid config: - $.maxBytes missing required value (at maxBytes)"
                    .into(),
            },
            Detail::DshConfigNotMounted {
                line: None,
                reason: "preset minimal has no agent-instructions row".into(),
            },
        ]
    }

    #[test]
    fn every_finding_kind_validates_against_the_sarif_schema() {
        // The official schema's `language` pattern has a stray `]`, a literal
        // to ECMAScript regexes but an error to Rust's: escape it.
        let text = include_str!("../../tests/sarif/sarif-2.1.0-rtm.5.json")
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
                Finding::new(
                    "a b".into(),
                    if i == 0 {
                        "~/.dsh/AGENTS.md".into()
                    } else {
                        format!("a b/{i}%,AGENTS.md")
                    },
                    d,
                    "message".into(),
                )
            })
            .collect();
        let kinds: std::collections::HashSet<&str> = findings.iter().map(|f| f.rule).collect();
        assert_eq!(kinds.len(), RULES.len());
        let report = Report {
            paths: vec!["/r".into()],
            walked: 1,
            checked: 1,
            max_bytes: crate::jsnum::MaxBytes(10.0),
            largest: None,
            errors: 3,
            warnings: 13,
            findings,
            directories: None,
            unmatched_excludes: Vec::new(),
            ignore_warnings: Vec::new(),
        };
        let impact = crate::check::impact::compare("HEAD", &report, &report);
        for impact in [None, Some(&impact)] {
            let log = log(&report, Path::new("/r/x y"), impact);
            let errors: Vec<String> = validator.iter_errors(&log).map(|e| e.to_string()).collect();
            assert_eq!(errors, Vec::<String>::new());
            // The validator does reject a wrong log.
            let mut bad = log.clone();
            bad["runs"][0]["results"][0]["level"] = json!("fatal");
            assert!(!validator.is_valid(&bad));
        }
    }

    #[test]
    fn uris_encode_everything_but_unreserved_and_slashes() {
        assert_eq!(encode("a b/ü,%.md"), "a%20b/%C3%BC%2C%25.md");
    }
}
