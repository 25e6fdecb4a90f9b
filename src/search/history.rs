//! Move-ordering memory of one search thread: history (by piece and destination), killers
//! (two quiet moves per ply that caused a cut-off), countermoves (the reply that refuted
//! a given previous move) and, with the search constant `follow_up_history`, the follow-up
//! history (a quiet move's history as the answer to a move to a given square). Sized for
//! 64 kinds x 256 squares, no larger; the follow-up table for the board it is fitted to.

use crate::core::square::GRID;
use crate::core::{Color, Move, Square};
use crate::variant::{Kind, MAX_KINDS};

/// Largest absolute history score.
pub const HISTORY_MAX: i32 = 16_384;

/// The tables of one thread.
pub struct History {
    quiet: Vec<i32>,
    counter: Vec<Move>,
    killers: Vec<[Move; 2]>,
    /// The follow-up history, by the side to move, the square the opponent's last move
    /// went to, and the quiet move's kind and destination (empty until fitted to a board,
    /// [`History::fit_follow_up`]: chu's is 2.7 M entries, 5.3 MB, so only a search that
    /// uses it pays for it). Keyed by the square alone, not the piece that went there, to
    /// stay that small: the piece standing there is the one that moved.
    follow_up: Vec<i16>,
    /// The board the follow-up table is sized for: files, and squares (files x ranks).
    follow_up_files: usize,
    follow_up_cells: usize,
}

fn index(color: Color, kind: Kind, to: Square) -> usize {
    (color.index() * MAX_KINDS + kind as usize) * 256 + to.index()
}

/// `entry` moved by `bonus` (clamped to the largest score) and pulled back towards 0 in
/// proportion to the bonus, so that it stays within [-HISTORY_MAX, HISTORY_MAX].
fn gravity(entry: i32, bonus: i32) -> i32 {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    entry + bonus - entry * bonus.abs() / HISTORY_MAX
}

impl History {
    /// Empty tables for plies up to `max_ply`.
    pub fn new(max_ply: usize) -> History {
        History {
            quiet: vec![0; 2 * MAX_KINDS * 256],
            counter: vec![Move::NULL; 2 * MAX_KINDS * 256],
            killers: vec![[Move::NULL; 2]; max_ply + 2],
            follow_up: Vec::new(),
            follow_up_files: 0,
            follow_up_cells: 0,
        }
    }

    /// Sizes the follow-up table for a board of `files` x `ranks` (kept, with what it
    /// learnt, when it already is).
    pub fn fit_follow_up(&mut self, files: usize, ranks: usize) {
        let cells = files * ranks;
        if self.follow_up_files == files && self.follow_up_cells == cells {
            return;
        }
        self.follow_up = vec![0; 2 * cells * MAX_KINDS * cells];
        self.follow_up_files = files;
        self.follow_up_cells = cells;
    }

    fn cell(&self, sq: Square) -> usize {
        sq.index() / GRID * self.follow_up_files + sq.index() % GRID
    }

    fn follow_up_index(&self, color: Color, after: Square, kind: Kind, to: Square) -> usize {
        let cells = self.follow_up_cells;
        ((color.index() * cells + self.cell(after)) * MAX_KINDS + kind as usize) * cells
            + self.cell(to)
    }

    /// The follow-up history of a quiet move of `kind` to `to` answering a move to
    /// `after` (0 while the table is not fitted).
    #[inline]
    pub fn follow_up_score(&self, color: Color, after: Square, kind: Kind, to: Square) -> i32 {
        if self.follow_up.is_empty() {
            return 0;
        }
        i32::from(self.follow_up[self.follow_up_index(color, after, kind, to)])
    }

    /// Rewards or punishes a quiet move as the answer to a move to `after`, with the same
    /// gravity as [`History::update`] (a no-op while the table is not fitted).
    pub fn update_follow_up(
        &mut self,
        color: Color,
        after: Square,
        kind: Kind,
        to: Square,
        bonus: i32,
    ) {
        if self.follow_up.is_empty() {
            return;
        }
        let i = self.follow_up_index(color, after, kind, to);
        let entry = &mut self.follow_up[i];
        *entry = gravity(i32::from(*entry), bonus) as i16;
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.quiet.fill(0);
        self.counter.fill(Move::NULL);
        self.killers.fill([Move::NULL; 2]);
        self.follow_up.fill(0);
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
        let entry = &mut self.quiet[index(color, kind, to)];
        *entry = gravity(*entry, bonus);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_follow_up_table_learns_only_once_fitted_and_keys_by_both_squares() {
        let mut h = History::new(4);
        let (after, other) = (Square::new(3, 4), Square::new(4, 3));
        let (to, kind) = (Square::new(11, 11), 5);
        // Not fitted: nothing is kept.
        h.update_follow_up(Color::Sente, after, kind, to, 400);
        assert_eq!(h.follow_up_score(Color::Sente, after, kind, to), 0);
        h.fit_follow_up(12, 12);
        h.update_follow_up(Color::Sente, after, kind, to, 400);
        assert_eq!(h.follow_up_score(Color::Sente, after, kind, to), 400);
        // Another answered square, side, kind or destination is another entry.
        assert_eq!(h.follow_up_score(Color::Sente, other, kind, to), 0);
        assert_eq!(h.follow_up_score(Color::Gote, after, kind, to), 0);
        assert_eq!(h.follow_up_score(Color::Sente, after, kind + 1, to), 0);
        assert_eq!(
            h.follow_up_score(Color::Sente, after, kind, Square::new(10, 11)),
            0
        );
        // Fitting to the same board keeps what was learnt; a new game forgets it.
        h.fit_follow_up(12, 12);
        assert_eq!(h.follow_up_score(Color::Sente, after, kind, to), 400);
        h.clear();
        assert_eq!(h.follow_up_score(Color::Sente, after, kind, to), 0);
    }

    #[test]
    fn gravity_keeps_scores_within_the_largest() {
        let mut entry = 0;
        for _ in 0..100 {
            entry = gravity(entry, 3 * HISTORY_MAX);
            assert!(entry <= HISTORY_MAX);
        }
        assert_eq!(entry, HISTORY_MAX);
        for _ in 0..100 {
            entry = gravity(entry, -HISTORY_MAX / 2);
            assert!(entry >= -HISTORY_MAX);
        }
        assert!(entry < 0);
    }
}
