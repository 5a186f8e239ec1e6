//! The surface of a session log (SPEC 5.3): an ordered list of seqs.
//!
//! Kept compact and near-linear to update whatever the log does (issue 13):
//! the seqs on the surface are a bitmap of 64-seq blocks ([`Members`]), and the
//! order is a linked list of segments. A segment is a range of seq values,
//! disjoint from every other segment's range, that stands for the surface
//! seqs inside it in ascending order. Appends of growing seqs, gaps or not,
//! extend the last segment; a descending append or a compaction adds a
//! segment or two. Every operation costs a few map look-ups, plus the
//! segments a compaction removes (each removed once).

use std::collections::BTreeMap;

use super::scan::seq_text;

const NIL: usize = usize::MAX;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Segment {
    lo: u64,
    hi: u64,
    prev: usize,
    next: usize,
}

/// The surface: which seqs are on it (a bitmap) and in which order
/// (segments of ascending seqs).
#[derive(Debug, Clone, PartialEq)]
pub struct Surface {
    members: Members,
    slab: Vec<Segment>,
    free: Vec<usize>,
    /// Each live segment by its `lo`.
    by_lo: BTreeMap<u64, usize>,
    head: usize,
    tail: usize,
    /// At least the greatest `hi` of any segment (it never shrinks).
    top: u64,
    /// Segments visited and map operations done: the work, for tests.
    work: u64,
}

impl Default for Surface {
    fn default() -> Self {
        Surface {
            members: Members::default(),
            slab: Vec::new(),
            free: Vec::new(),
            by_lo: BTreeMap::new(),
            head: NIL,
            tail: NIL,
            top: 0,
            work: 0,
        }
    }
}

impl Eq for Surface {}

impl Surface {
    /// Whether `seq` is on the surface.
    #[must_use]
    pub fn contains(&self, seq: u64) -> bool {
        self.members.contains(seq)
    }

    /// The number of entries on the surface.
    #[must_use]
    pub fn len(&self) -> u64 {
        self.members.len()
    }

    /// Whether no entry is on the surface.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// How many segments the surface holds (its memory besides the bitmap).
    #[must_use]
    pub fn runs(&self) -> usize {
        self.by_lo.len()
    }

    /// The work done so far (segments visited, map operations): tests bound
    /// it to show that updates stay near-linear.
    #[must_use]
    pub fn work(&self) -> u64 {
        self.work
    }

    /// The seqs in surface order (for tests and small surfaces).
    #[must_use]
    pub fn to_vec(&self) -> Vec<u64> {
        let mut out = Vec::new();
        let mut at = self.head;
        while at != NIL {
            let s = self.slab[at];
            out.extend(self.members.range(s.lo, s.hi));
            at = s.next;
        }
        out
    }

    /// The segment whose range holds `seq`, member or not.
    fn covering(&mut self, seq: u64) -> Option<usize> {
        self.work += 1;
        let (_, &i) = self.by_lo.range(..=seq).next_back()?;
        (self.slab[i].hi >= seq).then_some(i)
    }

    fn alloc(&mut self, lo: u64, hi: u64) -> usize {
        let seg = Segment {
            lo,
            hi,
            prev: NIL,
            next: NIL,
        };
        let i = if let Some(i) = self.free.pop() {
            self.slab[i] = seg;
            i
        } else {
            self.slab.push(seg);
            self.slab.len() - 1
        };
        self.by_lo.insert(lo, i);
        self.top = self.top.max(hi);
        self.work += 1;
        i
    }

    /// Links segment `i` before `next` (`NIL`: at the end).
    fn link_before(&mut self, i: usize, next: usize) {
        let prev = if next == NIL {
            self.tail
        } else {
            self.slab[next].prev
        };
        self.join(prev, i);
        self.join(i, next);
    }

    /// Makes `next` follow `prev` in surface order (`NIL` on either side:
    /// the list's head or tail).
    fn join(&mut self, prev: usize, next: usize) {
        match prev {
            NIL => self.head = next,
            p => self.slab[p].next = next,
        }
        match next {
            NIL => self.tail = prev,
            n => self.slab[n].prev = prev,
        }
    }

    fn unlink(&mut self, i: usize) {
        let Segment { lo, prev, next, .. } = self.slab[i];
        self.join(prev, next);
        self.by_lo.remove(&lo);
        self.free.push(i);
        self.work += 1;
    }

