//! Which transcript entries to draw: only those near the viewport, with spacers standing in for
//! the rest, so a 20,000-entry session keeps a few dozen in the DOM (and memory) wherever the
//! reader is. Heights are measured once an entry has been drawn; an entry never drawn counts as
//! the median of those measured (a few enormous entries must not make every unseen one look
//! enormous). Pure: the transcript component feeds it numbers.

use std::collections::HashMap;

/// Before anything is measured, an entry is taken to be this tall (px, gap included): a little
/// under the common short line (a dice line or a one-line story line, 52-56 px at the default
/// size), so the first draw holds every entry the view needs and measuring it adds none
/// (which cost the join a second layout and paint when the guess was 90 px).
pub const FIRST_GUESS: f64 = 50.0;

/// How many entries more than the end needs may stay drawn above it while it is followed.
pub const TAIL_SLACK: usize = 8;

/// Measured heights (px, gap included), by entry key.
#[derive(Debug, Default, Clone)]
pub struct Heights {
    by_key: HashMap<u64, f64>,
    /// The median as of the last [`Heights::settle`].
    median: Option<f64>,
}

impl Heights {
    /// Notes a measured height; [`Heights::settle`] once a pass of them is done.
    pub fn set(&mut self, key: u64, height: f64) {
        self.by_key.insert(key, height);
    }

    /// Works out the median again (after a measuring pass, not per entry).
    pub fn settle(&mut self) {
        let mut all: Vec<f64> = self.by_key.values().copied().collect();
        all.sort_by(f64::total_cmp);
        self.median = all.get(all.len() / 2).copied();
    }

    /// What an entry not yet drawn is taken to be: the median of those measured.
    pub fn guess(&self) -> f64 {
        self.median.unwrap_or(FIRST_GUESS)
    }

    pub fn of(&self, key: u64) -> f64 {
        self.by_key
            .get(&key)
            .copied()
            .unwrap_or_else(|| self.guess())
    }

    /// The height of `keys` together.
    pub fn sum(&self, keys: &[u64]) -> f64 {
        let guess = self.guess();
        keys.iter()
            .map(|k| self.by_key.get(k).copied().unwrap_or(guess))
            .sum()
    }
}

/// The entries `[lo, hi)` that cover `[top - margin, top + viewport + margin]`, where `top` is
/// the scroll offset within the list.
pub fn span(
    keys: &[u64],
    heights: &Heights,
    top: f64,
    viewport: f64,
    margin: f64,
) -> (usize, usize) {
    let (from, to) = ((top - margin).max(0.0), top + viewport + margin);
    let (mut lo, mut hi) = (keys.len(), keys.len());
    let mut y = 0.0;
    for (i, key) in keys.iter().enumerate() {
        let h = heights.of(*key);
        if lo == keys.len() && y + h > from {
            lo = i;
        }
        y += h;
        if y >= to {
            hi = i + 1;
            break;
        }
    }
    if lo == keys.len() {
        // Past the end (the list shrank): the last screenful.
        lo = keys.len().saturating_sub(1);
    }
    (lo.min(hi), hi)
}

/// The span to draw for a view near what is drawn now, measured from the drawn entries
/// themselves: `first` is the index of the first drawn entry and `view_top` is where the view's
/// top is relative to that entry's top (negative: above it), and `drawn` entries are drawn. Walking from an entry on screen
/// uses real heights where they are known, so a change in the estimate for entries far away
/// (the median moving once a long one is measured) cannot make a scroll jump over entries.
/// `None` when the view is too far from the drawn entries to walk there (a scrollbar drag).
pub fn span_near(
    keys: &[u64],
    heights: &Heights,
    (first, drawn): (usize, usize),
    view_top: f64,
    viewport: f64,
    margin: f64,
) -> Option<(usize, usize)> {
    let too_far = 20.0 * viewport.max(1.0);
    let end = (first + drawn).min(keys.len());
    if first >= keys.len()
        || view_top < -too_far
        || view_top > heights.sum(&keys[first..end]) + too_far
    {
        return None;
    }
    let (from, to) = (view_top - margin, view_top + viewport + margin);
    // Upwards from `first` until the entry holding `from` is reached.
    let mut lo = first;
    let mut y = 0.0;
    while lo > 0 && y > from {
        lo -= 1;
        y -= heights.of(keys[lo]);
    }
    // Downwards: skip what ends above `from`, then take what reaches `to`.
    let mut hi = lo;
    let mut bottom = y;
    while hi < keys.len() && bottom < to {
        let h = heights.of(keys[hi]);
        if bottom + h <= from && hi + 1 < keys.len() {
            lo = hi + 1;
        }
        bottom += h;
        hi += 1;
    }
    Some((lo.min(hi), hi.max(lo + 1).min(keys.len())))
}

