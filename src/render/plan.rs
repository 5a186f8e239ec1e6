//! [`fit`](super::fit)'s decision by arithmetic on sizes, for callers that
//! hold each file's size and need no text (check's budget over many files).

use crate::jsnum::MaxBytes;

use super::{CLOSE, Item, OPEN, Step, Truncation, cut, escape, escaped_len, longest_cut, notice};

/// What [`plan`] reads of a baseline's items (broadest first), so that a
/// caller holding sizes computed once per file need not build any text.
/// Every item's heading must be [`baseline_head`] of its path (then each
/// omitted file makes the candidate text strictly shorter).
pub trait Sizes {
    /// How many items.
    fn count(&self) -> usize;
    /// Escaped bytes of the first `k` items: (heading and content, path).
    fn prefix(&self, k: usize) -> (usize, usize);
    /// Item `i`.
    fn item(&self, i: usize) -> Item<'_>;
}

/// What [`fit`] decides, without its text: the same step, omitted count,
/// cut and byte count (`bytes` is the length of `fit`'s text).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plan {
    pub step: Step,
    /// The first `omitted` items are omitted.
    pub omitted: usize,
    /// The last item's original and included bytes, when it is cut.
    pub truncated: Option<(usize, usize)>,
    pub bytes: usize,
    /// Bytes of the whole baseline (`build` of every item; 0 for none).
    pub whole: usize,
    /// Whether the last item counts as represented.
    pub last_represented: bool,
}

/// [`fit`] by arithmetic on sizes: O(log n) prefix look-ups, a binary search
/// over the last item's content, and at most `max` bytes built when the bare
/// notice must be cut. Agrees with `fit` (a property test pins it).
#[must_use]
pub fn plan(
    items: &(impl Sizes + ?Sized),
    intro: &str,
    fallback_intro: &str,
    max: MaxBytes,
) -> Plan {
    let n = items.count();
    let (all, _) = items.prefix(n);
    let whole = if n == 0 {
        0
    } else {
        FRAME + intro_block(intro) + all + 2 * n - 2
    };
    let nothing = Plan {
        step: Step::Disabled,
        omitted: 0,
        truncated: None,
        bytes: 0,
        whole,
        last_represented: false,
    };
    let Some(limit) = max.limit() else {
        return nothing;
    };
    if limit == 0 || n == 0 {
        return nothing;
    }
    if whole <= limit {
        return Plan {
            step: Step::Whole,
            bytes: whole,
            last_represented: true,
            ..nothing
        };
    }
    if let Some((omitted, bytes)) = smallest_suffix(items, intro, max, limit) {
        return Plan {
            step: Step::Suffix,
            omitted,
            bytes,
            last_represented: true,
            ..nothing
        };
    }
    // 4. and 5.: every item but the last omitted, the last cut.
    let last = items.item(n - 1);
    let original = last.content.len();
    let notice_len = |included: usize| last_notice_len(items, max, included);
    let head = escaped_len(&last.head);
    if let Some((step, bytes, included)) = cut_last(items, [intro, fallback_intro], limit, max) {
        return Plan {
            step,
            omitted: n - 1,
            truncated: Some((original, included)),
            bytes,
            whole,
            last_represented: included > 0 || last.content.is_empty(),
        };
    }
    let bare = notice_len(0);
    let with_head = bare + 2 + head;
    let (bytes, last_represented) = if with_head <= limit {
        (with_head, last.content.is_empty())
    } else if bare <= limit {
        (bare, false)
    } else {
        (bare_prefix(items, max, original, limit).len(), false)
    };
    Plan {
        step: Step::Frameless,
        omitted: n - 1,
        truncated: Some((original, 0)),
        bytes,
        whole,
        last_represented,
    }
}