    fn set_range(&mut self, i: usize, lo: u64, hi: u64) {
        if self.slab[i].lo != lo {
            self.by_lo.remove(&self.slab[i].lo);
            self.by_lo.insert(lo, i);
            self.work += 1;
        }
        self.slab[i].lo = lo;
        self.slab[i].hi = hi;
    }

    /// Makes sure no segment's range holds `seq` (not a member), splitting
    /// the one that does. Returns the segment it removed, if it removed one.
    fn carve(&mut self, seq: u64) -> Option<usize> {
        let i = self.covering(seq)?;
        let Segment { lo, hi, next, .. } = self.slab[i];
        if lo == seq && hi == seq {
            self.unlink(i);
            return Some(i);
        }
        if lo == seq {
            self.set_range(i, seq + 1, hi);
        } else if hi == seq {
            self.set_range(i, lo, seq - 1);
        } else {
            self.set_range(i, lo, seq - 1);
            let j = self.alloc(seq + 1, hi);
            self.link_before(j, next);
        }
        None
    }

    /// Appends `seq` to the surface; `Err` says why it cannot be.
    pub(crate) fn append(&mut self, seq: u64) -> Result<(), String> {
        if !self.members.insert(seq) {
            return Err(format!("seq {} is already on the surface", seq_text(seq)));
        }
        let tail = self.tail;
        // Growing appends extend the last segment; when it holds the
        // greatest range, no other segment can lie in the way.
        let extend = tail != NIL
            && seq > self.slab[tail].hi
            && (self.slab[tail].hi >= self.top || {
                self.work += 1;
                self.by_lo
                    .range(self.slab[tail].hi + 1..=seq)
                    .next()
                    .is_none()
            });
        if extend {
            self.slab[tail].hi = seq;
            self.top = self.top.max(seq);
        } else {
            self.carve(seq);
            let i = self.alloc(seq, seq);
            self.link_before(i, NIL);
        }
        Ok(())
    }

    /// The segment holding `seq` when it is on the surface.
    fn segment_of(&mut self, seq: u64) -> Option<usize> {
        if !self.members.contains(seq) {
            return None;
        }
        self.covering(seq)
    }

    /// Replaces the surface from `start` to `end` (inclusive) by `seq`;
    /// `Err` says why it cannot.
    pub(crate) fn replace(&mut self, start: u64, end: u64, seq: u64) -> Result<(), String> {
        let a = self
            .segment_of(start)
            .ok_or_else(|| format!("replace start {} is not on the surface", seq_text(start)))?;
        let b = self
            .segment_of(end)
            .ok_or_else(|| format!("replace end {} is not on the surface", seq_text(end)))?;
        let after = || {
            format!(
                "replace start {} lies after its end {}",
                seq_text(start),
                seq_text(end)
            )
        };
        // The segments strictly between a and b, in order.
        let mut between = Vec::new();
        if a == b {
            if start > end {
                return Err(after());
            }
        } else {
            let mut at = self.slab[a].next;
            while at != b {
                if at == NIL {
                    return Err(after());
                }
                self.work += 1;
                between.push(at);
                at = self.slab[at].next;
            }
        }
        for i in between {
            let Segment { lo, hi, .. } = self.slab[i];
            self.members.remove_range(lo, hi);
            self.unlink(i);
        }
        let (a_lo, b_hi, b_next) = (self.slab[a].lo, self.slab[b].hi, self.slab[b].next);
        if a == b {
            self.members.remove_range(start, end);
        } else {
            self.members.remove_range(start, self.slab[a].hi);
            self.members.remove_range(self.slab[b].lo, end);
        }
        // What is left of a (before start) and of b (after end).
        let mut anchor = b_next;
        if end < b_hi {
            if a == b {
                let j = self.alloc(end + 1, b_hi);
                self.link_before(j, b_next);
                anchor = j;
            } else {
                self.set_range(b, end + 1, b_hi);
                anchor = b;
            }
        } else if a != b {
            self.unlink(b);
        }
        if start > a_lo {
            self.slab[a].hi = start - 1;
        } else {
            self.unlink(a);
        }
        if self.members.contains(seq) {
            return Err(format!("seq {} is already on the surface", seq_text(seq)));
        }
        let anchor_next = if anchor == NIL {
            NIL
        } else {
            self.slab[anchor].next
        };
        if self.carve(seq) == Some(anchor) {
            anchor = anchor_next;
        }
        let i = self.alloc(seq, seq);
        self.link_before(i, anchor);
        self.members.insert(seq);
        Ok(())
    }