/// The top spacer's height, carried from one layout to the next while the reader reads:
/// entries drawn or released at the top change it by their own heights, and nothing else does.
/// Heights measured anew and the estimate for unseen entries moving (the median, once a
/// 5,000-character line is measured) change nothing above the reader's place, so nothing on
/// screen moves. It is worked out from the estimate ([`Heights::sum`]) only when there is no
/// place to keep (following the end, a jump far from what was drawn, the list changed above),
/// or when the carried height no longer fits: below zero (the estimate was short: a larger
/// spacer makes room above), or not zero at the first entry (the top is exact).
#[derive(Debug, Default, Clone)]
pub struct Top {
    /// The last layout's `[lo, hi)`, the key at `lo`, and the spacer's height.
    last: Option<(usize, usize, u64, f64)>,
}

impl Top {
    /// The spacer above `keys[lo..hi]`; `carry` when the reader's place is kept (not
    /// following the end).
    pub fn height(
        &mut self,
        keys: &[u64],
        heights: &Heights,
        (lo, hi): (usize, usize),
        carry: bool,
    ) -> f64 {
        let estimate = || heights.sum(&keys[..lo]);
        let carried = match self.last {
            Some((plo, phi, key, px))
                if carry && keys.get(plo) == Some(&key) && lo < phi && plo < hi =>
            {
                if lo <= plo {
                    px - heights.sum(&keys[lo..plo])
                } else {
                    px + heights.sum(&keys[plo..lo])
                }
            }
            _ => estimate(),
        };
        let px = if lo == 0 {
            0.0
        } else if carried < 0.0 {
            estimate()
        } else {
            carried
        };
        self.last = keys.get(lo).map(|k| (lo, hi, *k, px));
        px
    }
}

/// The first entry drawn while the end is followed: [`tail`], except that an entry already
/// drawn stays drawn while it is at most [`TAIL_SLACK`] entries above it. Heights measured
/// after a draw (taller than the guess) then change no element, and a stream releases entries
/// at the top a few at a time instead of one per line.
#[derive(Debug, Default, Clone)]
pub struct Tail {
    /// The last `lo`, and its key (the list may have changed since).
    last: Option<(usize, u64)>,
}

impl Tail {
    pub fn lo(&mut self, keys: &[u64], heights: &Heights, viewport: f64, margin: f64) -> usize {
        let needed = tail(keys, heights, viewport, margin);
        let lo = match self.last {
            Some((lo, key))
                if keys.get(lo) == Some(&key) && lo <= needed && needed - lo <= TAIL_SLACK =>
            {
                lo
            }
            _ => needed,
        };
        self.last = keys.get(lo).map(|k| (lo, *k));
        lo
    }
}

