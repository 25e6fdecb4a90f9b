//! Mobility: how many squares each side's ranging pieces reach (empty squares along their
//! lines, and the first enemy piece on each), counted from scratch or kept move by move.
//!
//! Counting it walks every line of every ranging piece, a fifth of the search's time in
//! chu. A move changes the board on two or three squares (from, to, and a lion's
//! intermediate square), so only the pieces on those squares and the pieces whose lines
//! end on or pass through them can reach another number of squares: the nearest piece in
//! each of the eight directions from each changed square, and of it only the line towards
//! that square. [`Evaluator::mobility_probe`] finds those pieces and lines before the move,
//! and [`Evaluator::probed_mobility`] counted on them before and after the move gives the
//! change; a search keeps the count per ply that way
//! ([`Evaluator::evaluate_with_mobility`]), and a test holds it to the count from scratch.

use super::Evaluator;
use crate::core::{Bitboard, Color, Move, Square};
use crate::position::Position;
use crate::variant::tables::opposite_dir;

/// Squares reached by each side's ranging pieces, `[sente, gote]`.
pub type Mobility = [i32; 2];

impl Evaluator {
    /// The mobility of `pos`, counted over every ranging piece.
    pub fn mobility(&self, pos: &Position) -> Mobility {
        self.region_mobility(pos, pos.occupied_all())
    }

    /// Whether the piece on `sq` (maybe none) is a ranging piece.
    #[inline]
    fn is_ranging(&self, pos: &Position, sq: Square) -> bool {
        let piece = pos.piece_on(sq);
        !piece.is_empty() && self.ranging_kinds >> piece.kind() & 1 != 0
    }

    /// The mobility of the ranging pieces standing on `region` alone.
    #[inline]
    fn region_mobility(&self, pos: &Position, region: Bitboard) -> Mobility {
        let kinds = self.variant.kind_count();
        let mut mobility = [0; 2];
        for sq in region {
            if !self.is_ranging(pos, sq) {
                continue;
            }
            let piece = pos.piece_on(sq);
            let color = piece.color();
            let terms = &self.pieces[color.index() * kinds + piece.kind() as usize];
            mobility[color.index()] += self.reach(pos, terms.slides, color, sq);
        }
        mobility
    }

    /// What `mv` may change in the mobility of `pos` (before the move is made): the squares
    /// the move changes, whose pieces are counted whole, and each line of another piece
    /// that reaches one of them. Such a line ends on the nearest changed square or passes
    /// through it, so its piece is the nearest one in the opposite direction from that
    /// square; a piece whose lines reach no changed square keeps its count.
    #[inline]
    pub fn mobility_probe(&self, pos: &Position, mv: Move) -> MobilityProbe {
        let mut changed = Bitboard::from_square(mv.from()) | Bitboard::from_square(mv.to());
        if let Some(mid) = mv.mid() {
            changed.insert(mid);
        }
        let stops = pos.occupied_all() | changed;
        let tables = &self.variant.tables;
        let mut probe = MobilityProbe {
            changed,
            lines: [(Square(0), 0, 0); MAX_LINES],
            len: 0,
        };
        for sq in changed {
            for dir in 0..8 {
                let Some(piece_sq) = tables.nearest_on_ray(dir, sq, stops) else {
                    continue;
                };
                if changed.contains(piece_sq) || !self.is_ranging(pos, piece_sq) {
                    continue;
                }
                let piece = pos.piece_on(piece_sq);
                let line = opposite_dir(dir);
                let range = tables.slide_range[piece.color().index()][line][piece.kind() as usize];
                if range as usize >= piece_sq.distance(sq) {
                    probe.lines[probe.len] = (piece_sq, line as u8, range);
                    probe.len += 1;
                }
            }
        }
        probe
    }

    /// The part of the mobility of `pos` that `probe` covers: the whole count of the pieces
    /// on its changed squares and the count along each of its lines. Before and after the
    /// move, the difference is the move's change of the whole ([`moved`]).
    #[inline]
    pub fn probed_mobility(&self, pos: &Position, probe: &MobilityProbe) -> Mobility {
        let mut mobility = self.region_mobility(pos, probe.changed);
        for &(sq, dir, range) in &probe.lines[..probe.len] {
            let color = pos.piece_on(sq).color();
            mobility[color.index()] += self.reach(pos, &[(dir, range)], color, sq);
        }
        mobility
    }

    /// Squares a ranging piece of `color` on `from` reaches along `slides` (empty ones, and
    /// a capture).
    fn reach(&self, pos: &Position, slides: &[(u8, u8)], color: Color, from: Square) -> i32 {
        let tables = &self.variant.tables;
        let mut count = 0;
        for &(dir, range) in slides {
            for sq in tables.slide(dir as usize, from, range) {
                let target = pos.piece_on(sq);
                if target.is_empty() {
                    count += 1;
                    continue;
                }
                if !target.is(color) {
                    count += 1;
                }
                break;
            }
        }
        count
    }
}

/// Lines a probe can hold: eight directions from each of at most three changed squares.
const MAX_LINES: usize = 24;

/// The part of a position's mobility that one move may change (`Evaluator::mobility_probe`).
pub struct MobilityProbe {
    /// The squares the move changes.
    changed: Bitboard,
    /// The other pieces' lines that reach a changed square: (square, direction, range).
    lines: [(Square, u8, u8); MAX_LINES],
    len: usize,
}

/// The mobility after a move, given the mobility before it and the probed part before and
/// after.
#[inline]
pub fn moved(mobility: Mobility, probed_before: Mobility, probed_after: Mobility) -> Mobility {
    [0, 1].map(|i| mobility[i] - probed_before[i] + probed_after[i])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng::Rng;
    use crate::position::{GenMode, Position};
    use crate::variant::Variant;

    /// Every legal move of positions along random games: the count kept through the
    /// region equals the count from scratch after the move (lion double moves, igui,
    /// promotions and captures included).
    #[test]
    fn region_change_equals_the_count_from_scratch() {
        let mut rng = Rng::new(7);
        for variant in [Variant::chu(), Variant::sho()] {
            let ev = Evaluator::for_variant(variant);
            let mut checked = 0;
            for _game in 0..6 {
                let mut pos = Position::startpos(variant);
                for _ply in 0..120 {
                    let mut moves = Vec::new();
                    pos.legal_moves(GenMode::Search, &mut moves);
                    if moves.is_empty() || pos.outcome().is_some() {
                        break;
                    }
                    let before = ev.mobility(&pos);
                    for &mv in &moves {
                        let probe = ev.mobility_probe(&pos, mv);
                        let probed_before = ev.probed_mobility(&pos, &probe);
                        pos.make_move(mv);
                        let kept = moved(before, probed_before, ev.probed_mobility(&pos, &probe));
                        assert_eq!(kept, ev.mobility(&pos), "{} after {mv:?}", pos.to_sfen());
                        pos.unmake_move();
                        checked += 1;
                    }
                    let mv = moves[rng.below(moves.len())];
                    pos.make_move(mv);
                }
            }
            assert!(checked > 10_000, "{checked}");
        }
    }
}