    /// The order of each segment along the surface, for [`Self::position`].
    pub(crate) fn ordinals(&self) -> Vec<usize> {
        let mut ord = vec![usize::MAX; self.slab.len()];
        let mut at = self.head;
        let mut k = 0;
        while at != NIL {
            ord[at] = k;
            k += 1;
            at = self.slab[at].next;
        }
        ord
    }

    /// Where `seq` stands on the surface, as a key that sorts in surface
    /// order, given [`Self::ordinals`].
    pub(crate) fn position(&self, ordinals: &[usize], seq: u64) -> Option<(usize, u64)> {
        if !self.members.contains(seq) {
            return None;
        }
        let (_, &i) = self.by_lo.range(..=seq).next_back()?;
        (self.slab[i].hi >= seq).then(|| (ordinals[i], seq))
    }
}

/// The seqs on the surface: a map from each 64-seq block that holds one to
/// the block's bits (issue 21). Its memory is bounded by a B-tree entry
/// (about 32 bytes) per block whatever the gaps: 2M seqs 2^33 apart take
/// about 70 MB, not the 532 MB of a `RoaringTreemap` (a bitmap and a map
/// node per 2^32 range); appends with small gaps take a bit or two a seq.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Members {
    blocks: BTreeMap<u64, u64>,
    len: u64,
}

/// The bits `from..=to` of a block (both below 64, `from <= to`).
fn bits(from: u64, to: u64) -> u64 {
    (u64::MAX >> (63 - (to - from))) << from
}

impl Members {
    fn contains(&self, seq: u64) -> bool {
        self.blocks
            .get(&(seq >> 6))
            .is_some_and(|b| b >> (seq & 63) & 1 == 1)
    }

    fn len(&self) -> u64 {
        self.len
    }

    fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Adds `seq`; false when it was there.
    fn insert(&mut self, seq: u64) -> bool {
        let key = seq >> 6;
        // Seqs mostly grow: the last block, or a new one after it, without
        // a search from the root.
        let last = self.blocks.last_entry();
        let block = match last {
            Some(e) if *e.key() == key => e.into_mut(),
            Some(e) if *e.key() > key => self.blocks.entry(key).or_insert(0),
            _ => {
                self.blocks.insert(key, 0);
                self.blocks.entry(key).or_insert(0)
            }
        };
        let bit = 1 << (seq & 63);
        if *block & bit != 0 {
            return false;
        }
        *block |= bit;
        self.len += 1;
        true
    }

    /// Clears the bits `from..=to` of block `key`.
    fn clear(&mut self, key: u64, from: u64, to: u64) {
        if let Some(block) = self.blocks.get_mut(&key) {
            let gone = *block & bits(from, to);
            self.len -= u64::from(gone.count_ones());
            *block &= !gone;
            if *block == 0 {
                self.blocks.remove(&key);
            }
        }
    }

    /// Removes every seq in `lo..=hi`: the blocks inside are each removed
    /// once, so a run of compactions costs what the appends did.
    fn remove_range(&mut self, lo: u64, hi: u64) {
        if lo > hi {
            return;
        }
        let (first, last) = (lo >> 6, hi >> 6);
        if first == last {
            self.clear(first, lo & 63, hi & 63);
            return;
        }
        self.clear(first, lo & 63, 63);
        self.clear(last, 0, hi & 63);
        while let Some((&key, &block)) = self.blocks.range(first + 1..last).next() {
            self.len -= u64::from(block.count_ones());
            self.blocks.remove(&key);
        }
    }

