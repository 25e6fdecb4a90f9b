//! Sums over the pieces on the board that the position keeps up to date as pieces come
//! and go: a client (the evaluation) hands a [`PieceSquareTable`] of [`SUMS`] numbers per
//! (colour, kind, square) to [`Position::track_square_sums`] and reads their sums with
//! [`Position::square_sums`], without visiting the pieces. Each piece put on or taken off
//! a square adds or subtracts its entry, so the sums cost a few additions per change.

use super::Position;
use crate::core::{Color, Square};
use crate::variant::Kind;

/// How many numbers an entry holds.
pub const SUMS: usize = 3;

/// An entry of the table, or the sums over the pieces.
pub type Sums = [i32; SUMS];

/// [`SUMS`] numbers per (colour, kind, square) of one variant, to be summed over the pieces.
#[derive(Clone)]
pub struct PieceSquareTable {
    /// Kinds of the variant (the stride of a colour).
    kinds: usize,
    /// Index `(colour * kinds + kind) * 256 + square`.
    entries: Vec<Sums>,
}

impl PieceSquareTable {
    /// The table of `entry` for `kinds` kinds on the 256 squares of the grid.
    pub fn new(kinds: usize, mut entry: impl FnMut(Color, Kind, Square) -> Sums) -> Self {
        let mut entries = Vec::with_capacity(2 * kinds * 256);
        for color in Color::ALL {
            for kind in 0..kinds {
                for sq in 0..256 {
                    entries.push(entry(color, kind as Kind, Square(sq as u8)));
                }
            }
        }
        PieceSquareTable { kinds, entries }
    }

    /// The entry of a `color` piece of `kind` on `sq`.
    #[inline]
    pub fn get(&self, color: Color, kind: Kind, sq: Square) -> Sums {
        self.entries[(color.index() * self.kinds + kind as usize) * 256 + sq.index()]
    }

    /// The sums over the pieces of `pos`, from scratch.
    pub fn sums(&self, pos: &Position) -> Sums {
        let mut sums = [0; SUMS];
        for color in Color::ALL {
            for sq in pos.occupied(color) {
                let entry = self.get(color, pos.piece_on(sq).kind(), sq);
                for (sum, term) in sums.iter_mut().zip(entry) {
                    *sum += term;
                }
            }
        }
        sums
    }
}

/// The table a position sums, and the sums.
#[derive(Clone, Copy, Default)]
pub(super) struct Tracked {
    table: Option<&'static PieceSquareTable>,
    sums: Sums,
}

impl Tracked {
    /// A piece of `color` and `kind` arrives on `sq` (`sign` 1) or leaves it (`sign` -1).
    #[inline]
    pub(super) fn change(&mut self, color: Color, kind: Kind, sq: Square, sign: i32) {
        if let Some(table) = self.table {
            let entry = table.get(color, kind, sq);
            for (sum, term) in self.sums.iter_mut().zip(entry) {
                *sum += sign * term;
            }
        }
    }
}

impl Position {
    /// From now on (this position and its clones), keep the sums of `table` over the
    /// pieces up to date.
    pub fn track_square_sums(&mut self, table: &'static PieceSquareTable) {
        self.square_sums = Tracked {
            table: Some(table),
            sums: table.sums(self),
        };
    }

    /// The sums of `table` over the pieces, if this position keeps them (see
    /// [`Position::track_square_sums`]).
    #[inline]
    pub fn square_sums(&self, table: &PieceSquareTable) -> Option<Sums> {
        let tracked = self.square_sums;
        tracked
            .table
            .filter(|t| std::ptr::eq(*t, table))
            .map(|_| tracked.sums)
    }

    /// Checks the kept sums against sums from scratch (for `debug_validate`).
    pub(super) fn validate_square_sums(&self) {
        if let Some(table) = self.square_sums.table {
            assert_eq!(
                self.square_sums.sums,
                table.sums(self),
                "kept square sums differ from the sums from scratch"
            );
        }
    }
}
