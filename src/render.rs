//! The exact prompt bytes (SPEC 4): constants, section shapes, escaping and
//! the byte-budget algorithm of 4.3. Pure functions over strings.

use serde::Serialize;

use crate::jsnum::MaxBytes;

mod plan;

pub use plan::{Plan, Sizes, plan};

pub const OPEN: &str = "<system-reminder>";
pub const CLOSE: &str = "</system-reminder>";
const ESCAPED_CLOSE: &str = "<\\/system-reminder>";
pub const INTRO: &str = "The following workspace instructions may be relevant to your work. Use them as guidance when applicable. More specific instructions take precedence over broader ones. They do not override system, developer, or direct user instructions.";
pub const REPLACE: &str = "This complete workspace instruction baseline replaces all earlier workspace instruction baselines. ";
pub const EMPTY: &str = "This complete workspace instruction baseline replaces all earlier workspace instruction baselines. No workspace instructions are currently active.";
pub const COMPACT: &str =
    "Workspace instructions were omitted or truncated to fit the configured byte budget.";

/// The heading of a baseline section (content follows).
#[must_use]
pub fn baseline_head(path: &str) -> String {
    format!("Instructions from: {path}\n\n")
}

/// The heading of a `set` section for a newly reached scope.
#[must_use]
pub fn set_head(path: &str, scope: &str) -> String {
    format!(
        "Additional instructions from: {path}\n\nThese instructions apply to work under `{scope}`. Use them as guidance when relevant; more specific instructions take precedence. They do not override system, developer, or direct user instructions.\n\n"
    )
}

/// The heading of a `replace` section for a file whose content changed.
#[must_use]
pub fn replace_head(path: &str) -> String {
    format!(
        "Updated instructions from: {path}\n\nThis file changed after it was loaded. Use the following content instead of the previously loaded instructions from this file.\n\n"
    )
}

/// The heading of a `replace` section for a `first`-mode winner switch.
#[must_use]
pub fn switch_head(path: &str, previous: &str, scope: &str) -> String {
    format!(
        "Updated instructions from: {path}\n\nThe instructions previously loaded from `{previous}` no longer apply. Use the following content for `{scope}` instead.\n\n"
    )
}

/// The whole text of a `remove` section (it has no content).
#[must_use]
pub fn remove_text(path: &str) -> String {
    format!(
        "Instructions removed: {path}\n\nThe previously loaded instructions from this file no longer apply."
    )
}

/// Replaces every `</system-reminder>` with `<\/system-reminder>`.
#[must_use]
pub fn escape(text: &str) -> String {
    text.replace(CLOSE, ESCAPED_CLOSE)
}

/// One section to render: a heading and content, with the path the budget
/// notice names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item<'a> {
    pub path: &'a str,
    pub head: String,
    pub content: &'a str,
}

/// A file the budget cut, as the notice and the JSON report it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Truncation {
    pub path: String,
    pub original_bytes: usize,
    pub included_bytes: usize,
}

/// Which step of 4.3 produced the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Step {
    /// max <= 0, or nothing to render.
    Disabled,
    /// Everything fit.
    Whole,
    /// The broadest files were omitted.
    Suffix,
    /// The last file was truncated under the normal intro.
    Truncated,
    /// The last file was truncated under the compact intro.
    Compact,
    /// No frame fits: a bare notice.
    Frameless,
}

/// What the budget let through.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fit {
    /// The message text, or `None` when nothing is sent.
    pub text: Option<String>,
    pub omitted: Vec<String>,
    pub truncated: Option<Truncation>,
    /// Per item: whether it counts as represented (SPEC 4.3, last paragraph).
    pub represented: Vec<bool>,
    pub step: Step,
}

impl Fit {
    fn nothing(n: usize) -> Self {
        Fit {
            text: None,
            omitted: Vec::new(),
            truncated: None,
            represented: vec![false; n],
            step: Step::Disabled,
        }
    }

    #[must_use]
    pub fn is_cut(&self) -> bool {
        !self.omitted.is_empty() || self.truncated.is_some()
    }

