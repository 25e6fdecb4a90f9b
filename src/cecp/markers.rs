//! XBoard's board-marker extension (`lift`, `put`, answered with `highlight COLORFEN`): the
//! squares a lifted piece may go to, and for a lion's double move, where the second leg may
//! go once the first is put down.
//!
//! Marks: `Y` a move to an empty square, `R` a capture, `M` a promotion, `C` a piece a
//! first leg may capture on its way (the strongest mark of a square wins: C, M, R, Y).

use crate::core::Square;
use crate::position::{GenMode, Position};
use std::collections::BTreeMap;

/// The pieces lifted and put down so far, for a double move's second leg.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Markers {
    /// The square of the piece lifted last (one of the side to move).
    pub lifted: Option<Square>,
    /// The square it was put down on last.
    pub put: Option<Square>,
}

impl Markers {
    /// `lift SQUARE`: the marks to show (empty: nothing to show). A piece of the side to
    /// move shows its moves; lifting it again from the square it was just put on (a
    /// lion's mid square) shows the second leg's squares and, if the move may end there,
    /// the mid square itself.
    pub fn lift(&mut self, pos: &mut Position, sq: Square) -> BTreeMap<Square, char> {
        let mut moves = Vec::new();
        pos.legal_moves(GenMode::Perft, &mut moves);
        let mut marks = BTreeMap::new();
        if pos.piece_on(sq).is(pos.side_to_move()) {
            for mv in moves.iter().filter(|m| m.from() == sq) {
                match mv.mid() {
                    None => {
                        let c = if mv.is_promotion() {
                            'M'
                        } else if pos.piece_on(mv.to()).is_empty() {
                            'Y'
                        } else {
                            'R'
                        };
                        mark(&mut marks, mv.to(), c);
                    }
                    Some(mid) if !pos.piece_on(mid).is_empty() => mark(&mut marks, mid, 'C'),
                    Some(_) => {}
                }
            }
            self.lifted = Some(sq);
            self.put = None;
        } else if let (Some(from), true) = (self.lifted, self.put == Some(sq)) {
            // Second leg of a double move: from the mid square just put on.
            for mv in moves
                .iter()
                .filter(|m| m.from() == from && m.mid() == Some(sq))
            {
                let c = if mv.to() != from && !pos.piece_on(mv.to()).is_empty() {
                    'R'
                } else {
                    'Y'
                };
                mark(&mut marks, mv.to(), c);
            }
            // Stopping on the mid square itself ends the move there.
            if moves
                .iter()
                .any(|m| m.from() == from && m.to() == sq && m.mid().is_none())
            {
                let c = if pos.piece_on(sq).is_empty() {
                    'Y'
                } else {
                    'R'
                };
                mark(&mut marks, sq, c);
            }
        }
        marks
    }
}

/// Marks `sq` with `c` unless it holds a stronger mark.
fn mark(marks: &mut BTreeMap<Square, char>, sq: Square, c: char) {
    let rank = |c: char| match c {
        'C' => 3,
        'M' => 2,
        'R' => 1,
        _ => 0,
    };
    let e = marks.entry(sq).or_insert(c);
    if rank(c) > rank(*e) {
        *e = c;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;

    fn square(pos: &Position, usi: &str) -> Square {
        crate::position::notation::parse_square(pos.variant(), usi).unwrap()
    }

    #[test]
    fn a_lifted_pawn_shows_its_step_and_an_enemy_piece_nothing() {
        let mut pos = Position::startpos(Variant::chu());
        let mut markers = Markers::default();
        let pawn = square(&pos, "7i");
        let marks = markers.lift(&mut pos, pawn);
        assert_eq!(marks, BTreeMap::from([(square(&pos, "7h"), 'Y')]));
        assert_eq!(markers.lifted, Some(pawn));
        let enemy = square(&pos, "7d");
        assert!(markers.lift(&mut pos, enemy).is_empty());
    }

    #[test]
    fn a_lion_put_on_its_mid_square_shows_the_second_leg() {
        // A sente lion on 6f with a gote pawn in front of it on 6e.
        let sfen = "5k6/12/12/12/6p5/6N5/12/12/12/12/12/5K6 b - 1";
        let mut pos = Position::from_sfen(Variant::chu(), sfen).unwrap();
        let (lion, pawn) = (square(&pos, "6f"), square(&pos, "6e"));
        let mut markers = Markers::default();
        let first = markers.lift(&mut pos, lion);
        // The pawn may be taken on the way (the strongest mark), the square behind it
        // reached by a jump.
        assert_eq!(first[&pawn], 'C');
        assert_eq!(first[&square(&pos, "6d")], 'Y');
        // Lifted again from the pawn's square where it was put: the second leg.
        markers.put = Some(pawn);
        let second = markers.lift(&mut pos, pawn);
        assert_eq!(second[&lion], 'Y', "back home: igui");
        assert_eq!(second[&pawn], 'R', "stopping on the pawn's square");
        assert_eq!(second[&square(&pos, "6d")], 'Y');
        // Put elsewhere, a lift of an enemy piece shows nothing.
        markers.put = Some(square(&pos, "5e"));
        assert!(markers.lift(&mut pos, pawn).is_empty());
    }

    #[test]
    fn the_strongest_mark_of_a_square_wins() {
        let mut marks = BTreeMap::new();
        let sq = Square::new(3, 3);
        mark(&mut marks, sq, 'Y');
        mark(&mut marks, sq, 'C');
        mark(&mut marks, sq, 'R');
        assert_eq!(marks[&sq], 'C');
    }
}