    /// The seqs in `lo..=hi`, ascending.
    fn range(&self, lo: u64, hi: u64) -> impl Iterator<Item = u64> + '_ {
        self.blocks
            .range(lo >> 6..=hi >> 6)
            .flat_map(|(&key, &block)| {
                (0..64)
                    .filter(move |b| block >> b & 1 == 1)
                    .map(move |b| key << 6 | b)
            })
            .filter(move |&m| m >= lo && m <= hi)
    }

    /// About what the blocks take on the heap: a B-tree leaf of 11 entries
    /// (192 bytes) at least half full, so 32 bytes a block.
    #[cfg(test)]
    fn heap_bytes(&self) -> usize {
        self.blocks.len() * 32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    /// The plain list model of SPEC 5.3.
    fn model_replace(v: &mut Vec<u64>, start: u64, end: u64, seq: u64) -> Result<(), ()> {
        let a = v.iter().position(|&s| s == start).ok_or(())?;
        let b = v.iter().position(|&s| s == end).ok_or(())?;
        if a > b {
            return Err(());
        }
        v.splice(a..=b, [seq]);
        if v.iter().filter(|&&s| s == seq).count() > 1 {
            return Err(());
        }
        Ok(())
    }

    #[test]
    fn appends_and_replaces_keep_surface_order() {
        let mut s = Surface::default();
        for seq in [0, 1, 2, 4, 5] {
            s.append(seq).unwrap();
        }
        assert_eq!(s.runs(), 1, "growing appends with a gap share a segment");
        s.replace(1, 4, 9).unwrap();
        assert_eq!(s.to_vec(), vec![0, 9, 5]);
        assert_eq!(s.len(), 3);
        assert!(s.replace(1, 5, 10).is_err());
        assert!(s.replace(5, 0, 10).is_err());
        assert!(s.append(9).is_err());
        s.append(3).unwrap();
        assert_eq!(s.to_vec(), vec![0, 9, 5, 3]);
        s.replace(9, 3, 4).unwrap();
        assert_eq!(s.to_vec(), vec![0, 4]);
    }

    use proptest::prelude::*;

    proptest! {
        /// The segments agree with the plain list of SPEC 5.3 on every
        /// sequence of operations, errors included.
        #[test]
        fn surface_matches_the_list_model(
            ops in proptest::collection::vec((0u8..3, 0u64..24, 0u64..24, 0u64..24), 1..60),
            spread in any::<bool>(),
        ) {
            let mut s = Surface::default();
            let mut model: Vec<u64> = Vec::new();
            // Spread out, the seqs fall in many 64-seq blocks.
            let k = if spread { 29 } else { 1 };
            for (kind, x, y, z) in ops {
                let (x, y, z) = (x * k, y * k, z * k);
                let (got, want) = if kind == 0 {
                    let want = if model.contains(&x) { Err(()) } else { model.push(x); Ok(()) };
                    (s.append(x).map_err(drop), want)
                } else {
                    let mut m = model.clone();
                    let want = model_replace(&mut m, x, y, z);
                    if want.is_ok() { model = m; }
                    (s.replace(x, y, z).map_err(drop), want)
                };
                prop_assert_eq!(got, want);
                if got.is_err() { break; }
                prop_assert_eq!(s.to_vec(), model.clone());
                let ord = s.ordinals();
                let mut keys: Vec<(usize, u64)> = model.iter().map(|&q| s.position(&ord, q).unwrap()).collect();
                let sorted = { let mut k = keys.clone(); k.sort_unstable(); k };
                prop_assert_eq!(&keys, &sorted);
                keys.dedup();
                prop_assert_eq!(keys.len(), model.len());
            }
        }
    }

    fn work_of(build: impl Fn(&mut Surface, u64), n: u64) -> u64 {
        let mut s = Surface::default();
        build(&mut s, n);
        s.work()
    }

    /// Issue 13: descending seqs and fragmenting compactions cost about as
    /// much per event at 2n as at n (a linear position scan made them quadratic).
    #[test]
    fn descending_appends_and_fragmenting_replaces_are_near_linear() {
        let descending = |s: &mut Surface, n: u64| {
            for seq in (0..n).rev() {
                s.append(seq).unwrap();
            }
        };
        let fragmenting = |s: &mut Surface, n: u64| {
            for seq in 0..2 * n {
                s.append(seq).unwrap();
            }
            // Each replace cuts one seq out of the middle of a segment.
            for k in 0..n {
                s.replace(2 * k + 1, 2 * k + 1, 10 * n + k).unwrap();
            }
            assert_eq!(s.len(), 2 * n);
        };
        for build in [&descending as &dyn Fn(&mut Surface, u64), &fragmenting] {
            let (small, large) = (work_of(build, 4000), work_of(build, 8000));
            assert!(large <= 3 * small, "work {small} at n, {large} at 2n");
        }
    }

    /// 1M growing appends with gaps between them (chunk events hold the
    /// seqs in between) stay one segment and a few bits a seq.
    #[test]
    fn appends_with_gaps_stay_one_segment() {
        let mut s = Surface::default();
        for k in 0..1_000_000u64 {
            s.append(k * 3 + k % 2).unwrap();
        }
        assert_eq!(s.runs(), 1);
        assert!(
            s.members.heap_bytes() < 4 << 20,
            "{}",
            s.members.heap_bytes()
        );
    }
}
