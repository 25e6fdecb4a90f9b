//! The quiet-move test of the mate solver: which of the attacker's quiet moves surely can
//! neither attack an enemy royal nor end the game, so that a checks-only search skips them
//! without making them.

use super::*;

/// Which of the attacker's moves at one node are surely not tried with checks only, told
/// before making them: a quiet move that cannot attack an enemy royal nor end the game.
/// Making and unmaking each move to ask its royal-attack test cost most of the solver's
/// time, and most moves fail it; this test is exact (it passes on only what the full test
/// would reject), so the solver's tree is the same, node for node.
pub(super) struct QuietTest {
    /// The defender's royals.
    pub(super) royals: Bitboard,
    /// See [`no_end_by_quiet_move`].
    pub(super) no_end_by_quiet_move: bool,
    /// Whether no defender's royal is attacked before the attacker moves (then a plain
    /// move can attack one only from where it lands or through where it left).
    pub(super) royals_safe_before: bool,
}

impl QuietTest {
    /// The test at `pos`, the attacker to move (`no_end_by_quiet_move`: that function's
    /// answer at `pos`).
    pub(super) fn at(pos: &Position, no_end_by_quiet_move: bool) -> QuietTest {
        let attacker = pos.side_to_move();
        let defender = attacker.flip();
        QuietTest {
            royals: pos.royals(defender),
            no_end_by_quiet_move,
            royals_safe_before: !pos.royal_attacked(defender),
        }
    }

    /// After the attacker's move `mv`, made on `after`: whether a defender's royal is
    /// attacked. A move of one step or leap changes two squares, and the piece it puts down
    /// only blocks slides (a capture takes away a defender's piece, which attacks nothing of
    /// its own side), so when no royal was attacked before, an attack can come only from
    /// the moved piece or along the line through the square it left: those two lines and
    /// its leaps are asked instead of every line (the full test took a fifth of the
    /// solver's time). A lion's double move changes three squares: the full test.
    pub(super) fn attacks_royal_after(&self, after: &Position, mv: Move) -> bool {
        let attacker = after.side_to_move().flip();
        if mv.is_double() || !self.royals_safe_before {
            return after.royal_attacked(attacker.flip());
        }
        let (from, to) = (mv.from(), mv.to());
        // A royal captured by the move is no longer there to attack.
        self.royals
            .iter()
            .filter(|&royal| royal != to)
            .any(|royal| {
                after.leaps_to(to, royal)
                    || after.is_attacked_along(royal, attacker, to)
                    || after.is_attacked_along(royal, attacker, from)
            })
    }

    /// Where a quiet single move of the piece on `from` may land and be tried: every square
    /// when `from` is on a line to a royal (leaving it may uncover one), else the squares
    /// from which the piece, or its promotion, could attack a royal on an empty board. The
    /// quiet moves elsewhere are those [`QuietTest::surely_not_tried`] leaves out, so
    /// leaving them out of the generation changes nothing.
    pub(super) fn quiet_targets(&self, pos: &Position, from: Square) -> Bitboard {
        if self.royals.iter().any(|royal| from.is_aligned_with(royal)) {
            return !Bitboard::EMPTY;
        }
        let piece = pos.piece_on(from);
        let (kind, color) = (piece.kind(), piece.color());
        let promoted = pos.variant().promotion[kind as usize];
        let tables = &pos.variant().tables;
        let mut targets = Bitboard::EMPTY;
        for royal in self.royals {
            targets |= tables.attack_origins(kind, color, royal);
            if let Some(promoted) = promoted {
                targets |= tables.attack_origins(promoted, color, royal);
            }
        }
        targets
    }

    /// Whether `mv` (legal at `pos`) surely neither attacks a defender's royal nor ends the
    /// game: not a lion's double move, not a capture, its piece (promoted, if it promotes)
    /// cannot reach a royal from where it lands even on an empty board, and the square it
    /// leaves is on no line to a royal (so it opens no slide onto one).
    pub(super) fn surely_not_tried(&self, pos: &Position, mv: Move) -> bool {
        if !self.no_end_by_quiet_move || !is_plain(pos, mv) {
            return false;
        }
        let (from, to) = (mv.from(), mv.to());
        let piece = pos.piece_on(from);
        let kind = match mv.is_promotion() {
            true => match pos.variant().promotion[piece.kind() as usize] {
                Some(promoted) => promoted,
                None => return false,
            },
            false => piece.kind(),
        };
        self.royals.iter().all(|royal| {
            !from.is_aligned_with(royal) && !pos.could_attack(kind, piece.color(), to, royal)
        })
    }
}