    pub fn bytes(&self) -> usize {
        self.text.as_ref().map_or(0, String::len)
    }
}

/// The budget notice (only when something was omitted or truncated).
#[must_use]
pub fn notice(max: MaxBytes, omitted: &[&str], truncated: Option<&Truncation>) -> String {
    let mut parts = Vec::new();
    if !omitted.is_empty() {
        parts.push(format!("omitted {}", omitted.join(", ")));
    }
    if let Some(t) = truncated {
        parts.push(format!(
            "truncated {} from {} to {} bytes",
            t.path, t.original_bytes, t.included_bytes
        ));
    }
    if parts.is_empty() {
        return String::new();
    }
    format!(
        "Workspace instruction budget {max} bytes: {}",
        parts.join("; ")
    )
}

/// SPEC 4.2: blocks (notice, intro, sections) joined by a blank line,
/// escaped, framed.
pub fn build<'s>(
    notice: &str,
    intro: &str,
    sections: impl IntoIterator<Item = (&'s str, &'s str)>,
) -> String {
    let mut body = String::new();
    let push = |block: &str, body: &mut String| {
        if !body.is_empty() {
            body.push_str("\n\n");
        }
        body.push_str(block);
    };
    for block in [notice, intro] {
        if !block.is_empty() {
            push(block, &mut body);
        }
    }
    for (head, content) in sections {
        let mut section = String::with_capacity(head.len() + content.len());
        section.push_str(head);
        section.push_str(content);
        push(&section, &mut body);
    }
    format!("{OPEN}\n{}\n{CLOSE}", escape(&body))
}

