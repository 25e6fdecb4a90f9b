//! The solver's own transposition table: proof and disproof numbers per position key.
//!
//! Direct-mapped: one entry per slot, a new entry replaces an old one unless the old one is
//! a final result (proven or disproven) and the new one is not. The search's table cannot be
//! shared: it keeps scores and depths, the solver keeps proof numbers and mate lengths.

use super::Numbers;
use crate::core::Move;

/// The numbers of an empty slot (no position has both numbers 0).
const EMPTY: Numbers = Numbers { pn: 0, dn: 0 };

/// What the table knows of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, bytemuck::Zeroable)]
#[repr(C)]
pub struct Entry {
    key: u64,
    /// Proof and disproof numbers.
    pub numbers: Numbers,
    /// For a proven position: plies to the end of the proof (the defender resisting, the
    /// attacker taking the shortest proof it found).
    pub length: u16,
    /// For a proven position with the attacker to move: the move that proves it.
    pub best: Move,
}

const EMPTY_ENTRY: Entry = Entry {
    key: 0,
    numbers: EMPTY,
    length: 0,
    best: Move::NULL,
};

/// Proof numbers by position key.
pub struct Table {
    entries: Box<[Entry]>,
    /// One bit per slot: whether it holds an entry. A solve fills a small share of a large
    /// table, so most lookups are of empty slots; this bitmap, a 190th of the entries'
    /// size, mostly sits in the processor's cache and answers them without the cache miss
    /// of reading the slot (which took a sixth of a `go mate`).
    used: Box<[u64]>,
}

/// Bits per word of [`Table::used`].
const WORD_BITS: usize = 64;

impl Table {
    /// A table of about `mb` megabytes (at least one entry).
    pub fn new(mb: usize) -> Table {
        Table::with_bytes(mb << 20)
    }

    /// A table of at most `bytes` of entries (at least one), and its bitmap of one bit per
    /// entry on top (a 190th more: taking it out of the entries would change which
    /// positions share a slot, and so the solver's tree). Zeroed memory is an empty table,
    /// so making one is instant whatever its size (the kernel provides each page when it
    /// is first written): `go mate` with a 4 GB hash took 12.8 s to start when the table
    /// was filled entry by entry. Should the memory be refused, a table of one entry, which
    /// still proves short mates (slowly).
    pub fn with_bytes(bytes: usize) -> Table {
        Table::with_slots((bytes / std::mem::size_of::<Entry>()).max(1))
    }

    /// An empty table of `count` slots (one, should the memory be refused).
    fn with_slots(count: usize) -> Table {
        let words = count.div_ceil(WORD_BITS);
        let made = bytemuck::allocation::try_zeroed_slice_box(count)
            .and_then(|entries| Ok((entries, bytemuck::allocation::try_zeroed_slice_box(words)?)));
        let (entries, used) = made.unwrap_or_else(|()| {
            log::error!("cannot allocate a mate table of {count} entries; using one entry");
            (
                bytemuck::allocation::zeroed_slice_box(1),
                bytemuck::allocation::zeroed_slice_box(1),
            )
        });
        Table { entries, used }
    }

    /// Size in bytes, the bitmap included.
    pub fn size_bytes(&self) -> usize {
        self.entries.len() * std::mem::size_of::<Entry>() + self.used.len() * 8
    }

    fn slot(&self, key: u64) -> usize {
        ((key as u128 * self.entries.len() as u128) >> 64) as usize
    }

    fn is_used(&self, slot: usize) -> bool {
        self.used[slot / WORD_BITS] >> (slot % WORD_BITS) & 1 != 0
    }

    /// The entry for `key`, if the table has it.
    pub fn get(&self, key: u64) -> Option<Entry> {
        let slot = self.slot(key);
        if !self.is_used(slot) {
            return None;
        }
        let e = self.entries[slot];
        (e.key == key && e.numbers != EMPTY).then_some(e)
    }

    /// Stores what is known of `key`.
    pub fn put(&mut self, key: u64, numbers: Numbers, length: u16, best: Move) {
        let slot = self.slot(key);
        // An empty slot is not read: the write alone does not hold the solver up.
        let old = if self.is_used(slot) {
            self.entries[slot]
        } else {
            EMPTY_ENTRY
        };
        let is_final = |n: Numbers| (n.pn == 0) != (n.dn == 0);
        // A decided position stays decided: a guess never replaces it (the same position
        // searched again under a tighter ply limit does not make its proof wrong), and a
        // proof is replaced only by a shorter one.
        if is_final(old.numbers) && !is_final(numbers) {
            return;
        }
        if old.key == key && old.numbers.pn == 0 && numbers.pn == 0 && length >= old.length {
            return;
        }
        self.entries[slot] = Entry {
            key,
            numbers,
            length,
            best,
        };
        self.used[slot / WORD_BITS] |= 1 << (slot % WORD_BITS);
    }

