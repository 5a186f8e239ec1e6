//! The fast log path (parse only lines holding a marker) must decide exactly
//! as a full parse of every line does (issue 7): generated logs with decoys
//! and `\u002d`-escaped spellings are read both ways and compared, in the
//! library and through the binary's `diff --strict`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use agentctx::log::{Log, ReadOptions, read_from};
use common::Lcg;
use pretty_assertions::assert_eq;

const IDENTITY: &str = r#"{\"projectRoot\":\"\",\"projectRootMarkers\":[\".git\"],\"maxBytes\":65536,\"maxSourceBytes\":1048576,\"instructionFileCandidates\":[\"AGENTS.md\",\"CLAUDE.md\"],\"localInstructionFileCandidates\":[\"AGENTS.local.md\",\"CLAUDE.local.md\"]}"#;

/// One line of a synthetic log; `seq` increases.
fn line(rng: &mut Lcg, seq: u64, cwd: &str, surface: &mut Vec<u64>) -> String {
    let digest = format!("{:040x}", rng.next());
    let pick = rng.below(18);
    if matches!(pick, 0 | 1 | 4 | 6 | 7 | 8 | 14 | 15 | 16) {
        surface.push(seq);
    }
    match pick {
        0 => format!(
            r#"{{"type":"user/message","seq":{seq},"time":0,"data":{{"content":[{{"type":"text","text":"x"}}],"source":{{"kind":"agent-instructions","form":"instructions","baseline":true,"baselineIdentity":"{IDENTITY}","changes":[{{"action":"set","scope":".","path":"AGENTS.md","digest":"{digest}"}}]}},"role":"user","id":"m{seq}"}},"surfaceOp":"append"}}"#
        ),
        1 => format!(
            r#"{{"type":"user/message","seq":{seq},"time":0,"data":{{"content":[],"source":{{"kind":"workspace\u002dinstructions","form":"instructions","changes":[{{"action":"set","scope":"pkg{seq}","path":"pkg{seq}/AGENTS.md","digest":"{digest}"}}]}},"role":"user"}},"surfaceOp":"append"}}"#
        ),
        2 => format!(
            r#"{{"type":"assistant/chunk","seq":{seq},"time":0,"data":{{"delta":{{"type":"text","text":"see workspace-instructions"}}}}}}"#
        ),
        3 => format!(
            r#"{{"type":"assistant/chunk","seq":{seq},"time":0,"data":{{"delta":{{"type":"text","text":"a \"user/message\" with \"surfaceOp\" \u002d decoy"}}}}}}"#
        ),
        4 => format!(
            r#"{{"type":"assistant/message","seq":{seq},"time":0,"data":{{"text":"ok"}},"surfaceOp":"append"}}"#
        ),
        5 if surface.len() > 2 => {
            let at = rng.index(surface.len() - 1);
            let (start, end) = (surface[at], surface[at + 1]);
            surface.splice(at..at + 2, [seq]);
            format!(
                r#"{{"type":"user/message","seq":{seq},"time":0,"data":{{"source":{{"kind":"compaction"}}}},"surfaceOp":{{"op":"replace","start":{start},"end":{end}}}}}"#
            )
        }
        6 => format!(
            r#"{{"type":"user/message","seq":{seq},"time":0,"data":{{"source":{{"kind":"agent-instructions","form":"instructions","changes":[{{"action":"remove","scope":"pkg{}","path":"p"}},{{"action":"bogus"}}]}}}},"surfaceOp":"append"}}"#,
            seq.saturating_sub(1)
        ),
        7 => format!(
            r#"{{"type":"system/message","seq":{seq},"time":0,"data":{{"content":[{{"type":"text","text":"prompt {}\n\nThe DeepSeek Harness implementation checkout is at {cwd}."}}]}},"surfaceOp":"append"}}"#,
            rng.below(2)
        ),
        8 => format!(
            r#"{{"type":"tool/result","seq":{seq},"time":0,"data":{{"text":"\u002f \/ path"}},"surfaceOp":"append"}}"#
        ),
        // JSON.parse readings (issue 13): a repeated key (the last wins), a
        // seq spelled as a double, an escaped key, a lone surrogate, deep
        // nesting, an array where a part belongs, a packed chunk row.
        14 => format!(
            r#"{{"type":"tool/result","seq":{},"type":"user/message","seq":{seq}.0,"data":{{"source":{{"kind":"workspace-instructions","changes":[]}},"source":{{"kind":"agent-instructions","form":"instructions","changes":[{{"action":"set","scope":"d{seq}","path":"d{seq}/AGENTS.md","digest":"{digest}"}}]}}}},"surfaceOp":"append"}}"#,
            seq + 1_000_000
        ),
        15 => format!(
            r#"{{"type":"user/message","s\u0065q":{seq}e0,"data":{{"source":{{"kind":"agent-instructions","changes":[{{"action":"set","scope":"l{seq}","path":"l\ud800{seq}","digest":"{digest}"}}],"deep":{}{}}}}},"surfaceOp":"app\u0065nd"}}"#,
            "[".repeat(300),
            "]".repeat(300)
        ),
        16 => format!(
            r#"{{"type":"system/message","seq":{seq},"time":0,"data":{{"content":[["array part"],{{"text":"prompt \"{}\"\n"}}]}},"surfaceOp":"append"}}"#,
            rng.below(2)
        ),
        17 => format!(
            r#"{{"type":"text-chunks","seq0":{seq},"time0":0,"data":{{"text":["a \"user/message\"","b\\n"]}}}}"#
        ),
        _ => format!(
            r#"{{"type":"assistant/chunk","seq":{seq},"time":0,"data":{{"delta":{{"type":"text","text":"word {}"}}}}}}"#,
            rng.next()
        ),
    }
}

