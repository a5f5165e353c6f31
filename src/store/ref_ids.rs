//! Where a file's references go in the `refs` table: their ids. A file's references are one
//! range of ids in the order of the file (`ref_ids_of`), written `GAP` apart, so that an
//! update can put a new reference between two old ones and leave the rows around it as
//! they are. This module only matches old rows with new ones and computes ids from the
//! matching; it reads and writes nothing (the writer in `store` does).

use std::hash::{Hash, Hasher};

/// How far apart a file's references are written, where there is room. An edit that adds
/// references before the last of a file then fits between the old ones four times over in
/// one place (halving the gap) before the rows after it must be written again.
pub(crate) const GAP: i64 = 16;

/// One new reference's place: the id of the old row it keeps (`keep`), or the id it is
/// written at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Slot {
    pub id: i64,
    pub keep: bool,
}

/// The ids of `new_len` new references of a file, in their order, written from `floor` up
/// to `hi` (both included).
///
/// `old` holds the ids of the file's old rows still in place from `floor` on, ascending;
/// `pairs` (old index, new index) the old rows a new reference equals, ascending in both.
/// A matched row is kept where the new references before it fit between it and the last
/// id given; where they do not, it gives up its row and joins them (the writer deletes the
/// old rows up to the last id given that are not kept). Unmatched references between two
/// kept rows are spread evenly over the ids between; those after the last kept row go
/// `GAP` apart, before the next old row still in place (which a later call may keep) or,
/// where they do not fit there, up to `hi`. What does not fit before `hi` is left out: the
/// result is then shorter than `new_len`.
pub(crate) fn place(floor: i64, hi: i64, old: &[i64], pairs: &[(usize, usize)], new_len: usize) -> Vec<Slot> {
    let mut out: Vec<Slot> = Vec::with_capacity(new_len);
    // The last id given, and the next pair to consider.
    let (mut last, mut p) = (floor - 1, 0);
    let mut i = 0;
    while i < new_len {
        if let Some(&(o, n)) = pairs.get(p) {
            if n == i {
                out.push(Slot { id: old[o], keep: true });
                last = old[o];
                (p, i) = (p + 1, i + 1);
                continue;
            }
        }
        // A run of new references from `i`; it ends at the next pair whose row leaves
        // room for it (the pairs before that join the run).
        while let Some(&(o, n)) = pairs.get(p) {
            if old[o] - last > (n - i) as i64 {
                for j in 0..n - i {
                    let id = last + (old[o] - last) * (j as i64 + 1) / ((n - i) as i64 + 1);
                    out.push(Slot { id, keep: false });
                }
                last = out.last().map_or(last, |s| s.id);
                i = n;
                break;
            }
            p += 1;
        }
        if p < pairs.len() {
            continue;
        }
        // The run goes to the end: before the next old row still in place if it fits
        // there, else up to `hi`.
        let k = (new_len - i) as i64;
        let next_old = old.iter().copied().find(|&id| id > last);
        match next_old {
            Some(b) if b - last > k => {
                let step = ((b - last - 1) / k).min(GAP);
                out.extend((1..=k).map(|j| Slot { id: last + step * j, keep: false }));
            }
            _ => {
                let step = ((hi - last) / k).min(GAP);
                let fit = if step == 0 { hi - last } else { k };
                out.extend((1..=fit).map(|j| Slot { id: last + step.max(1) * j, keep: false }));
            }
        }
        break;
    }
    out
}

