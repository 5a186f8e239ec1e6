//! The search for the SPEC 5.1 markers: the bytes whose presence makes a
//! JSONL line worth parsing ([`MARKERS`]).

use crate::log::MARKERS;

/// Finds where the SPEC 5.1 markers occur in a buffer of whole lines.
///
/// One SIMD multi-pattern pass (Teddy, via `aho_corasick::packed`) looks for
/// a distinctive tail of each quoted marker, every hit is completed against
/// the marker's full spelling, and one `memchr` pass finds the backslashes of
/// `\u` and `\/`. That is two passes over the bytes instead of eight.
#[derive(Debug)]
pub(crate) struct MarkerSearch {
    words: Option<aho_corasick::packed::Searcher>,
    /// Whether `"system/message"` and `"request/header"` mark a line (only
    /// when system prompts are needed).
    prompts: bool,
    /// The markers that count, for a line's first and last bytes.
    quick: Vec<memchr::memmem::Finder<'static>>,
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
        let words = aho_corasick::packed::Config::new()
            .builder()
            .extend(TAILS.iter().map(|(tail, _)| tail))
            .build();
        let quick = MARKERS
            .iter()
            .filter(|m| prompts || !matches!(**m, "\"system/message\"" | "\"request/header\""))
            .map(|m| memchr::memmem::Finder::new(m.as_bytes()))
            .collect();
        MarkerSearch {
            words,
            prompts,
            quick,
        }
    }

    /// Fills `out`, ascending, with where markers occur in `hay` (which
    /// starts at a line boundary, so no marker begins before it): at least
    /// one position in every line that holds a marker, and at most one per
    /// line and pass, so a line of a million `\/` costs no memory.
    /// Whether a line's first or last 64 bytes hold a marker (most surface
    /// and user message lines show theirs there: `{"type":"user/message"`,
    /// `"surfaceOp":"append"}`), which spares searching the whole line.
    pub(crate) fn quick_hit(&self, line: &[u8]) -> bool {
        const WINDOW: usize = 64;
        let head = &line[..line.len().min(WINDOW)];
        let tail = &line[line.len().saturating_sub(WINDOW)..];
        self.quick
            .iter()
            .any(|f| f.find(head).is_some() || f.find(tail).is_some())
    }

    /// Whether one line (no newline in it) holds a marker.
    #[cfg(test)]
    fn line_matters(&self, line: &[u8]) -> bool {
        let mut hits = Vec::new();
        self.find(line, &mut hits);
        self.quick_hit(line) || !hits.is_empty()
    }

    pub(crate) fn find(&self, hay: &[u8], out: &mut Vec<usize>) {
        out.clear();
        // Each marked line: where its marker is and where the next line starts.
        let mut marked: Vec<(usize, usize)> = Vec::new();
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
                    if completes(m.start(), m.pattern().as_usize()) {
                        at = next_line(m.start());
                        marked.push((m.start(), at));
                    } else {
                        at = m.start() + 1;
                    }
                }
            }
            None => {
                for (tail, (word, _)) in TAILS.iter().enumerate() {
                    let finder = memchr::memmem::Finder::new(word.as_bytes());
                    let mut at = 0;
                    while let Some(i) = finder.find(&hay[at..]) {
                        if completes(at + i, tail) {
                            let hit = at + i;
                            at = next_line(hit);
                            marked.push((hit, at));
                        } else {
                            at += i + 1;
                        }
                    }
                }
            }
        }
        // Backslashes, in lines not marked already: escapes such as `\n`
        // and `\"` are common in tool output, and each costs a call.
        marked.sort_unstable();
        out.extend(marked.iter().map(|&(hit, _)| hit));
        let mut m = 0;
        let mut at = 0;
        while let Some(i) = memchr::memchr(b'\\', &hay[at..]) {
            let p = at + i;
            while m < marked.len() && marked[m].1 <= p {
                m += 1;
            }
            if let Some(&(hit, end)) = marked.get(m) {
                // The next marked line holds p when no newline lies between.
                if hit <= p || memchr::memchr(b'\n', &hay[p..hit]).is_none() {
                    at = end;
                    continue;
                }
            }
            if matches!(hay.get(p + 1), Some(b'u' | b'/')) {
                out.push(p);
                at = next_line(p);
            } else {
                at = p + 1;
            }
        }
        out.sort_unstable();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use proptest::prelude::*;

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
