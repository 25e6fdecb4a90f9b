//! The transposition table, shared by all search threads without locks and without
//! `unsafe`.
//!
//! An entry is two `AtomicU64`: `check = key ^ data` and `data`. A reader loads both and
//! accepts the entry only if `check ^ data == key`: a write torn between two threads (one
//! word from each) fails the test and reads as a miss. Four entries make a 64-byte bucket
//! (one cache line); the bucket is chosen by the high half of `key * buckets`. The memory
//! comes zeroed from the allocator, so a table of any size is made at once. Replacement
//! prefers the same key, then the entry with the lowest `depth - 8 * age`, where age counts
//! searches (generations) since it was written. Mate scores are stored relative to the node.
//!
//! `data` layout: bits 0-25 move (`Move::raw`, 26 bits), 26-41 score (i16), 42-49 depth + 32
//! (u8), 50-51 bound, 52-57 generation (6 bits), bit 58 always set (so `data != 0`).

use crate::core::score::{from_tt, to_tt, Score};
use crate::core::Move;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};

/// What a stored score says about the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at most this (no move reached alpha).
    Upper = 1,
    /// The true score is at least this (a move reached beta).
    Lower = 2,
    /// The score is exact.
    Exact = 3,
}

impl Bound {
    /// The bound a search result `best` proves, given the window it was searched with.
    pub fn of(best: Score, original_alpha: Score, beta: Score) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

/// A table hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// The best move found, if any.
    pub mv: Option<Move>,
    /// Score, already converted back to the probing node's ply.
    pub score: Score,
    /// Depth of the search that stored it.
    pub depth: i32,
    /// Bound type.
    pub bound: Bound,
}

#[derive(bytemuck::Zeroable)]
#[repr(C)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// Entries a bucket: four slots of 16 bytes, one 64-byte cache line.
const BUCKET_SLOTS: usize = 4;
const BUCKET_BYTES: usize = BUCKET_SLOTS * std::mem::size_of::<Slot>();

const MOVE_BITS: u64 = (1 << 26) - 1;
const PRESENT: u64 = 1 << 58;

fn pack(mv: Option<Move>, score: Score, depth: i32, bound: Bound, generation: u8) -> u64 {
    let mv = mv.map_or(0, |m| m.raw() as u64 & MOVE_BITS);
    let score = (score.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16) as u64;
    let depth = (depth + 32).clamp(0, 255) as u64;
    mv | score << 26
        | depth << 42
        | (bound as u64) << 50
        | ((generation & 63) as u64) << 52
        | PRESENT
}

fn unpack(data: u64) -> (Option<Move>, Score, i32, Bound, u8) {
    let raw = (data & MOVE_BITS) as u32;
    let mv = (raw != 0).then(|| Move::from_raw(raw));
    let score = ((data >> 26) & 0xffff) as u16 as i16 as Score;
    let depth = ((data >> 42) & 0xff) as i32 - 32;
    let bound = match (data >> 50) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        _ => Bound::Exact,
    };
    (mv, score, depth, bound, ((data >> 52) & 63) as u8)
}

impl TtEntry {
    /// Whether the stored score settles a node searched with the window `alpha..beta`.
    pub fn cuts(&self, alpha: Score, beta: Score) -> bool {
        match self.bound {
            Bound::Exact => true,
            Bound::Lower => self.score >= beta,
            Bound::Upper => self.score <= alpha,
        }
    }
}

/// The shared hash table.
pub struct TranspositionTable {
    /// The slots, zeroed when made; bucket `i` is `slots[first + 4 i ..][..4]`.
    slots: Box<[Slot]>,
    /// Where bucket 0 starts: the first slot on a 64-byte boundary, so that a bucket is one
    /// cache line. (A type aligned to 64 bytes would be simpler, but the allocator zeroes
    /// memory of such alignment by writing it, which is what the zeroed allocation avoids.)
    first: usize,
    /// Number of buckets.
    buckets: usize,
    generation: AtomicU8,
}

/// A hash table of this size cannot be had on this machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot allocate a {mb} MB hash table")]
pub struct NoMemory {
    /// The size asked for, in MB.
    pub mb: usize,
}

