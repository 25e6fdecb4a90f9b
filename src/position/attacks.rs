//! Attack detection, computed on demand (HaChu's author found incremental attack maps not
//! worth their cost): "does `color` attack this square", via reverse leap tables and, along
//! each of the eight rays, the first piece found by a bit scan.

use super::{Piece, Position};
use crate::core::{Bitboard, Color, Square};
use crate::variant::tables::{direction_between, opposite_dir};
use crate::variant::{Kind, Variant, MAX_KINDS};

impl Position {
    /// Whether any `by` piece could capture on `target`, treating the squares in
    /// `transparent` as empty for sliding (their pieces still attack by leaps: lishogi judges
    /// lion protection this way).
    pub fn is_attacked_through(&self, target: Square, by: Color, transparent: Bitboard) -> bool {
        let tables = &self.variant.tables;
        if !(tables.leap_attack_squares(by, target) & self.occupied(by)).is_empty() {
            for &(sq, kinds) in tables.leap_attackers(by, target) {
                let p = self.board[sq.index()];
                if p.is(by) && Variant::has(kinds, p.kind()) {
                    return true;
                }
            }
        }
        // Along each line the first piece that is not transparent is the only one that may
        // slide onto `target`.
        let blockers = self.occupied_all() & !transparent;
        let ranges = &tables.slide_range[by.index()];
        for (dir, range_of_kind) in ranges.iter().enumerate() {
            // An attacker sliding along `dir` reaches `target` from the opposite side.
            let toward_attacker = opposite_dir(dir);
            if tables
                .nearest_on_ray(toward_attacker, target, blockers)
                .is_some_and(|sq| self.slides_onto(sq, target, by, range_of_kind))
            {
                return true;
            }
        }
        false
    }

    /// Whether a `by` piece attacks `target` by a slide along the line from `target` through
    /// `through`: the first piece on that line, if it is a `by` piece whose slide back
    /// reaches `target` (`false` when the two squares are not aligned). A test that knows
    /// that only this line changed asks it instead of every line.
    pub fn is_attacked_along(&self, target: Square, by: Color, through: Square) -> bool {
        let Some(toward_attacker) = direction_between(target, through) else {
            return false;
        };
        let tables = &self.variant.tables;
        let range_of_kind = &tables.slide_range[by.index()][opposite_dir(toward_attacker)];
        tables
            .nearest_on_ray(toward_attacker, target, self.occupied_all())
            .is_some_and(|sq| self.slides_onto(sq, target, by, range_of_kind))
    }

    /// Whether the piece on `from`, the first on its line to `target`, is a `by` piece that
    /// slides as far as `target` (`range_of_kind`: how far each kind slides in the direction
    /// from `from` to `target`).
    #[inline]
    pub(crate) fn slides_onto(
        &self,
        from: Square,
        target: Square,
        by: Color,
        range_of_kind: &[u8; MAX_KINDS],
    ) -> bool {
        let p = self.board[from.index()];
        p.is(by) && range_of_kind[p.kind() as usize] as usize >= target.distance(from)
    }

    /// Whether the piece on `from` leaps (or steps) to `target`.
    pub fn leaps_to(&self, from: Square, target: Square) -> bool {
        let p = self.board[from.index()];
        !p.is_empty()
            && self
                .variant
                .tables
                .piece(p.kind(), p.color())
                .leaps(from)
                .contains(&target)
    }

    /// Whether a `color` piece of `kind` on `from` could attack `target` on a board with
    /// nothing in its way: a target among its leaps, or on one of its slides within range.
    /// What it attacks on the real board is a subset (blockers only take attacks away), so
    /// `false` is certain.
    pub fn could_attack(&self, kind: Kind, color: Color, from: Square, target: Square) -> bool {
        self.variant
            .tables
            .attack_origins(kind, color, target)
            .contains(from)
    }

