//! The move type: 32 bits that name a plain move, a promotion or a two-step lion move.
//!
//! Layout: bits 0-7 `from`, 8-15 `to`, 16-23 `mid` (the first step of a double move),
//! bit 24 DOUBLE, bit 25 PROMOTE. `to` is always explicit, so tables indexed by the
//! destination treat every move alike; igui and jitto are double moves with `to == from`.
//! We keep the mid *square* rather than a 3-bit direction: it costs nothing in 32 bits and
//! saves a direction table in make/unmake.

use super::square::Square;

const DOUBLE: u32 = 1 << 24;
const PROMOTE: u32 = 1 << 25;

/// A move. Its meaning depends on the position it is played in (what stands on the squares).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, bytemuck::Zeroable)]
pub struct Move(u32);

impl Move {
    /// The null move (a pass of the turn in null-move pruning; never generated: `from == to`
    /// with no mid square is no real move).
    pub const NULL: Move = Move(0);

    /// A one-leg move (step, slide or jump), optionally promoting.
    #[inline]
    pub const fn new(from: Square, to: Square, promote: bool) -> Move {
        Move(from.0 as u32 | (to.0 as u32) << 8 | if promote { PROMOTE } else { 0 })
    }

    /// A two-step move `from -> mid -> to` (lion, or falcon/eagle along its lion line).
    #[inline]
    pub const fn double(from: Square, mid: Square, to: Square) -> Move {
        Move(from.0 as u32 | (to.0 as u32) << 8 | (mid.0 as u32) << 16 | DOUBLE)
    }

    /// Where the piece starts.
    #[inline]
    pub const fn from(self) -> Square {
        Square(self.0 as u8)
    }

    /// Where the piece ends (equal to `from` for igui and jitto).
    #[inline]
    pub const fn to(self) -> Square {
        Square((self.0 >> 8) as u8)
    }

    /// The first-step square of a double move.
    #[inline]
    pub const fn mid(self) -> Option<Square> {
        if self.0 & DOUBLE != 0 {
            Some(Square((self.0 >> 16) as u8))
        } else {
            None
        }
    }

    /// Whether this is a two-step move.
    #[inline]
    pub const fn is_double(self) -> bool {
        self.0 & DOUBLE != 0
    }

    /// Whether the moving piece promotes.
    #[inline]
    pub const fn is_promotion(self) -> bool {
        self.0 & PROMOTE != 0
    }

    /// The raw 32-bit encoding (stable; used by hash tables).
    #[inline]
    pub const fn raw(self) -> u32 {
        self.0
    }

    /// Rebuilds a move from [`Move::raw`].
    #[inline]
    pub const fn from_raw(raw: u32) -> Move {
        Move(raw)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_round_trip() {
        for from in [0u8, 17, 143, 255] {
            for to in [0u8, 1, 100, 255] {
                for promote in [false, true] {
                    let m = Move::new(Square(from), Square(to), promote);
                    assert_eq!(
                        (m.from().0, m.to().0, m.is_promotion(), m.mid()),
                        (from, to, promote, None)
                    );
                    assert_eq!(Move::from_raw(m.raw()), m);
                }
                let d = Move::double(Square(from), Square(77), Square(to));
                assert_eq!(
                    (d.from().0, d.mid(), d.to().0, d.is_promotion()),
                    (from, Some(Square(77)), to, false)
                );
            }
        }
    }
}
