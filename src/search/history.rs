//! Move-ordering memory of one search thread: history (by piece and destination), killers
//! (two quiet moves per ply that caused a cut-off) and countermoves (the reply that refuted
//! a given previous move). Sized for 64 kinds x 256 squares, no larger.

use crate::core::{Color, Move, Square};
use crate::variant::{Kind, MAX_KINDS};

/// Largest absolute history score.
pub const HISTORY_MAX: i32 = 16_384;

/// The tables of one thread.
pub struct History {
    quiet: Vec<i32>,
    counter: Vec<Move>,
    killers: Vec<[Move; 2]>,
}

fn index(color: Color, kind: Kind, to: Square) -> usize {
    (color.index() * MAX_KINDS + kind as usize) * 256 + to.index()
}

impl History {
    /// Empty tables for plies up to `max_ply`.
    pub fn new(max_ply: usize) -> History {
        History {
            quiet: vec![0; 2 * MAX_KINDS * 256],
            counter: vec![Move::NULL; 2 * MAX_KINDS * 256],
            killers: vec![[Move::NULL; 2]; max_ply + 2],
        }
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.quiet.fill(0);
        self.counter.fill(Move::NULL);
        self.killers.fill([Move::NULL; 2]);
    }

    /// Forgets the killers (each search starts from another root).
    pub fn clear_killers(&mut self) {
        self.killers.fill([Move::NULL; 2]);
    }

    /// The history score of a quiet move of `kind` to `to`.
    #[inline]
    pub fn score(&self, color: Color, kind: Kind, to: Square) -> i32 {
        self.quiet[index(color, kind, to)]
    }

    /// Rewards (`bonus > 0`) or punishes a quiet move, with gravity so scores stay bounded.
    pub fn update(&mut self, color: Color, kind: Kind, to: Square, bonus: i32) {
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        let entry = &mut self.quiet[index(color, kind, to)];
        *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
    }

    /// The killers of `ply`.
    #[inline]
    pub fn killers(&self, ply: usize) -> [Move; 2] {
        self.killers[ply]
    }

    /// Records a quiet move that cut off at `ply`.
    pub fn add_killer(&mut self, ply: usize, mv: Move) {
        let k = &mut self.killers[ply];
        if k[0] != mv {
            k[1] = k[0];
            k[0] = mv;
        }
    }

    /// The countermove to a previous move of `color`'s opponent by `kind` to `to`.
    #[inline]
    pub fn counter(&self, color: Color, kind: Kind, to: Square) -> Move {
        self.counter[index(color, kind, to)]
    }

    /// Records `mv` as the reply to that previous move.
    pub fn set_counter(&mut self, color: Color, kind: Kind, to: Square, mv: Move) {
        self.counter[index(color, kind, to)] = mv;
    }
}