    /// Every `by` piece that attacks `target`, with the squares a piece would have to stand
    /// on to block it: those strictly between, for a slide from two squares away or more;
    /// none for a leap or a step (a piece that does both is listed for each).
    pub fn attackers_with_lines(&self, target: Square, by: Color) -> Vec<(Square, Bitboard)> {
        let tables = &self.variant.tables;
        let mut found = Vec::new();
        for &(sq, kinds) in tables.leap_attackers(by, target) {
            let p = self.board[sq.index()];
            if p.is(by) && Variant::has(kinds, p.kind()) {
                found.push((sq, Bitboard::EMPTY));
            }
        }
        let ranges = &tables.slide_range[by.index()];
        for (dir, range_of_kind) in ranges.iter().enumerate() {
            let mut between = Bitboard::EMPTY;
            for (i, sq) in tables.ray(opposite_dir(dir), target).enumerate() {
                let p = self.board[sq.index()];
                if p.is_empty() {
                    between.insert(sq);
                    continue;
                }
                if p.is(by) && range_of_kind[p.kind() as usize] as usize > i {
                    found.push((sq, between));
                }
                break;
            }
        }
        found
    }

    /// Whether any `by` piece attacks `target`.
    #[inline]
    pub fn is_attacked(&self, target: Square, by: Color) -> bool {
        self.is_attacked_through(target, by, Bitboard::EMPTY)
    }

    /// Whether any royal of `color` is attacked.
    pub fn royal_attacked(&self, color: Color) -> bool {
        self.royals(color)
            .iter()
            .any(|sq| self.is_attacked(sq, color.flip()))
    }

    /// The squares the piece on `from` could capture on if an enemy stood there (its leaps
    /// and the first blocker or the edge along each slide).
    pub fn attacks_from(&self, from: Square) -> Bitboard {
        let p: Piece = self.board[from.index()];
        let mut out = Bitboard::EMPTY;
        if p.is_empty() {
            return out;
        }
        let tables = &self.variant.tables;
        let table = tables.piece(p.kind(), p.color());
        for &sq in table.leaps(from) {
            out.insert(sq);
        }
        for &(dir, range) in &table.slides {
            for sq in tables.slide(dir as usize, from, range) {
                out.insert(sq);
                if !self.board[sq.index()].is_empty() {
                    break;
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use crate::core::{Bitboard, Color};
    use crate::position::Position;
    use crate::variant::Variant;

    /// `could_attack` (by geometry) must agree with walking each slide on an empty board.
    #[test]
    fn could_attack_agrees_with_the_slides_and_leaps_of_every_kind() {
        for variant in Variant::all() {
            let pos = Position::startpos(variant);
            let tables = &variant.tables;
            for kind in 0..variant.kind_count() as crate::variant::Kind {
                for color in Color::ALL {
                    let table = tables.piece(kind, color);
                    for from in tables.on_board {
                        for target in tables.on_board {
                            let walked = table.leaps(from).contains(&target)
                                || table.slides.iter().any(|&(dir, range)| {
                                    tables.slide(dir as usize, from, range).any(|s| s == target)
                                });
                            assert_eq!(
                                pos.could_attack(kind, color, from, target),
                                walked,
                                "{} {kind} {from:?} {target:?}",
                                variant.name()
                            );
                        }
                    }
                }
            }
        }
    }

    /// `is_attacked` must agree with the forward attack sets of every piece.
    #[test]
    fn reverse_attacks_agree_with_forward_attacks() {
        for variant in Variant::all() {
            let mut pos = Position::startpos(variant);
            let mut moves = Vec::new();
            let mut seed = 7u64;
            for _ply in 0..60 {
                for by in Color::ALL {
                    let mut forward = Bitboard::EMPTY;
                    for sq in pos.occupied(by) {
                        forward |= pos.attacks_from(sq);
                    }
                    for sq in variant.tables.on_board {
                        assert_eq!(
                            pos.is_attacked(sq, by),
                            forward.contains(sq),
                            "{} {:?}",
                            pos.to_sfen(),
                            sq
                        );
                    }
                }
                pos.legal_moves(crate::position::GenMode::Search, &mut moves);
                if moves.is_empty() {
                    break;
                }
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                pos.make_move(moves[(seed >> 33) as usize % moves.len()]);
            }
        }
    }
}
