//! Packed storage rows (issue 15). dsh packs a run of three or more
//! consecutive `assistant/chunk` events into one line
//! `{"type":"text-chunks"|"reasoning-chunks"|"tool-call-chunks","seq0":N,"time0":N,"data":{...}}`
//! whose member k has seq `seq0 + k`. The members are the strings of
//! `data.texts` (text and reasoning rows) or `data.args` (tool-call rows),
//! as dsh's session-persistence-jsonl package writes them.
//!
//! Rows are never surface events, so the line scanner treats them like any
//! other non-surface line. When a command needs more (`Needs::packed_rows`),
//! the scanner reads each line that holds [`ROW_NEEDLE`] with [`row`], by its
//! own line classification (issue 21: a line is a row only when its braces
//! enclose it): `explain` counts the events the rows stand for, and
//! `--strict` checks each row's shape (`seq0` a non-negative integer,
//! `time0` an integer, `data` an object). Long lines stream as the scanner
//! streams them; a long one holding the needle is held like a marked line.

use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::value::RawValue;
use std::borrow::Cow;

/// The `type` of each packed row.
pub const ROW_TYPES: [&str; 3] = ["text-chunks", "reasoning-chunks", "tool-call-chunks"];

/// What the packed rows of a log stand for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct PackedCount {
    /// Packed rows read.
    pub rows: u64,
    /// The `assistant/chunk` events they stand for.
    pub events: u64,
    /// Rows whose member array is missing, so their events are not counted.
    pub uncounted: u64,
}

#[derive(Deserialize)]
struct RawRow<'a> {
    #[serde(rename = "type", borrow)]
    kind: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    seq0: Option<&'a RawValue>,
    #[serde(default, borrow)]
    time0: Option<&'a RawValue>,
    #[serde(default, borrow)]
    data: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct RawMembers<'a> {
    #[serde(default, borrow)]
    texts: Option<&'a RawValue>,
    #[serde(default, borrow)]
    args: Option<&'a RawValue>,
}

/// A line read as a packed row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Row {
    /// Not a packed row (or not JSON: the line scanner judges that).
    Not,
    /// A packed row standing for this many events, when its members can be
    /// counted.
    Members(Option<u64>),
    /// A packed row of the wrong shape, and why.
    Misshapen(String),
}

/// Bytes every packed row holds (in its `type`): a line without them is
/// not one, and is not read as one.
pub(crate) const ROW_NEEDLE: &[u8] = b"-chunks\"";

/// Reads one JSONL line, trimmed of JSON whitespace, as a packed row.
pub(crate) fn row(line: &[u8]) -> Row {
    if memchr::memmem::find(line, ROW_NEEDLE).is_none() {
        return Row::Not;
    }
    let Ok(text) = std::str::from_utf8(line) else {
        return Row::Not;
    };
    let Ok(raw) = serde_json::from_str::<RawRow<'_>>(text) else {
        return Row::Not;
    };
    let Some(kind) = raw.kind.filter(|k| ROW_TYPES.contains(&k.as_ref())) else {
        return Row::Not;
    };
    let integer = |v: Option<&RawValue>, signed: bool| {
        v.is_some_and(|v| {
            serde_json::from_str::<u64>(v.get()).is_ok()
                || signed && serde_json::from_str::<i64>(v.get()).is_ok()
        })
    };
    if !integer(raw.seq0, false) {
        return Row::Misshapen(format!("a {kind} row needs seq0, a non-negative integer"));
    }
    if !integer(raw.time0, true) {
        return Row::Misshapen(format!("a {kind} row needs time0, an integer"));
    }
    let Some(data) = raw.data.filter(|d| d.get().starts_with('{')) else {
        return Row::Misshapen(format!("a {kind} row needs data, an object"));
    };
    let members = serde_json::from_str::<RawMembers<'_>>(data.get())
        .ok()
        .and_then(|m| {
            if kind == "tool-call-chunks" {
                m.args
            } else {
                m.texts
            }
        })
        .and_then(|m| serde_json::from_str::<Vec<IgnoredAny>>(m.get()).ok())
        .map(|m| m.len() as u64);
    Row::Members(members)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn rows_count_their_texts_or_args() {
        let text = br#"{"type":"text-chunks","seq0":4,"time0":104,"data":{"turn":1,"dt":[1,1],"texts":["he","l","lo"]}}"#;
        assert_eq!(row(text), Row::Members(Some(3)));
        let tool = br#"{"type":"tool-call-chunks","seq0":7,"time0":-2,"data":{"id":"c","dt":[5,5,5],"args":["{","","","}"]}}"#;
        assert_eq!(row(tool), Row::Members(Some(4)));
        let no_members = br#"{"type":"reasoning-chunks","seq0":1,"time0":1,"data":{}}"#;
        assert_eq!(row(no_members), Row::Members(None));
    }

    #[test]
    fn other_lines_are_not_rows() {
        assert_eq!(row(br#"{"type":"assistant/chunk","seq":1}"#), Row::Not);
        assert_eq!(row(br#"{"type":"x","data":"text-chunks\""}"#), Row::Not);
        assert_eq!(row(br#"{"type":"text-chunks","#), Row::Not);
    }

    #[test]
    fn misshapen_rows_say_which_field() {
        let cases: [(&[u8], &str); 4] = [
            (
                br#"{"type":"text-chunks","seq0":-1,"time0":1,"data":{}}"#,
                "a text-chunks row needs seq0, a non-negative integer",
            ),
            (
                br#"{"type":"text-chunks","seq0":1.5,"time0":1,"data":{}}"#,
                "a text-chunks row needs seq0, a non-negative integer",
            ),
            (
                br#"{"type":"reasoning-chunks","seq0":1,"data":{}}"#,
                "a reasoning-chunks row needs time0, an integer",
            ),
            (
                br#"{"type":"tool-call-chunks","seq0":1,"time0":1,"data":[]}"#,
                "a tool-call-chunks row needs data, an object",
            ),
        ];
        for (line, why) in cases {
            assert_eq!(row(line), Row::Misshapen(why.to_owned()));
        }
    }
}
