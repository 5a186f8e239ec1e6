//! An independent reading of a JSONL log as JavaScript's `JSON.parse` reads
//! it, with `serde_json::Value`: the oracle of the log reader's fuzz target.
//! `None` when it cannot judge (not JSON Lines, nesting beyond serde's
//! recursion limit, a number serde cannot hold); it is only asked about logs
//! the reader accepted, so a rule it finds broken is a disagreement (panic).

use agentctx::log::Log;
use serde_json::Value;

/// What the oracle compares: the surface in order, and each workspace event
/// as (seq, kind, baseline, identity, changes as text).
pub type View = (Vec<u64>, Vec<(u64, String, bool, Option<String>, Vec<String>)>);

pub fn view(log: &Log) -> View {
    let events = log
        .workspace
        .iter()
        .map(|e| {
            let changes = e
                .changes
                .iter()
                .map(|c| {
                    format!(
                        "{:?} {} {} {:?} {:?}",
                        c.action, c.scope, c.path, c.previous_path, c.digest
                    )
                })
                .collect();
            (e.seq, e.kind.clone(), e.baseline, e.identity.clone(), changes)
        })
        .collect();
    (log.surface.to_vec(), events)
}

/// Rewrites lone surrogate escapes to `\ufffd` (serde refuses them;
/// JavaScript reads them and shows U+FFFD).
fn fix_surrogates(raw: &str) -> String {
    let b = raw.as_bytes();
    let hex = |at: usize| {
        raw.get(at..at + 4)
            .filter(|h| h.bytes().all(|c| c.is_ascii_hexdigit()))
            .and_then(|h| u32::from_str_radix(h, 16).ok())
    };
    let mut out = String::with_capacity(raw.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            let ch = raw[i..].chars().next().unwrap_or('\0');
            out.push(ch);
            i += ch.len_utf8();
            continue;
        }
        if b.get(i + 1) != Some(&b'u') {
            out.push_str(&raw[i..(i + 2).min(b.len())]);
            i += 2;
            continue;
        }
        match hex(i + 2) {
            Some(hi @ 0xD800..0xDC00)
                if b.get(i + 6..i + 8) == Some(b"\\u")
                    && hex(i + 8).is_some_and(|lo| (0xDC00..0xE000).contains(&lo)) =>
            {
                let _ = hi;
                out.push_str(&raw[i..i + 12]);
                i += 12;
            }
            Some(0xD800..0xE000) => {
                out.push_str("\\ufffd");
                i += 6;
            }
            _ => {
                out.push_str(&raw[i..(i + 2).min(b.len())]);
                i += 2;
            }
        }
    }
    out
}

/// A JavaScript number that is a non-negative integer seq, as the reader
/// keys it: itself below 2^63, else 2^63 plus its rank among the doubles
/// from 2^63 on (all integers), so that order and equality are the doubles'.
fn seq(v: &Value) -> Option<u64> {
    const RANKED: f64 = 9_223_372_036_854_775_808.0;
    let d = v.as_f64()?;
    if d.fract() != 0.0 || d <= -1.0 || !d.is_finite() {
        return None;
    }
    if d < RANKED {
        return Some(d as u64);
    }
    Some((1 << 63) + (d.to_bits() - RANKED.to_bits()))
}

fn string(v: Option<&Value>) -> Option<String> {
    v?.as_str().map(str::to_owned)
}

fn change(v: &Value) -> Option<String> {
    let o = v.as_object()?;
    let action = match o.get("action")?.as_str()? {
        "set" => "Set",
        "replace" => "Replace",
        "remove" => "Remove",
        _ => return None,
    };
    let opt = |k: &str| match o.get(k) {
        None => Some(None),
        Some(Value::String(s)) => Some(Some(s.clone())),
        Some(_) => None,
    };
    let (previous, digest) = (opt("previousPath")?, opt("digest")?);
    Some(format!(
        "{action} {} {} {previous:?} {digest:?}",
        o.get("scope")?.as_str()?,
        o.get("path")?.as_str()?
    ))
}

/// Reads `data` as JSON Lines; `None` when the oracle cannot judge.
pub fn read(data: &[u8]) -> Option<View> {
    let text = std::str::from_utf8(data).ok()?;
    if text.trim_start().starts_with('[') || !text.ends_with('\n') {
        return None;
    }
    let mut surface: Vec<u64> = Vec::new();
    let mut events = Vec::new();
    let mut records = 0;
    for line in text.split('\n').filter(|l| !l.trim().is_empty()) {
        // serde's recursion limit: the oracle cannot read this line.
        let ev: Value = serde_json::from_str(&fix_surrogates(line)).ok()?;
        let ev = ev.as_object()?;
        records += 1;
        let get = |k: &str| ev.get(k).filter(|v| !v.is_null());
        let kind = string(get("type"));
        if records == 1 && kind.as_deref() == Some("session") {
            continue;
        }
        let broken = |why: &str| -> ! { panic!("the reader accepted {line:?}, which {why}") };
        let seq = get("seq").map(|v| self::seq(v).unwrap_or_else(|| broken("has a bad seq")));
        if let Some(op) = get("surfaceOp") {
            let seq = seq.unwrap_or_else(|| broken("has a surfaceOp and no seq"));
            match op {
                Value::String(s) if s == "append" => {
                    if surface.contains(&seq) {
                        broken("appends a seq already on the surface");
                    }
                    surface.push(seq);
                }
                Value::Object(o) if o.get("op").and_then(Value::as_str) == Some("replace") => {
                    let bound = |k: &str| {
                        o.get(k)
                            .and_then(self::seq)
                            .and_then(|s| surface.iter().position(|&x| x == s))
                            .unwrap_or_else(|| broken("replaces seqs not on the surface"))
                    };
                    let (a, b) = (bound("start"), bound("end"));
                    if a > b {
                        broken("replaces a range that ends before it starts");
                    }
                    surface.splice(a..=b, [seq]);
                    if surface.iter().filter(|&&s| s == seq).count() > 1 {
                        broken("puts a seq on the surface twice");
                    }
                }
                _ => broken("has an unknown surfaceOp"),
            }
        }
        if kind.as_deref() != Some("user/message") {
            continue;
        }
        let Some(source) = get("data")
            .and_then(Value::as_object)
            .and_then(|d| d.get("source"))
            .and_then(Value::as_object)
        else {
            continue;
        };
        // The reader resumes as the current generation: only its kind's
        // events are workspace events (SPEC 5.2); the other's are ignored.
        let Some(kind @ "agent-instructions") = source.get("kind").and_then(Value::as_str) else {
            continue;
        };
        let (Some(Value::Array(changes)), Some(seq)) = (source.get("changes"), seq) else {
            continue;
        };
        events.push((
            seq,
            kind.to_owned(),
            source.get("baseline") == Some(&Value::Bool(true)),
            string(source.get("baselineIdentity")),
            changes.iter().filter_map(change).collect(),
        ));
    }
    Some((surface, events))
}