/// The longest prefix of `text` of at most `max` bytes ending on a char boundary.
#[must_use]
pub fn cut(text: &str, max: usize) -> &str {
    if max >= text.len() {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

fn sections<'s>(items: &'s [Item<'_>]) -> impl Iterator<Item = (&'s str, &'s str)> {
    items.iter().map(|i| (i.head.as_str(), i.content))
}

/// SPEC 4.3: fits `items` (broadest first) into `max` bytes with `intro`,
/// falling back to `fallback_intro` when truncating.
#[must_use]
pub fn fit(items: &[Item<'_>], intro: &str, fallback_intro: &str, max: MaxBytes) -> Fit {
    let n = items.len();
    // 1. Disabled (<= 0, NaN, infinite), or nothing to say. A fractional
    // budget admits its integer part: byte counts are whole.
    let Some(limit) = max.limit() else {
        return Fit::nothing(n);
    };
    if limit == 0 || n == 0 {
        return Fit::nothing(n);
    }
    // 2. Everything fits.
    let whole = build("", intro, sections(items));
    if whole.len() <= limit {
        return Fit {
            text: Some(whole),
            omitted: Vec::new(),
            truncated: None,
            represented: vec![true; n],
            step: Step::Whole,
        };
    }
    let paths: Vec<&str> = items.iter().map(|i| i.path).collect();
    // 3. Omit the broadest files, one more each time. The size of each
    // candidate text is counted, not built: linear in the items.
    if let Some(k) = first_fitting_suffix(items, intro, max, limit) {
        let text = build(
            &notice(max, &paths[..k], None),
            intro,
            sections(&items[k..]),
        );
        debug_assert!(text.len() <= limit);
        let mut represented = vec![false; k];
        represented.resize(n, true);
        return Fit {
            text: Some(text),
            omitted: own(&paths[..k]),
            truncated: None,
            represented,
            step: Step::Suffix,
        };
    }
    // 4. Only the last file, truncated by binary search, under each intro.
    if let Some(fit) = truncate_last(items, [intro, fallback_intro], max, limit) {
        return fit;
    }
    // 5. No frame fits: the notice, with the section heading if it fits.
    frameless(items, max, limit)
}

/// Step 4 of [`fit`]: every file but the last omitted, the last truncated
/// to the longest prefix that fits, under the intro and then the fallback.
fn truncate_last(
    items: &[Item<'_>],
    intros: [&str; 2],
    max: MaxBytes,
    limit: usize,
) -> Option<Fit> {
    let n = items.len();
    let paths: Vec<&str> = items.iter().map(|i| i.path).collect();
    let last = &items[n - 1];
    let omitted = &paths[..n - 1];
    let mut represented = vec![false; n];
    for (intro, step) in intros.into_iter().zip([Step::Truncated, Step::Compact]) {
        let attempt = |len: usize| {
            let content = cut(last.content, len);
            let record = Truncation {
                path: last.path.to_owned(),
                original_bytes: last.content.len(),
                included_bytes: content.len(),
            };
            let text = build(
                &notice(max, omitted, Some(&record)),
                intro,
                [(last.head.as_str(), content)],
            );
            (text, record)
        };
        let best = longest_cut(last.content, |len| attempt(len).0.len() <= limit);
        let (text, record) = attempt(best);
        if text.len() <= limit {
            represented[n - 1] = record.included_bytes > 0 || last.content.is_empty();
            return Some(Fit {
                text: Some(text),
                omitted: own(omitted),
                truncated: Some(record),
                represented,
                step,
            });
        }
    }
    None
}

/// Step 4's binary search (SPEC 4.3): lo=0, hi=the content's bytes; the
/// longest cut of `content` (backed up to a char boundary) whose message
/// `fits`, or 0. `fit` builds each try, `plan` counts it.
fn longest_cut(content: &str, fits: impl Fn(usize) -> bool) -> usize {
    let (mut lo, mut hi, mut best) = (0usize, content.len(), 0usize);
    while lo <= hi {
        let mid = lo + (hi - lo) / 2;
        if fits(mid) {
            best = cut(content, mid).len();
            lo = mid + 1;
        } else if mid == 0 {
            break;
        } else {
            hi = mid - 1;
        }
    }
    best
}

/// Step 5 of [`fit`]: no frame fits, so the notice alone (with the last
/// file's heading when that fits), cut to `limit` at worst.
fn frameless(items: &[Item<'_>], max: MaxBytes, limit: usize) -> Fit {
    let n = items.len();
    let paths: Vec<&str> = items.iter().map(|i| i.path).collect();
    let last = &items[n - 1];
    let omitted = &paths[..n - 1];
    let mut represented = vec![false; n];
    let record = Truncation {
        path: last.path.to_owned(),
        original_bytes: last.content.len(),
        included_bytes: 0,
    };
    let bare = escape(&notice(max, omitted, Some(&record)));
    let with_head = escape(&format!(
        "{}\n\n{}",
        notice(max, omitted, Some(&record)),
        last.head
    ));
    let text = if with_head.len() <= limit {
        represented[n - 1] = last.content.is_empty();
        with_head
    } else if bare.len() <= limit {
        bare
    } else {
        cut(&bare, limit).to_owned()
    };
    Fit {
        text: Some(text),
        omitted: own(omitted),
        truncated: Some(record),
        represented,
        step: Step::Frameless,
    }
}

/// The length of `text` once escaped (each `</system-reminder>` gains one
/// byte). A closing tag never spans two blocks, nor two paths of the notice:
/// the separators (`\n\n`, `, `) are not part of it, so lengths add up.
fn escaped_len(text: &str) -> usize {
    text.len() + text.matches(CLOSE).count() * (ESCAPED_CLOSE.len() - CLOSE.len())
}

/// Step 3's answer: the smallest k in 1..n whose text (the first k items
/// omitted) fits, found by adding up block sizes instead of building texts.
fn first_fitting_suffix(
    items: &[Item<'_>],
    intro: &str,
    max: MaxBytes,
    limit: usize,
) -> Option<usize> {
    let frame = OPEN.len() + 1 + 1 + CLOSE.len();
    let sections: Vec<usize> = items
        .iter()
        .map(|i| escaped_len(&i.head) + escaped_len(i.content))
        .collect();
    let intro_block = if intro.is_empty() {
        0
    } else {
        escaped_len(intro) + 2
    };
    // Sections k..n, each after a blank line (the notice always precedes).
    let mut tail: usize = sections.iter().map(|s| s + 2).sum();
    let mut notice = notice(max, &[items[0].path], None).len() - items[0].path.len();
    for (k, item) in items.iter().enumerate().take(items.len() - 1) {
        notice += escaped_len(item.path) + if k > 0 { 2 } else { 0 };
        tail -= sections[k] + 2;
        if frame + notice + intro_block + tail <= limit {
            return Some(k + 1);
        }
    }
    None
}

fn own(paths: &[&str]) -> Vec<String> {
    paths.iter().map(|p| (*p).to_owned()).collect()
}

/// The length of `text` once escaped, for callers that sum sizes.
#[must_use]
pub fn escaped_bytes(text: &str) -> usize {
    escaped_len(text)
}

/// The EMPTY replacement message, when it fits.
#[must_use]
pub fn empty_replacement(max: MaxBytes) -> Option<String> {
    let text = format!("{OPEN}\n{EMPTY}\n{CLOSE}");
    let limit = max.limit().filter(|m| *m > 0)?;
    (text.len() <= limit).then_some(text)
}

#[cfg(test)]
// Sizes in the property checks are small: exact as floats.
#[allow(clippy::cast_precision_loss)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;
    use proptest::prelude::*;

    fn item<'a>(path: &'a str, content: &'a str) -> Item<'a> {
        Item {
            path,
            head: baseline_head(path),
            content,
        }
    }

    fn frame(body: &str) -> String {
        format!("<system-reminder>\n{body}\n</system-reminder>")
    }

    #[test]
    fn constants_are_exact() {
        assert_eq!(
            EMPTY,
            format!("{REPLACE}No workspace instructions are currently active.")
        );
        assert!(REPLACE.ends_with(". "));
    }

    #[test]
    fn nonpositive_budget_renders_nothing() {
        let items = [item("A", "x")];
        assert_eq!(fit(&items, INTRO, COMPACT, MaxBytes(0.0)).text, None);
        assert_eq!(fit(&items, INTRO, COMPACT, MaxBytes(-1.0)).text, None);
        assert_eq!(fit(&[], INTRO, COMPACT, MaxBytes(100.0)).text, None);
    }

    #[test]
    fn whole_text_when_everything_fits() {
        let items = [item("A", "a\n"), item("b/A", "b")];
        let got = fit(&items, INTRO, COMPACT, MaxBytes(10_000.0));
        assert_eq!(
            got.text.unwrap(),
            frame(&format!(
                "{INTRO}\n\nInstructions from: A\n\na\n\n\nInstructions from: b/A\n\nb"
            ))
        );
        assert_eq!(got.step, Step::Whole);
        assert_eq!(got.represented, vec![true, true]);
    }

    #[test]
    fn suffix_omission_drops_broadest_first() {
        let big = "x".repeat(300);
        let items = [item("A", &big), item("B", &big), item("C", "c")];
        let want = frame(&format!(
            "Workspace instruction budget 700 bytes: omitted A\n\n{INTRO}\n\nInstructions from: B\n\n{big}\n\nInstructions from: C\n\nc"
        ));
        let got = fit(&items, INTRO, COMPACT, MaxBytes(700.0));
        assert_eq!(got.text.as_deref(), Some(want.as_str()));
        assert_eq!(got.omitted, vec!["A".to_owned()]);
        assert_eq!(got.represented, vec![false, true, true]);
        assert_eq!(got.step, Step::Suffix);
    }

    #[test]
    fn truncation_with_normal_intro_is_the_longest_fit() {
        let body = "y".repeat(1000);
        let items = [item("A", "a"), item("B", &body)];
        let got = fit(&items, INTRO, COMPACT, MaxBytes(500.0));
        let t = got.truncated.clone().unwrap();
        let text = got.text.clone().unwrap();
        assert_eq!(got.step, Step::Truncated);
        assert_eq!(
            text,
            frame(&format!(
                "Workspace instruction budget 500 bytes: omitted A; truncated B from 1000 to {n} bytes\n\n{INTRO}\n\nInstructions from: B\n\n{}",
                "y".repeat(t.included_bytes),
                n = t.included_bytes
            ))
        );
        assert!(text.len() <= 500);
        // One more byte of content would not fit: the search found the longest cut.
        let longer = build(
            &notice(
                MaxBytes(500.0),
                &["A"],
                Some(&Truncation {
                    included_bytes: t.included_bytes + 1,
                    ..t.clone()
                }),
            ),
            INTRO,
            [(items[1].head.as_str(), &body[..=t.included_bytes])],
        );
        assert!(longer.len() > 500);
        assert_eq!(got.represented, vec![false, true]);
    }

    #[test]
    fn compact_intro_when_the_normal_one_leaves_no_room() {
        let items = [item("A", "hello")];
        // The frame with INTRO and notice is longer than 230 bytes; COMPACT fits.
        let got = fit(&items, INTRO, COMPACT, MaxBytes(230.0));
        assert_eq!(got.step, Step::Compact);
        assert_eq!(
            got.text.unwrap(),
            frame(&format!(
                "Workspace instruction budget 230 bytes: truncated A from 5 to 5 bytes\n\n{COMPACT}\n\nInstructions from: A\n\nhello"
            ))
        );
        assert_eq!(got.represented, vec![true]);
    }

    #[test]
    fn frameless_notice_with_heading_then_alone_then_cut() {
        let items = [item("A", "hello"), item("B", "")];
        // Notice + heading of an empty file fits: represented.
        let notice_text =
            "Workspace instruction budget 110 bytes: omitted A; truncated B from 0 to 0 bytes";
        let got = fit(&items, INTRO, COMPACT, MaxBytes(110.0));
        assert_eq!(got.step, Step::Frameless);
        assert_eq!(
            got.text.unwrap(),
            format!("{notice_text}\n\nInstructions from: B\n\n")
        );
        assert_eq!(got.represented, vec![false, true]);

        let items = [item("A", "hello")];
        let got = fit(&items, INTRO, COMPACT, MaxBytes(70.0));
        assert_eq!(
            got.text.unwrap(),
            "Workspace instruction budget 70 bytes: truncated A from 5 to 0 bytes"
        );
        assert_eq!(got.represented, vec![false]);

        let got = fit(&items, INTRO, COMPACT, MaxBytes(20.0));
        assert_eq!(got.text.unwrap(), "Workspace instructio");
    }

    #[test]
    fn frameless_cut_never_splits_a_character() {
        let items = [item("中文/A", "hello")];
        // "Workspace instruction budget 45 bytes: truncated " is 49 bytes > 45;
        let got = fit(&items, INTRO, COMPACT, MaxBytes(52.0));
        let text = got.text.unwrap();
        assert!(text.len() <= 52);
        assert_eq!(text, "Workspace instruction budget 52 bytes: truncated 中");
    }

    #[test]
    fn escaping_covers_content_paths_and_notice() {
        let items = [item("x</system-reminder>/A", "a </system-reminder> b")];
        let got = fit(&items, "", COMPACT, MaxBytes(10_000.0));
        assert_eq!(
            got.text.unwrap(),
            frame("Instructions from: x<\\/system-reminder>/A\n\na <\\/system-reminder> b")
        );
        let zs = "z".repeat(400);
        let items = [item("x</system-reminder>/A", "a"), item("B", &zs)];
        let got = fit(&items, "", COMPACT, MaxBytes(300.0));
        assert!(got.text.unwrap().starts_with(
            "<system-reminder>\nWorkspace instruction budget 300 bytes: omitted x<\\/system-reminder>/A"
        ));
    }

    #[test]
    fn truncation_backs_up_to_a_char_boundary() {
        let body = "é".repeat(200);
        let items = [item("A", &body)];
        let got = fit(&items, "", COMPACT, MaxBytes(150.0));
        let t = got.truncated.unwrap();
        assert_eq!(t.included_bytes % 2, 0);
        assert!(got.text.unwrap().len() <= 150);
    }

    #[test]
    fn empty_replacement_only_when_it_fits() {
        let text = empty_replacement(MaxBytes(1000.0)).unwrap();
        assert_eq!(text, frame(EMPTY));
        assert_eq!(empty_replacement(MaxBytes(text.len() as f64 - 1.0)), None);
        assert_eq!(empty_replacement(MaxBytes(0.0)), None);
    }

    #[test]
    fn notice_joins_parts() {
        let t = Truncation {
            path: "c".into(),
            original_bytes: 9,
            included_bytes: 3,
        };
        assert_eq!(
            notice(MaxBytes(5.0), &["a", "b"], Some(&t)),
            "Workspace instruction budget 5 bytes: omitted a, b; truncated c from 9 to 3 bytes"
        );
        assert_eq!(notice(MaxBytes(5.0), &[], None), "");
    }

    proptest! {
        /// Step 3 counted equals step 3 built: the first k whose text fits.
        #[test]
        fn counted_suffix_search_equals_the_built_one(
            contents in proptest::collection::vec("(?s).{0,60}|</system-reminder>x</system-reminder>", 1..6),
            intro in prop_oneof![Just(""), Just(INTRO)],
            max in 1i64..900,
        ) {
            let paths: Vec<String> = (0..contents.len()).map(|i| format!("d{i}/</system-reminder>")).collect();
            let items: Vec<Item<'_>> = paths.iter().zip(&contents).map(|(p, c)| item(p, c)).collect();
            let refs: Vec<&str> = paths.iter().map(String::as_str).collect();
            let limit = usize::try_from(max).unwrap();
            let max = MaxBytes(max as f64);
            let built = (1..items.len()).find(|&k| {
                build(&notice(max, &refs[..k], None), intro, sections(&items[k..])).len() <= limit
            });
            prop_assert_eq!(first_fitting_suffix(&items, intro, max, limit), built);
        }

        /// The plan from sizes decides what the built fit decides, byte for byte.
        #[test]
        fn the_plan_from_sizes_agrees_with_the_fit(
            contents in proptest::collection::vec("(?s).{0,80}|</system-reminder>|ééé", 0..7),
            intro in prop_oneof![Just(""), Just(INTRO)],
            max in -5.0f64..900.0,
        ) {
            let paths: Vec<String> = (0..contents.len()).map(|i| format!("d{i}/é</system-reminder>")).collect();
            let items: Vec<Item<'_>> = paths.iter().zip(&contents).map(|(p, c)| item(p, c)).collect();
            let got = fit(&items, intro, COMPACT, MaxBytes(max));
            let planned = plan(&items[..], intro, COMPACT, MaxBytes(max));
            let whole = if items.is_empty() { 0 } else { build("", intro, sections(&items)).len() };
            let want = Plan {
                step: got.step,
                omitted: got.omitted.len(),
                truncated: got.truncated.as_ref().map(|t| (t.original_bytes, t.included_bytes)),
                bytes: got.bytes(),
                whole,
                last_represented: got.represented.last().copied().unwrap_or(false),
            };
            prop_assert_eq!(planned, want);
        }

        #[test]
        fn rendered_bytes_never_exceed_max(
            contents in proptest::collection::vec("(?s).{0,80}|</system-reminder>", 0..5),
            max in -5.0f64..700.0,
        ) {
            let paths: Vec<String> = (0..contents.len()).map(|i| format!("d{i}/é</system-reminder>")).collect();
            let items: Vec<Item<'_>> = paths.iter().zip(&contents).map(|(p, c)| item(p, c)).collect();
            let got = fit(&items, INTRO, COMPACT, MaxBytes(max));
            if let Some(text) = &got.text {
                prop_assert!(text.len() as f64 <= max);
                if text.starts_with(OPEN) {
                    let inner = &text[OPEN.len()..text.len() - CLOSE.len()];
                    prop_assert!(!inner.contains(CLOSE));
                }
            }
        }
    }
}
