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
}

impl Table {
    /// A table of about `mb` megabytes (at least one entry).
    pub fn new(mb: usize) -> Table {
        Table::with_bytes(mb << 20)
    }

    /// A table of at most `bytes` (at least one entry). Zeroed memory is an empty table,
    /// so making one is instant whatever its size (the kernel provides each page when it
    /// is first written): `go mate` with a 4 GB hash took 12.8 s to start when the table
    /// was filled entry by entry. Should the memory be refused, a table of one entry, which
    /// still proves short mates (slowly).
    pub fn with_bytes(bytes: usize) -> Table {
        let count = (bytes / std::mem::size_of::<Entry>()).max(1);
        let entries = bytemuck::allocation::try_zeroed_slice_box(count).unwrap_or_else(|()| {
            log::error!("cannot allocate a {bytes}-byte mate table; using one entry");
            bytemuck::allocation::zeroed_slice_box(1)
        });
        Table { entries }
    }

    /// Size in bytes.
    pub fn size_bytes(&self) -> usize {
        self.entries.len() * std::mem::size_of::<Entry>()
    }

    fn slot(&self, key: u64) -> usize {
        ((key as u128 * self.entries.len() as u128) >> 64) as usize
    }

    /// The entry for `key`, if the table has it.
    pub fn get(&self, key: u64) -> Option<Entry> {
        let e = self.entries[self.slot(key)];
        (e.key == key && e.numbers != EMPTY).then_some(e)
    }

    /// Stores what is known of `key`.
    pub fn put(&mut self, key: u64, numbers: Numbers, length: u16, best: Move) {
        let slot = self.slot(key);
        let old = self.entries[slot];
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
    }

    /// Forgets everything. A large table is allocated anew (zeroed, at once; the old one
    /// freed first) rather than written over, which touched every page of it at each
    /// `go mate` and each of its shortening passes.
    pub fn clear(&mut self) {
        const FILL_BELOW_BYTES: usize = 1 << 20;
        let bytes = self.size_bytes();
        if bytes < FILL_BELOW_BYTES {
            self.entries.fill(EMPTY_ENTRY);
        } else {
            self.entries = Box::new([]);
            *self = Table::with_bytes(bytes);
        }
    }

    /// Per mille of the first thousand slots in use.
    pub fn hashfull(&self) -> u32 {
        let sample = self.entries.len().min(1000);
        let used = self.entries[..sample]
            .iter()
            .filter(|e| e.numbers != EMPTY)
            .count();
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
}
