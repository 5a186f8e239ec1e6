//! The search for the SPEC 5.1 markers: the bytes whose presence makes a
//! JSONL line worth parsing ([`MARKERS`]).

#[cfg(test)]
use crate::log::MARKERS;
use crate::log::chunk::is_ws;

/// Finds where the SPEC 5.1 markers occur in a buffer of whole lines.
///
/// One SIMD multi-pattern pass (Teddy, via `aho_corasick::packed`) looks for
/// a distinctive tail of each quoted marker, every hit is completed against
/// the marker's full spelling, and one `memchr` pass finds the backslashes of
/// `\u` and `\/`. That is two passes over the bytes instead of eight.
#[derive(Debug)]
pub(crate) struct MarkerSearch {
    words: Option<aho_corasick::packed::Searcher>,
    /// The `TAILS` searched, by the searcher's pattern number.
    tails: Vec<usize>,
    /// Whether `"system/message"` and `"request/header"` mark a line (only
    /// when system prompts are needed).
    prompts: bool,
}

/// Each searched tail and the prefixes that complete it into a marker.
const TAILS: [(&str, &[&str]); 6] = [
    ("urfaceOp\"", &["\"s"]),
    ("/message\"", &["\"user", "\"system"]),
    ("/header\"", &["\"request"]),
    ("tructions\"", &["ins"]),
    ("ssion\"", &["\"se"]),
    ("/selected\"", &["\"agent-preset"]),
];

impl MarkerSearch {
    pub(super) fn new(prompts: bool) -> Self {
        // Only the tails that can complete a marker that counts.
        let tails: Vec<usize> = (0..TAILS.len())
            .filter(|&t| prompts || TAILS[t].0 != "/header\"")
            .collect();
        let words = aho_corasick::packed::Config::new()
            .builder()
            .extend(tails.iter().map(|&t| TAILS[t].0))
            .build();
        MarkerSearch {
            words,
            tails,
            prompts,
        }
    }

    /// Whether a line shows a marker where dsh writes it: a surface line
    /// ends `"surfaceOp":"append"}`, a user message (or, when prompts are
    /// read, a request header or system message) begins
    /// `{"type":"user/message"`. That spares searching the line whole; a
    /// line this says nothing of is searched with the rest.
    pub(crate) fn quick_hit(&self, line: &[u8]) -> bool {
        let end = line.iter().rposition(|b| !is_ws(*b)).map_or(0, |i| i + 1);
        // One byte each says no to most lines before a comparison call:
        // the quote before the last brace, the type's first letter.
        if end >= 2 && line[end - 2] == b'"' && line[..end].ends_with(b"\"surfaceOp\":\"append\"}")
        {
            return true;
        }
        let first = line.get(9).copied();
        if first != Some(b'u') && !(self.prompts && matches!(first, Some(b'r' | b's'))) {
            return false;
        }
        let Some(kind) = line.strip_prefix(b"{\"type\":\"") else {
            return false;
        };
        kind.starts_with(b"user/message\"")
            || (self.prompts
                && (kind.starts_with(b"request/header\"") || kind.starts_with(b"system/message\"")))
    }

    /// Whether one line (no newline in it) holds a marker.
    #[cfg(test)]
    fn line_matters(&self, line: &[u8]) -> bool {
        let mut hits = Vec::new();
        self.find(line, &mut hits);
        self.quick_hit(line) || !hits.is_empty()
    }