    /// Forgets everything: the bitmap is emptied, and the entries it no longer marks are
    /// never read again (a lookup of an unmarked slot finds nothing, a store into one
    /// takes it as empty). The entries are not touched: writing them over touched every
    /// page at each `go mate` and each of its shortening passes, and allocating them anew
    /// (as before the bitmap) cost a page fault on each page written again after every
    /// pass (a tenth of a `go mate`'s time went to the kernel).
    pub fn clear(&mut self) {
        self.used.fill(0);
    }

    /// Per mille of the first thousand slots in use.
    pub fn hashfull(&self) -> u32 {
        let sample = self.entries.len().min(1000);
        let used = (0..sample).filter(|&slot| self.is_used(slot)).count();
        (used * 1000 / sample.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mate::INFINITE;

    #[test]
    fn a_final_result_is_not_replaced_by_a_guess() {
        let mut t = Table::new(0);
        let proven = Numbers {
            pn: 0,
            dn: INFINITE,
        };
        t.put(1, proven, 3, Move::NULL);
        t.put(2, Numbers { pn: 5, dn: 2 }, 0, Move::NULL);
        assert_eq!(t.get(1).map(|e| (e.numbers, e.length)), Some((proven, 3)));
        assert_eq!(t.get(2), None);
        // Nor by a guess about the same position, nor by a longer proof of it.
        t.put(1, Numbers { pn: 5, dn: 2 }, 0, Move::NULL);
        t.put(1, proven, 7, Move::NULL);
        assert_eq!(t.get(1).map(|e| (e.numbers, e.length)), Some((proven, 3)));
        t.put(1, proven, 1, Move::NULL);
        assert_eq!(t.get(1).map(|e| e.length), Some(1));
        // The same position is updated, and another final result takes the slot.
        t.put(
            3,
            Numbers {
                pn: INFINITE,
                dn: 0,
            },
            0,
            Move::NULL,
        );
        assert!(t.get(1).is_none() && t.get(3).is_some());
        t.clear();
        assert_eq!(t.get(3), None);
    }

    #[test]
    fn a_table_keeps_within_its_bytes_finds_what_it_stored_and_forgets_it_when_cleared() {
        let proven = Numbers {
            pn: 0,
            dn: INFINITE,
        };
        // Small and large, both keep their slot count.
        for bytes in [1000, 3 << 20] {
            let mut t = Table::with_bytes(bytes);
            let (size, slots) = (t.size_bytes(), t.entries.len());
            let entries_bytes = slots * std::mem::size_of::<Entry>();
            assert!(entries_bytes <= bytes && entries_bytes > bytes * 97 / 100);
            assert!(
                size <= bytes + bytes / 150,
                "{size} of {bytes}: the bitmap is small"
            );
            let keys: Vec<u64> = (1..=20u64)
                .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
                .collect();
            for (i, &key) in keys.iter().enumerate() {
                t.put(key, proven, i as u16, Move::NULL);
            }
            // Every key is found unless a later one took its slot.
            for (i, &key) in keys.iter().enumerate() {
                let overwritten = keys[i + 1..].iter().any(|&k| t.slot(k) == t.slot(key));
                let found = t.get(key).map(|e| e.length);
                assert_eq!(found, (!overwritten).then_some(i as u16), "key {i}");
            }
            assert_eq!(t.get(12345), None);
            let filled = (0..t.entries.len()).filter(|&slot| t.is_used(slot)).count();
            assert!(filled > 10 && filled <= keys.len());
            t.clear();
            assert!(keys.iter().all(|&k| t.get(k).is_none()));
            assert_eq!(t.hashfull(), 0);
            // A store after the clear is not held back by what the slot held before it.
            t.put(keys[0], Numbers { pn: 3, dn: 4 }, 0, Move::NULL);
            assert_eq!(t.get(keys[0]).map(|e| e.numbers.pn), Some(3));
            assert_eq!((t.size_bytes(), t.entries.len()), (size, slots));
        }
    }
}