/// The last entries that fill `viewport + margin`, for a reader following the end.
pub fn tail(keys: &[u64], heights: &Heights, viewport: f64, margin: f64) -> usize {
    let mut y = 0.0;
    for (i, key) in keys.iter().enumerate().rev() {
        y += heights.of(*key);
        if y >= viewport + margin {
            return i;
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(n: u64) -> Vec<u64> {
        (0..n).collect()
    }

    #[test]
    fn only_what_is_near_the_viewport_is_drawn() {
        let mut h = Heights::default();
        for k in 0..20_000 {
            h.set(k, 100.0);
        }
        h.settle();
        let keys = keys(20_000);
        // The middle of a 2,000,000 px list, an 800 px window and a screen of margin each way.
        let (lo, hi) = span(&keys, &h, 1_000_000.0, 800.0, 800.0);
        assert_eq!((lo, hi), (9_992, 10_016));
        assert!(hi - lo < 30, "{lo}..{hi}");
        // The top.
        assert_eq!(span(&keys, &h, 0.0, 800.0, 800.0), (0, 16));
        // Following the end: the last 16.
        assert_eq!(tail(&keys, &h, 800.0, 800.0), 19_984);
    }

    #[test]
    fn an_entry_never_drawn_counts_as_the_median() {
        let mut h = Heights::default();
        assert_eq!(h.sum(&[1, 2]), 2.0 * FIRST_GUESS);
        h.set(1, 50.0);
        h.set(2, 60.0);
        // One enormous entry (a 5,000-character line) does not make the rest look enormous.
        h.set(3, 9_000.0);
        h.settle();
        assert_eq!(h.of(4), 60.0);
        h.set(2, 40.0);
        h.settle();
        assert_eq!(h.of(4), 50.0);
        assert_eq!(h.sum(&[1, 2, 4]), 140.0);
    }

    #[test]
    fn scrolling_near_the_drawn_entries_walks_from_them() {
        let mut h = Heights::default();
        for k in 0..1_000 {
            h.set(k, 100.0);
        }
        h.settle();
        let keys = keys(1_000);
        // Two and a half entries above the first drawn one (50), a screen of margin each way.
        assert_eq!(
            span_near(&keys, &h, (50, 24), -250.0, 800.0, 800.0),
            Some((39, 64))
        );
        // Below it, inside what is drawn.
        assert_eq!(
            span_near(&keys, &h, (50, 24), 300.0, 800.0, 800.0),
            Some((45, 69))
        );
        // Far away (a scrollbar drag): the caller works it out from the top instead.
        assert_eq!(
            span_near(&keys, &h, (50, 24), -30_000.0, 800.0, 800.0),
            None
        );
        assert_eq!(
            span_near(&keys, &h, (50, 24), 300_000.0, 800.0, 800.0),
            None
        );
    }

    #[test]
    fn a_tall_entry_just_above_is_not_jumped_over() {
        // 600 short entries never drawn, and one 50,000 px entry (a 5,000-character line) just
        // above the first drawn one: the reader two screens up is inside that entry.
        let mut h = Heights::default();
        h.set(570, 50_000.0);
        h.set(571, 60.0);
        h.set(572, 60.0);
        h.settle();
        let keys = keys(600);
        let (lo, hi) = span_near(&keys, &h, (571, 2), -1_600.0, 800.0, 800.0).unwrap();
        assert_eq!(lo, 570, "{lo}..{hi}");
        assert!(hi >= 571, "{lo}..{hi}");
    }

    #[test]
    fn the_top_spacer_moves_only_by_what_is_drawn_or_released_above() {
        let mut h = Heights::default();
        h.set(0, 100.0);
        h.settle();
        let keys = keys(1_000);
        let mut top = Top::default();
        // Reading starts where the end was followed: 900 entries of 100 px above.
        assert_eq!(top.height(&keys, &h, (900, 1_000), true), 90_000.0);
        // A 5,000-character line measured moves the median: what is above does not move.
        for k in 900..950 {
            h.set(k, 300.0);
        }
        h.settle();
        assert_eq!(h.sum(&keys[..900]), 270_000.0 - 200.0);
        assert_eq!(top.height(&keys, &h, (900, 940), true), 90_000.0);
        // Ten entries drawn above (now taken as 300 px each): the spacer gives up just that.
        assert_eq!(top.height(&keys, &h, (890, 930), true), 87_000.0);
        // Released at the top: the spacer takes their measured heights back.
        assert_eq!(top.height(&keys, &h, (895, 930), true), 88_500.0);
        // Following the end, or a jump far away: the estimate.
        assert_eq!(
            top.height(&keys, &h, (900, 1_000), false),
            h.sum(&keys[..900])
        );
        assert_eq!(top.height(&keys, &h, (10, 40), true), h.sum(&keys[..10]));
    }

    #[test]
    fn the_carried_top_gives_way_where_it_no_longer_fits() {
        let mut h = Heights::default();
        h.set(0, 100.0);
        h.settle();
        let keys = keys(100);
        let mut top = Top::default();
        assert_eq!(top.height(&keys, &h, (50, 60), true), 5_000.0);
        // Entries above turn out much taller: the carried spacer would go below zero, so it is
        // worked out again from the estimate (room above to scroll into).
        for k in 0..50 {
            h.set(k, 150.0);
        }
        h.settle();
        assert_eq!(top.height(&keys, &h, (10, 50), true), 1_500.0);
        // At the first entry the spacer is nothing, whatever was carried.
        assert_eq!(top.height(&keys, &h, (0, 40), true), 0.0);
    }

    #[test]
    fn following_the_end_keeps_what_is_drawn_until_well_past_it() {
        let keys = keys(1_000);
        let mut h = Heights::default();
        let mut tail_lo = Tail::default();
        // The first draw, on the guess: 1,600 px of entries.
        let first = tail_lo.lo(&keys, &h, 800.0, 800.0);
        assert_eq!(first, 1_000 - (1_600.0 / FIRST_GUESS).ceil() as usize);
        // Measured taller than the guess: fewer are needed, and none is added or released.
        for k in first as u64..1_000 {
            h.set(k, 56.0);
        }
        h.settle();
        let needed = tail(&keys, &h, 800.0, 800.0);
        assert!(
            needed > first && needed - first <= TAIL_SLACK,
            "{first} {needed}"
        );
        assert_eq!(tail_lo.lo(&keys, &h, 800.0, 800.0), first);
        // Entries arrive: the top ones are released only once they are well past what is needed.
        let more: Vec<u64> = (0..1_002).collect();
        assert_eq!(tail_lo.lo(&more, &h, 800.0, 800.0), first);
        let more: Vec<u64> = (0..1_020).collect();
        assert_eq!(
            tail_lo.lo(&more, &h, 800.0, 800.0),
            tail(&more, &h, 800.0, 800.0)
        );
        // Entries measured shorter: more are needed, drawn at once.
        for k in 0..1_020 {
            h.set(k, 20.0);
        }
        h.settle();
        assert_eq!(
            tail_lo.lo(&more, &h, 800.0, 800.0),
            tail(&more, &h, 800.0, 800.0)
        );
        // A different list (a search): worked out anew.
        let other: Vec<u64> = (5_000..5_100).collect();
        assert_eq!(
            tail_lo.lo(&other, &h, 800.0, 800.0),
            tail(&other, &h, 800.0, 800.0)
        );
    }

    #[test]
    fn a_short_list_is_drawn_whole() {
        let h = Heights::default();
        assert_eq!(span(&keys(3), &h, 0.0, 800.0, 800.0), (0, 3));
        assert_eq!(tail(&keys(3), &h, 800.0, 800.0), 0);
        assert_eq!(span(&[], &h, 0.0, 800.0, 800.0), (0, 0));
    }
}