fn generate(seed: u64, lines: u64, cwd: &str) -> String {
    let mut rng = Lcg(seed);
    let mut out =
        format!(r#"{{"type":"session","version":0,"id":"x","createdAt":0,"cwd":"{cwd}"}}"#);
    out.push('\n');
    let mut surface = Vec::new();
    for seq in 0..lines {
        out.push_str(&line(&mut rng, seq, cwd, &mut surface));
        out.push('\n');
    }
    out
}

/// Everything a decision depends on, for comparison.
fn summary(log: &Log) -> String {
    format!(
        "{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{}",
        log.header_cwd,
        log.workspace,
        log.visible_baseline,
        log.last_change_scope,
        log.ignored_kind,
        log.latest_baseline_identity,
        log.system,
        log.latest_snapshot,
        log.surface,
        log.invalid_changes
    )
}

fn read(text: &str, strict: bool) -> Result<Log, String> {
    read_from(
        text.as_bytes(),
        "t".into(),
        ReadOptions {
            strict,
            ..ReadOptions::ALL
        },
    )
    .map_err(|e| e.message)
}

#[test]
fn fast_path_equals_full_parse_on_generated_logs() {
    for seed in 0..40 {
        let text = generate(seed, 300, "/tmp/x");
        let fast = read(&text, false);
        let full = read(&text, true);
        match (&fast, &full) {
            (Ok(a), Ok(b)) => {
                assert_eq!(summary(a), summary(b), "seed {seed}");
                assert!(
                    a.parsed < b.parsed,
                    "seed {seed}: the fast path parsed every line"
                );
            }
            (Err(a), Err(b)) => assert_eq!(a, b, "seed {seed}"),
            _ => panic!("seed {seed}: fast {fast:?} vs full {full:?}"),
        }
    }
}

/// Logs of several buffers are read on two threads: still the same log.
#[test]
fn fast_path_equals_full_parse_on_large_logs() {
    for seed in [100, 101] {
        let text = generate(seed, 40_000, "/tmp/x");
        assert!(text.len() > 4 << 20, "{}", text.len());
        let (fast, full) = (read(&text, false).unwrap(), read(&text, true).unwrap());
        assert_eq!(summary(&fast), summary(&full), "seed {seed}");
        assert_eq!((fast.lines, fast.records), (full.lines, full.records));
        assert!(fast.parsed < full.parsed);
    }
}

#[test]
fn decoys_are_parsed_and_rejected() {
    let text = generate(7, 200, "/tmp/x");
    let fast = read(&text, false).unwrap();
    let decoys = text
        .lines()
        .filter(|l| {
            l.contains("assistant/chunk") && (l.contains("instructions\"") || l.contains("\\u"))
        })
        .count() as u64;
    assert!(decoys > 0);
    // Every marker line was parsed (the decoys among them), yet none became an event.
    let marker_lines = text
        .lines()
        .filter(|l| agentctx::log::MARKERS.iter().any(|m| l.contains(m)))
        .count() as u64;
    assert_eq!(fast.parsed, marker_lines);
}

#[test]
fn binary_diff_gives_the_same_bytes_with_and_without_strict() {
    let tree = common::Tree::new();
    tree.dir("proj/.git")
        .file("proj/AGENTS.md", "root rules\n")
        .file("proj/pkg3/AGENTS.md", "pkg\n");
    let cwd = tree.path("proj");
    let log = tree.path("session.jsonl");
    for seed in [1, 2, 3] {
        std::fs::write(&log, generate(seed, 400, cwd.to_str().unwrap())).unwrap();
        let fast = common::run(
            tree.cmd()
                .args(["diff", "--format", "json", "--log"])
                .arg(&log),
        );
        let full = common::run(
            tree.cmd()
                .args(["diff", "--strict", "--format", "json", "--log"])
                .arg(&log),
        );
        assert_eq!(fast, full, "seed {seed}");
        assert_eq!(fast.2, 0, "seed {seed}: {}", fast.1);
        let json: serde_json::Value = serde_json::from_str(&fast.0).unwrap();
        assert_ne!(
            json["decision"], "none",
            "seed {seed}: the log should lead to a message"
        );
    }
}