/// Which old items new ones equal: (old index, new index) pairs, ascending in both. The
/// common head and tail are compared item by item; what lies between is matched by a diff
/// (Myers over the items' hashes, `similar`; a middle so changed that it takes over 20 ms
/// matches what was found by then, and the rest is written again). Equal hashes of unequal
/// items (a collision) are no match.
pub(crate) fn matching<T: Hash + Eq>(old: &[T], new: &[T]) -> Vec<(usize, usize)> {
    let head = old.iter().zip(new).take_while(|(o, n)| o == n).count();
    let tail = old[head..].iter().rev().zip(new[head..].iter().rev()).take_while(|(o, n)| o == n).count();
    let mut pairs: Vec<(usize, usize)> = (0..head).map(|i| (i, i)).collect();
    let (old_mid, new_mid) = (&old[head..old.len() - tail], &new[head..new.len() - tail]);
    if !old_mid.is_empty() && !new_mid.is_empty() {
        let key = |item: &T| {
            let mut h = xxhash_rust::xxh3::Xxh3::new();
            item.hash(&mut h);
            h.finish()
        };
        let old_keys: Vec<u64> = old_mid.iter().map(key).collect();
        let new_keys: Vec<u64> = new_mid.iter().map(key).collect();
        let deadline = std::time::Instant::now() + std::time::Duration::from_millis(20);
        for op in similar::capture_diff_slices_deadline(similar::Algorithm::Myers, &old_keys, &new_keys, Some(deadline)) {
            if let similar::DiffOp::Equal { old_index, new_index, len } = op {
                let (o, n) = (head + old_index, head + new_index);
                pairs.extend((0..len).map(|k| (o + k, n + k)).filter(|&(o, n)| old[o] == new[n]));
            }
        }
    }
    pairs.extend((0..tail).rev().map(|i| (old.len() - 1 - i, new.len() - 1 - i)));
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(slots: &[Slot]) -> Vec<(i64, bool)> {
        slots.iter().map(|s| (s.id, s.keep)).collect()
    }

    #[test]
    fn matching_keeps_the_head_the_tail_and_what_the_diff_finds_between() {
        // One added at the top, one changed in the middle, one removed near the end.
        let old = ["a", "b", "c", "d", "e", "f"];
        let new = ["x", "a", "b", "C", "d", "f"];
        assert_eq!(matching(&old, &new), [(0, 1), (1, 2), (3, 4), (5, 5)]);
        assert_eq!(matching(&old, &old), (0..6).map(|i| (i, i)).collect::<Vec<_>>());
        assert_eq!(matching(&old, &[]), []);
    }

    #[test]
    fn a_first_write_leaves_a_gap_before_each_reference() {
        assert_eq!(ids(&place(100, 1000, &[], &[], 3)), [(115, false), (131, false), (147, false)]);
    }

    #[test]
    fn a_reference_added_at_the_top_fits_before_the_old_ones() {
        // Old rows 115, 131, 147; a new reference before them all.
        let old = [115, 131, 147];
        let slots = place(100, 1000, &old, &[(0, 1), (1, 2), (2, 3)], 4);
        assert_eq!(ids(&slots), [(107, false), (115, true), (131, true), (147, true)]);
    }

    #[test]
    fn references_between_two_kept_rows_are_spread_over_the_gap() {
        let slots = place(100, 1000, &[115, 131], &[(0, 0), (1, 4)], 5);
        assert_eq!(ids(&slots), [(115, true), (119, false), (123, false), (127, false), (131, true)]);
    }

    #[test]
    fn a_row_without_room_before_it_is_written_again() {
        // 101 and 102 are adjacent: the new reference between them takes 102's place
        // (which the writer deletes) and 102's own content goes after it.
        let slots = place(100, 1000, &[101, 102, 200], &[(0, 0), (1, 2), (2, 3)], 4);
        assert_eq!(ids(&slots), [(101, true), (134, false), (167, false), (200, true)]);
    }

    #[test]
    fn a_run_at_the_end_stops_before_an_old_row_a_later_pass_may_keep() {
        // The old rows 147 on are another pass's: two new ones after 115 go below 147,
        // 15 apart.
        let slots = place(100, 1000, &[115, 147, 163], &[(0, 0)], 3);
        assert_eq!(ids(&slots), [(115, true), (130, false), (145, false)]);
    }

    #[test]
    fn a_run_at_the_end_without_room_before_the_next_old_row_goes_past_it() {
        let slots = place(100, 1000, &[115, 116], &[(0, 0)], 3);
        assert_eq!(ids(&slots), [(115, true), (131, false), (147, false)]);
    }

    #[test]
    fn a_full_range_closes_the_gaps_then_leaves_out_what_does_not_fit() {
        assert_eq!(ids(&place(100, 107, &[], &[], 3)), [(101, false), (103, false), (105, false)]);
        assert_eq!(ids(&place(100, 104, &[], &[], 7)), [(100, false), (101, false), (102, false), (103, false), (104, false)]);
    }

    #[test]
    fn kept_rows_are_in_order_and_inside_the_range() {
        // Every matching of every small case: ids ascend, stay in [floor, hi], keep only
        // matched rows, and give every new reference a slot while there is room.
        let old = [101, 103, 104, 120, 121];
        for new_len in 0..7 {
            for mask in 0u32..(1 << (old.len() * new_len.max(1))).min(1 << 12) {
                let mut pairs = Vec::new();
                let (mut o, mut n) = (0, 0);
                let mut bits = mask;
                while o < old.len() && n < new_len {
                    match bits & 3 {
                        0 => o += 1,
                        1 => n += 1,
                        _ => {
                            pairs.push((o, n));
                            o += 1;
                            n += 1;
                        }
                    }
                    bits >>= 2;
                }
                let slots = place(100, 200, &old, &pairs, new_len);
                assert_eq!(slots.len(), new_len);
                assert!(slots.windows(2).all(|w| w[0].id < w[1].id), "{slots:?}");
                assert!(slots.iter().all(|s| (100..=200).contains(&s.id)));
                for (n, s) in slots.iter().enumerate() {
                    if s.keep {
                        assert!(pairs.iter().any(|&(o, m)| m == n && old[o] == s.id));
                    }
                }
            }
        }
    }
}
