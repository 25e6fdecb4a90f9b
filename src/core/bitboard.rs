//! 256-bit square sets over the 16 x 16 grid (bit `i` = square index `i`).
//!
//! Four `u64` words; 144 squares do not fit a `u128`. The type offers set algebra and
//! iteration only: move generation uses per-square tables, never shifts, so a 15-wide board
//! with one spare column needs no special case.

use super::square::Square;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub [u64; 4]);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard([0; 4]);

    /// The set holding only `sq`.
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        let mut words = [0u64; 4];
        words[sq.0 as usize >> 6] = 1u64 << (sq.0 & 63);
        Bitboard(words)
    }

    /// Whether `sq` is in the set.
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0[sq.0 as usize >> 6] >> (sq.0 & 63) & 1 != 0
    }

    /// Adds `sq`.
    #[inline]
    pub fn insert(&mut self, sq: Square) {
        self.0[sq.0 as usize >> 6] |= 1u64 << (sq.0 & 63);
    }

    /// Removes `sq`.
    #[inline]
    pub fn remove(&mut self, sq: Square) {
        self.0[sq.0 as usize >> 6] &= !(1u64 << (sq.0 & 63));
    }

    /// Flips `sq` in or out.
    #[inline]
    pub fn toggle(&mut self, sq: Square) {
        self.0[sq.0 as usize >> 6] ^= 1u64 << (sq.0 & 63);
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        (self.0[0] | self.0[1] | self.0[2] | self.0[3]) == 0
    }

    /// Number of squares in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0[0].count_ones()
            + self.0[1].count_ones()
            + self.0[2].count_ones()
            + self.0[3].count_ones()
    }

    /// The lowest square in the set, if any.
    #[inline]
    pub fn first(self) -> Option<Square> {
        for (i, w) in self.0.iter().enumerate() {
            if *w != 0 {
                return Some(Square((i * 64 + w.trailing_zeros() as usize) as u8));
            }
        }
        None
    }

    /// The highest square in the set, if any.
    #[inline]
    pub fn last(self) -> Option<Square> {
        for i in (0..4).rev() {
            let w = self.0[i];
            if w != 0 {
                return Some(Square((i * 64 + 63 - w.leading_zeros() as usize) as u8));
            }
        }
        None
    }

    /// Iterates the squares from lowest to highest index.
    #[inline]
    pub fn iter(self) -> BitboardIter {
        BitboardIter {
            words: self.0,
            current: self.0[0],
            word: 0,
        }
    }
}

/// Iterator over the squares of a [`Bitboard`].
pub struct BitboardIter {
    words: [u64; 4],
    /// The word being emptied (its squares not yet given), and its index.
    current: u64,
    word: usize,
}

impl Iterator for BitboardIter {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        while self.current == 0 {
            if self.word == 3 {
                return None;
            }
            self.word += 1;
            self.current = self.words[self.word];
        }
        let bit = self.current.trailing_zeros() as usize;
        self.current &= self.current - 1;
        Some(Square((self.word * 64 + bit) as u8))
    }
}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = BitboardIter;
    fn into_iter(self) -> BitboardIter {
        self.iter()
    }
}

macro_rules! word_op {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, o: Bitboard) -> Bitboard {
                Bitboard([self.0[0] $op o.0[0], self.0[1] $op o.0[1], self.0[2] $op o.0[2], self.0[3] $op o.0[3]])
            }
        }
        impl $tra for Bitboard {
            #[inline]
            fn $fa(&mut self, o: Bitboard) {
                *self = *self $op o;
            }
        }
    };
}
word_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
word_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
word_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard([!self.0[0], !self.0[1], !self.0[2], !self.0[3]])
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for sq in iter {
            b.insert(sq);
        }
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_algebra_matches_a_naive_set() {
        // A fixed pseudo-random walk over all 256 indices, checked against a bool array.
        let mut naive = [false; 256];
        let mut bb = Bitboard::EMPTY;
        let mut x: u32 = 12345;
        for _ in 0..2000 {
            x = x.wrapping_mul(1103515245).wrapping_add(12345);
            let sq = Square((x >> 16) as u8);
            if x & 1 == 0 {
                bb.insert(sq);
                naive[sq.index()] = true;
            } else {
                bb.remove(sq);
                naive[sq.index()] = false;
            }
            assert_eq!(bb.contains(sq), naive[sq.index()]);
        }
        let listed: Vec<usize> = bb.iter().map(|s| s.index()).collect();
        let expected: Vec<usize> = (0..256).filter(|&i| naive[i]).collect();
        assert_eq!(listed, expected);
        assert_eq!(bb.count() as usize, expected.len());
        assert_eq!(bb.first().map(|s| s.index()), expected.first().copied());
        let other: Bitboard = (0..256).step_by(3).map(|i| Square(i as u8)).collect();
        let and: Vec<usize> = (bb & other).iter().map(|s| s.index()).collect();
        assert_eq!(
            and,
            expected
                .iter()
                .copied()
                .filter(|i| i % 3 == 0)
                .collect::<Vec<_>>()
        );
        assert_eq!((bb ^ bb), Bitboard::EMPTY);
        assert_eq!(!(!bb), bb);
        assert!((bb | other).count() >= other.count());
    }
}