/// The largest table backed by huge pages, bytes.
const HUGE_PAGES_UP_TO: usize = 1 << 30;

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one bucket). Panics if the memory cannot be
    /// had; see [`TranspositionTable::try_new`].
    pub fn new(mb: usize) -> TranspositionTable {
        Self::try_new(mb).expect("memory for the hash table")
    }

    /// A table of about `mb` megabytes, or an error if the memory cannot be had.
    pub fn try_new(mb: usize) -> Result<TranspositionTable, NoMemory> {
        Self::try_with_bytes(mb.max(1) << 20).ok_or(NoMemory { mb })
    }

    /// A table of at most `bytes` (at least one bucket), or `None` if the memory cannot be
    /// had. The memory comes zeroed from the allocator (an empty slot is all zeros), so this
    /// is instant whatever the size: the kernel provides each page when it is first written.
    /// Filling the table entry by entry took 12 s for 4 GB.
    pub fn try_with_bytes(bytes: usize) -> Option<TranspositionTable> {
        let buckets = (bytes / BUCKET_BYTES).max(1);
        // Room to move bucket 0 onto a cache line: the memory is 16-byte aligned.
        let spare = BUCKET_SLOTS - 1;
        let slots: Box<[Slot]> =
            bytemuck::allocation::try_zeroed_slice_box(buckets * BUCKET_SLOTS + spare).ok()?;
        // Huge pages make each random probe cheaper (4-5% more nodes a second at 64 MB), but
        // a huge page is resident once any entry of it is written: a big table would soon
        // be resident whole. Up to 1 GB that is the memory asked for; beyond, the table
        // stays resident only where used, in small pages (issue 29: a 4 GB table that a
        // short search touches here and there).
        if bytes <= HUGE_PAGES_UP_TO {
            crate::core::prefetch::advise_huge_pages(&slots);
        }
        let misalignment = slots.as_ptr() as usize % BUCKET_BYTES;
        let first = (BUCKET_BYTES - misalignment) % BUCKET_BYTES / std::mem::size_of::<Slot>();
        Some(TranspositionTable {
            slots,
            first,
            buckets,
            generation: AtomicU8::new(0),
        })
    }

    /// Size in bytes.
    pub fn size_bytes(&self) -> usize {
        self.buckets * BUCKET_BYTES
    }

    /// Empties the table: a new zeroed allocation of the same size (the old one is freed
    /// first), as fast as making the table.
    pub fn clear(&mut self) {
        let bytes = self.size_bytes();
        self.slots = Box::new([]);
        *self = Self::with_bytes_or_one_bucket(bytes);
    }

    /// A table of `bytes`; should the memory be refused (it was just freed, so it hardly
    /// can be), one bucket, with an error logged.
    pub fn with_bytes_or_one_bucket(bytes: usize) -> TranspositionTable {
        Self::try_with_bytes(bytes).unwrap_or_else(|| {
            log::error!("cannot allocate a {bytes}-byte hash table; using one bucket");
            Self::try_with_bytes(0).expect("one bucket")
        })
    }

    /// Starts a new search: older entries age.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Relaxed);
    }

    fn bucket(&self, key: u64) -> &[Slot] {
        let index = ((key as u128 * self.buckets as u128) >> 64) as usize;
        let start = self.first + index * BUCKET_SLOTS;
        &self.slots[start..start + BUCKET_SLOTS]
    }

    /// Starts loading the bucket of `key` into the cache (a probe of it follows soon).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        crate::core::prefetch::prefetch(&self.bucket(key)[0]);
    }

    /// The entry for `key`, with its score converted to `ply`.
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtEntry> {
        for slot in self.bucket(key) {
            let data = slot.data.load(Relaxed);
            let check = slot.check.load(Relaxed);
            if data != 0 && check ^ data == key {
                let (mv, score, depth, bound, _) = unpack(data);
                return Some(TtEntry {
                    mv,
                    score: from_tt(score, ply),
                    depth,
                    bound,
                });
            }
        }
        None
    }

    /// Stores a search result for `key` found at `ply`.
    pub fn store(
        &self,
        key: u64,
        mv: Option<Move>,
        score: Score,
        depth: i32,
        bound: Bound,
        ply: usize,
    ) {
        let generation = self.generation.load(Relaxed) & 63;
        let bucket = self.bucket(key);
        let mut victim = &bucket[0];
        let mut victim_worth = i32::MAX;
        for slot in bucket {
            let data = slot.data.load(Relaxed);
            let check = slot.check.load(Relaxed);
            if data == 0 || check ^ data == key {
                if data != 0 && check ^ data == key {
                    let (old_mv, _, old_depth, _, _) = unpack(data);
                    // Keep a deeper exact-enough entry of this position, and its move.
                    if bound != Bound::Exact && depth + 2 < old_depth {
                        return;
                    }
                    let mv = mv.or(old_mv);
                    return Self::write(
                        slot,
                        key,
                        pack(mv, to_tt(score, ply), depth, bound, generation),
                    );
                }
                victim = slot;
                victim_worth = i32::MIN;
                continue;
            }
            let (_, _, old_depth, _, old_gen) = unpack(data);
            let age = (generation.wrapping_sub(old_gen) & 63) as i32;
            let worth = old_depth - 8 * age;
            if worth < victim_worth {
                victim_worth = worth;
                victim = slot;
            }
        }
        Self::write(
            victim,
            key,
            pack(mv, to_tt(score, ply), depth, bound, generation),
        );
    }

    fn write(slot: &Slot, key: u64, data: u64) {
        slot.data.store(data, Relaxed);
        slot.check.store(key ^ data, Relaxed);
    }

    /// Permille of the first thousand entries written in this search (USI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Relaxed) & 63;
        let sample = &self.slots[self.first..][..(self.buckets * BUCKET_SLOTS).min(1000)];
        let used = sample
            .iter()
            .map(|slot| slot.data.load(Relaxed))
            .filter(|&data| data != 0 && unpack(data).4 == generation)
            .count();
        (used * 1000 / sample.len()) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::score::{mate_in, mated_in};
    use crate::core::Square;

    #[test]
    fn pack_unpack_round_trip() {
        let moves = [
            None,
            Some(Move::new(Square(17), Square(200), true)),
            Some(Move::double(Square(40), Square(41), Square(40))),
        ];
        for mv in moves {
            for score in [0, 1, -1, 12345, -20000, mate_in(3), mated_in(8)] {
                for depth in [-5, 0, 1, 17, 120] {
                    for bound in [Bound::Upper, Bound::Lower, Bound::Exact] {
                        for generation in [0u8, 1, 63] {
                            let data = pack(mv, score, depth, bound, generation);
                            assert_eq!(unpack(data), (mv, score, depth, bound, generation));
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn store_probe_and_mate_scores_by_ply() {
        let mut tt = TranspositionTable::new(1);
        let mv = Some(Move::new(Square(1), Square(2), false));
        tt.store(0xDEAD_BEEF, mv, mate_in(10), 7, Bound::Exact, 4);
        let hit = tt.probe(0xDEAD_BEEF, 4).unwrap();
        assert_eq!(
            (hit.mv, hit.score, hit.depth, hit.bound),
            (mv, mate_in(10), 7, Bound::Exact)
        );
        // Read two plies deeper: the mate is two plies nearer the root's count.
        assert_eq!(tt.probe(0xDEAD_BEEF, 6).unwrap().score, mate_in(12));
        assert_eq!(tt.probe(0xBEEF, 4), None);
        tt.clear();
        assert_eq!(tt.probe(0xDEAD_BEEF, 4), None);
    }

    #[test]
    fn torn_writes_are_rejected() {
        let tt = TranspositionTable::new(1);
        let (a, b) = (0x1234_5678_9abc_def0u64, 0x0fed_cba9_8765_4321u64);
        tt.store(a, None, 50, 3, Bound::Lower, 0);
        // Simulate another thread's write tearing ours: data from b's entry, check from a's.
        let slot = tt
            .bucket(a)
            .iter()
            .find(|s| s.data.load(Relaxed) != 0)
            .unwrap();
        let foreign = pack(
            Some(Move::new(Square(3), Square(4), false)),
            -70,
            9,
            Bound::Upper,
            0,
        );
        slot.data.store(foreign, Relaxed);
        assert_eq!(tt.probe(a, 0), None, "a torn entry must read as a miss");
        assert_eq!(tt.probe(b, 0), None);
    }

    #[test]
    fn replacement_keeps_deep_entries_and_hashfull_counts() {
        let tt = TranspositionTable::new(1);
        // Fill one bucket with five keys that map to it.
        let buckets = tt.buckets as u128;
        let keys: Vec<u64> = (0u64..)
            .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .filter(|&k| ((k as u128 * buckets) >> 64) == 0)
            .take(5)
            .collect();
        for (i, &k) in keys.iter().enumerate().take(4) {
            tt.store(k, None, 0, 10 + i as i32, Bound::Exact, 0);
        }
        tt.store(keys[4], None, 0, 1, Bound::Exact, 0);
        // The shallowest of the first four (depth 10) made room.
        assert!(tt.probe(keys[0], 0).is_none());
        assert!(tt.probe(keys[3], 0).is_some() && tt.probe(keys[4], 0).is_some());
        assert!(tt.hashfull() <= 1000);
    }
}
