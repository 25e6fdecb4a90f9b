//! A small cache of static evaluations, one per search thread, by position key: iterative
//! deepening, re-searches after a reduction or a null window, and transpositions evaluate
//! the same positions again, and the evaluation is a third of the search's time. The
//! evaluation is a function of the position alone, so a hit returns exactly what
//! [`Evaluator::evaluate`] would: the search is the same, only faster.

use crate::core::score::Score;
use crate::eval::{Evaluator, Mobility};
use crate::position::Position;

/// Entries (a power of two): 16 bytes each, 1 MB a thread.
const ENTRIES: usize = 1 << 16;

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    score: Score,
    filled: bool,
}

/// A direct-mapped table of evaluations by the full position key.
pub struct EvalCache {
    entries: Vec<Entry>,
}

impl Default for EvalCache {
    fn default() -> EvalCache {
        EvalCache {
            entries: vec![Entry::default(); ENTRIES],
        }
    }
}

impl EvalCache {
    /// Starts loading the entry of `key` into the cache (a look-up of it follows soon).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        crate::core::prefetch::prefetch(&self.entries[key as usize & (ENTRIES - 1)]);
    }

    /// The evaluation of `pos` (side to move's view), whose mobility is `mobility`, from
    /// the cache or computed and kept.
    #[inline]
    pub fn evaluate(&mut self, ev: &Evaluator, pos: &Position, mobility: Mobility) -> Score {
        let key = pos.key();
        let entry = &mut self.entries[key as usize & (ENTRIES - 1)];
        if entry.filled && entry.key == key {
            return entry.score;
        }
        let score = ev.evaluate_with_mobility(pos, mobility);
        *entry = Entry {
            key,
            score,
            filled: true,
        };
        score
    }
}