    /// Fills `out`, ascending, with where markers occur in `hay` (which
    /// starts at a line boundary, so no marker begins before it): at least
    /// one position in every line that holds a marker, and at most one per
    /// line and pass, so a line of a million `\/` costs no memory.
    pub(crate) fn find(&self, hay: &[u8], out: &mut Vec<usize>) {
        out.clear();
        let next_line =
            |from: usize| memchr::memchr(b'\n', &hay[from..]).map_or(hay.len(), |i| from + i + 1);
        let completes = |at: usize, tail: usize| {
            let before = &hay[..at];
            TAILS[tail].1.iter().any(|p| {
                (self.prompts || !matches!(*p, "\"system" | "\"request"))
                    && before.ends_with(p.as_bytes())
            })
        };
        match &self.words {
            // The tails cannot overlap one another, so searching on from
            // one byte past a hit misses none.
            Some(words) => {
                let mut at = 0;
                while let Some(m) = words.find_in(hay, aho_corasick::Span::from(at..hay.len())) {
                    if completes(m.start(), self.tails[m.pattern().as_usize()]) {
                        out.push(m.start());
                        at = next_line(m.start());
                    } else {
                        at = m.start() + 1;
                    }
                }
            }
            None => {
                for &tail in &self.tails {
                    let finder = memchr::memmem::Finder::new(TAILS[tail].0.as_bytes());
                    let mut at = 0;
                    while let Some(i) = finder.find(&hay[at..]) {
                        if completes(at + i, tail) {
                            out.push(at + i);
                            at = next_line(at + i);
                        } else {
                            at += i + 1;
                        }
                    }
                }
            }
        }
        // The escape markers, one position per line: every backslash is
        // looked at (a true hit skips to the next line). One pass that stops
        // at each backslash costs less than a two-byte search per escape
        // (two passes) on logs with few backslashes, and about as much on
        // tool output full of `\n` and `\"` (issue 28, callgrind).
        let mut at = 0;
        'lines: while at < hay.len() {
            for i in memchr::memchr_iter(b'\\', &hay[at..]) {
                let p = at + i;
                if let Some(b'u' | b'/') = hay.get(p + 1) {
                    out.push(p);
                    at = next_line(p);
                    continue 'lines;
                }
            }
            break;
        }
        out.sort_unstable();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use proptest::prelude::*;

    /// The quick look says yes only for a line that holds a marker, and
    /// for the shapes dsh writes.
    #[test]
    fn the_quick_look_sees_what_dsh_writes_and_nothing_else() {
        let diff = MarkerSearch::new(false);
        let explain = MarkerSearch::new(true);
        for (line, for_diff, for_explain) in [
            (
                r#"{"type":"tool/result","data":{},"surfaceOp":"append"}"#,
                true,
                true,
            ),
            ("{\"type\":\"x\",\"surfaceOp\":\"append\"} \r", true, true),
            (r#"{"type":"user/message","seq":1}"#, true, true),
            (r#"{"type":"request/header","seq":1}"#, false, true),
            (r#"{"type":"system/message","seq":1}"#, false, true),
            (r#"{"type":"user/messages","seq":1}"#, false, false),
            (r#"{"type":"x","surfaceOp":"append" }"#, false, false),
            (r#"{"type":"x","surfaceOp":"appendix"}"#, false, false),
            (r#" {"type":"user/message"}"#, false, false),
            (
                r#"{"type":"assistant/chunk","data":{"text":"surfaceOp"}}"#,
                false,
                false,
            ),
        ] {
            assert_eq!(diff.quick_hit(line.as_bytes()), for_diff, "{line}");
            assert_eq!(explain.quick_hit(line.as_bytes()), for_explain, "{line}");
            if for_explain {
                assert!(MARKERS.iter().any(|m| line.contains(m)), "{line}");
            }
        }
    }

    proptest! {
        /// The grouped search marks exactly the lines that contain a marker.
        #[test]
        fn marker_search_finds_exactly_the_marker_lines(
            lines in proptest::collection::vec(
                proptest::collection::vec(
                    prop_oneof![
                        proptest::sample::select(MARKERS.to_vec()),
                        proptest::sample::select(vec![
                            "\\", "u", "/", "\"", "s", "i", "urfaceOp\"", "/message\"", "session\"", "ssion\"", "tructions\"",
                            "instructions\"", "/header\"", "user", "system", "request", "x y",
                            "/selected\"", "\"agent-preset", "agent-preset/selected",
                        ]),
                    ],
                    0..8,
                ).prop_map(|parts| parts.concat()),
                1..12,
            ),
            pad in 0usize..2,
        ) {
            // pad > 0 makes the buffer large (Teddy scans in blocks).
            let filler = "z".repeat(70_000 * pad);
            let mut all = lines.clone();
            all.push(filler);
            let text = all.join("\n");
            let mut hits = Vec::new();
            let search = MarkerSearch::new(true);
            search.find(text.as_bytes(), &mut hits);
            for line in &all {
                let want = MARKERS.iter().any(|m| line.contains(m));
                prop_assert_eq!(search.line_matters(line.as_bytes()), want, "line {:?}", line);
            }
            let mut start = 0;
            for line in &all {
                let end = start + line.len();
                let found = hits.iter().any(|&h| h >= start && h < end);
                let want = MARKERS.iter().any(|m| line.contains(m));
                prop_assert_eq!(found, want, "line {:?}", line);
                start = end + 1;
            }
            prop_assert!(hits.windows(2).all(|w| w[0] <= w[1]));
        }
    }
}