/// Step 5's bare notice, escaped and cut to `limit` bytes, built piece by
/// piece only as far as `limit` reaches.
fn bare_prefix(
    items: &(impl Sizes + ?Sized),
    max: MaxBytes,
    original: usize,
    limit: usize,
) -> String {
    let n = items.count();
    let mut text = String::new();
    let push = |piece: &str, text: &mut String| {
        text.push_str(&escape(piece));
        text.len() > limit
    };
    let opening = format!("Workspace instruction budget {max} bytes: ");
    let mut full = push(&opening, &mut text);
    if n > 1 && !full {
        full = push("omitted ", &mut text);
        for i in 0..n - 1 {
            if full {
                break;
            }
            if i > 0 {
                full = push(", ", &mut text);
            }
            full = full || push(items.item(i).path, &mut text);
        }
        full = full || push("; ", &mut text);
    }
    if !full {
        let last = items.item(n - 1);
        full = push("truncated ", &mut text) || push(last.path, &mut text);
        if !full {
            push(&format!(" from {original} to 0 bytes"), &mut text);
        }
    }
    cut(&text, limit).to_owned()
}

/// Items in a slice, their sizes summed on each call (for tests and small
/// callers).
impl Sizes for [Item<'_>] {
    fn count(&self) -> usize {
        self.len()
    }

    fn prefix(&self, k: usize) -> (usize, usize) {
        self[..k].iter().fold((0, 0), |(s, p), i| {
            (
                s + escaped_len(&i.head) + escaped_len(i.content),
                p + escaped_len(i.path),
            )
        })
    }

    fn item(&self, i: usize) -> Item<'_> {
        self[i].clone()
    }
}

/// The frame's own bytes: the open tag, two line breaks, the close tag.
const FRAME: usize = OPEN.len() + 1 + 1 + CLOSE.len();

/// The bytes an intro adds (with its blank line), none when it is empty.
fn intro_block(intro: &str) -> usize {
    if intro.is_empty() {
        0
    } else {
        escaped_len(intro) + 2
    }
}

/// Step 3: the text with the first k items omitted shrinks as k grows, so
/// the smallest fitting k by binary search: (k, bytes), when any fits.
fn smallest_suffix(
    items: &(impl Sizes + ?Sized),
    intro: &str,
    max: MaxBytes,
    limit: usize,
) -> Option<(usize, usize)> {
    let n = items.count();
    let (all, _) = items.prefix(n);
    let omitted_head = notice(max, &[""], None).len();
    let suffix_len = |k: usize| {
        let (sections, paths) = items.prefix(k);
        FRAME
            + omitted_head
            + paths
            + 2 * (k - 1)
            + intro_block(intro)
            + (all - sections)
            + 2 * (n - k)
    };
    if n < 2 || suffix_len(n - 1) > limit {
        return None;
    }
    let (mut lo, mut hi) = (1, n - 1);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if suffix_len(mid) <= limit {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    Some((lo, suffix_len(lo)))
}

/// Bytes of the notice when every item but the last is omitted and the
/// last keeps `included` bytes (its path included).
fn last_notice_len(items: &(impl Sizes + ?Sized), max: MaxBytes, included: usize) -> usize {
    let n = items.count();
    let last = items.item(n - 1);
    let (_, paths) = items.prefix(n - 1);
    let omitted_list = if n > 1 {
        "omitted ".len() + paths + 2 * (n - 2) + "; ".len()
    } else {
        0
    };
    let record = Truncation {
        path: String::new(),
        original_bytes: last.content.len(),
        included_bytes: included,
    };
    notice(max, &[], Some(&record)).len() + escaped_len(last.path) + omitted_list
}

/// Steps 4 and 5: every item but the last omitted, the last cut to the
/// longest content that fits, under the intro then the fallback intro:
/// (step, bytes, included bytes), when one fits.
fn cut_last(
    items: &(impl Sizes + ?Sized),
    intros: [&str; 2],
    limit: usize,
    max: MaxBytes,
) -> Option<(Step, usize, usize)> {
    let last = items.item(items.count() - 1);
    let head = escaped_len(&last.head);
    for (intro, step) in intros.into_iter().zip([Step::Truncated, Step::Compact]) {
        let attempt = |len: usize| {
            let content = cut(last.content, len);
            let bytes = FRAME
                + last_notice_len(items, max, content.len())
                + intro_block(intro)
                + 2
                + head
                + escaped_len(content);
            (bytes, content.len())
        };
        let best = longest_cut(last.content, |len| attempt(len).0 <= limit);
        let (bytes, included) = attempt(best);
        if bytes <= limit {
            return Some((step, bytes, included));
        }
    }
    None
}
