//! The royal-attack tests of the mate solver: whether a quiet move can end the game, and
//! whether the mover's own royal hangs after a move, answered without generating the
//! defender's replies.

use super::*;

/// Whether no plain move at `pos` (no capture, no lion double move) can end the game by
/// the board (`Position::board_outcome`): no royal is captured without a capture, and
/// while both sides keep three live pieces or more the bare-king and kings-alone rules
/// cannot apply after one plain move (it kills at most the piece it moves, on the last
/// ranks; a promotion only adds).
pub(super) fn no_end_by_quiet_move(pos: &Position) -> bool {
    Color::ALL.iter().all(|&c| pos.live_piece_count(c) >= 3)
}

/// Whether `mv` is a plain move at `pos`: no capture and no lion double move.
pub(super) fn is_plain(pos: &Position, mv: Move) -> bool {
    !mv.is_double() && pos.piece_on(mv.to()).is_empty()
}

/// Whether the side that just moved in `pos` has one royal and left it attacked (the other
/// side takes it next move; chu allows such moves).
pub(super) fn mover_royal_hangs(pos: &Position) -> bool {
    let mover = pos.side_to_move().flip();
    pos.royals(mover).count() == 1 && pos.royal_attacked(mover)
}

/// The mover's only royal at one node, and what attacks it, to tell after each move whether
/// the move left it attacked ([`mover_royal_hangs`]) without the full test, and before
/// making it when the move surely does. Such a move loses the royal next move (in chu a
/// move may ignore a check), and most of a checked defender's moves are such. Making each
/// of them to find that out cost as much as the attacker's checks, and the full test after
/// the others a tenth of the solver's time. Both answers are exact, so the solver's tree is
/// the same, node for node.
pub(super) struct MoverRoyal {
    /// The mover's only royal, when it has one.
    pub(super) royal: Option<Square>,
    /// The attackers of that royal, each with the squares that would block it (none for a
    /// leap or a step).
    pub(super) checkers: Vec<(Square, Bitboard)>,
    /// The squares that block every attacker (every square when there is none).
    pub(super) blocking_all: Bitboard,
    /// See [`no_end_by_quiet_move`].
    pub(super) no_end_by_quiet_move: bool,
}

impl MoverRoyal {
    /// The test at `pos`, for the side to move (`no_end_by_quiet_move`: that function's
    /// answer at `pos`).
    pub(super) fn at(pos: &Position, no_end_by_quiet_move: bool) -> MoverRoyal {
        let mover = pos.side_to_move();
        let royals = pos.royals(mover);
        let royal = (royals.count() == 1)
            .then(|| royals.iter().next())
            .flatten();
        let checkers = royal.map_or(Vec::new(), |r| pos.attackers_with_lines(r, mover.flip()));
        let blocking_all = checkers
            .iter()
            .fold(!Bitboard::EMPTY, |squares, &(_, between)| squares & between);
        MoverRoyal {
            royal,
            checkers,
            blocking_all,
            no_end_by_quiet_move,
        }
    }

    /// Whether `mv` (legal at `pos`) surely leaves the royal attacked and ends nothing: a
    /// plain move (no capture, no promotion, not a lion's double move) of another piece
    /// than the royal, to a square that blocks not every attacker.
    pub(super) fn surely_hanging(&self, pos: &Position, mv: Move) -> bool {
        let Some(royal) = self.royal else {
            return false;
        };
        self.no_end_by_quiet_move
            && is_plain(pos, mv)
            && !mv.is_promotion()
            && mv.from() != royal
            && !self.blocking_all.contains(mv.to())
    }

    /// For a plain move of the royal itself (no capture, no double move, no promotion),
    /// where a plain move cannot end the game: whether it leaves the royal attacked, told
    /// before making it (`None` for any other move). After the move the royal's square is
    /// attacked exactly when its destination is now, with the square it leaves seen as
    /// empty; a hanging move is then taken as [`MoverRoyal::surely_hanging`] ones are,
    /// without a make, and the others need no test after the make.
    pub(super) fn royal_step_hangs(&self, pos: &Position, mv: Move) -> Option<bool> {
        let royal = self.royal?;
        if mv.from() != royal
            || !self.no_end_by_quiet_move
            || !is_plain(pos, mv)
            || mv.is_promotion()
        {
            return None;
        }
        let enemy = pos.side_to_move().flip();
        Some(pos.is_attacked_through(mv.to(), enemy, Bitboard::from_square(royal)))
    }

    /// Whether the moves [`MoverRoyal::surely_hanging`] finds are known by their squares
    /// alone: the royal is attacked, and a plain move cannot end the game.
    pub(super) fn hanging_moves_known(&self) -> bool {
        self.royal.is_some() && self.no_end_by_quiet_move && !self.checkers.is_empty()
    }

    /// With [`MoverRoyal::hanging_moves_known`]: where a quiet single move of the piece on
    /// `from` (at `pos`) may land and not surely hang the royal. Every square for the royal
    /// itself, and for a piece that may promote on the move (a promotion is never surely
    /// hanging) from inside the promotion zone; else the squares that block every attacker,
    /// and the zone for a piece that may promote by entering it.
    pub(super) fn quiet_targets(&self, pos: &Position, from: Square) -> Bitboard {
        let everywhere = !Bitboard::EMPTY;
        if Some(from) == self.royal {
            return everywhere;
        }
        let piece = pos.piece_on(from);
        if pos.variant().promotion[piece.kind() as usize].is_none() {
            return self.blocking_all;
        }
        let zone = pos.variant().tables.zone[piece.color().index()];
        if zone.contains(from) {
            everywhere
        } else {
            self.blocking_all | zone
        }
    }

    /// A move at `pos` that [`MoverRoyal::surely_hanging`] finds, if there is one (none
    /// where the rules forbid leaving a lone royal attacked: sho). Such a move is a plain
    /// single move, so the moves of the side's pieces as perft lists them hold it.
    pub(super) fn first_hanging_move(&self, pos: &Position) -> Option<Move> {
        if pos.variant().spec.rules.lone_royal_check {
            return None;
        }
        let mut moves = Vec::new();
        let mut pass_listed = true;
        for from in pos.occupied(pos.side_to_move()) {
            if Some(from) == self.royal {
                continue;
            }
            moves.clear();
            pos.pseudo_piece_moves(from, &mut moves, &mut pass_listed);
            if let Some(&mv) = moves.iter().find(|&&mv| self.surely_hanging(pos, mv)) {
                return Some(mv);
            }
        }
        None
    }

    /// After `mv`, made on `after`: whether the mover has one royal and it is attacked, as
    /// [`mover_royal_hangs`] says. A move of one step or leap by another piece than the
    /// royal takes away at most the attacker it captures, and the piece it puts down only
    /// blocks slides: the royal is attacked after it when an attacker of before is neither
    /// captured nor blocked by the square it lands on, or along the line through the
    /// square it left. A promotion may make a royal (sho's prince), so it takes the full
    /// test, as do a lion's double moves (three squares change) and the royal's own moves.
    pub(super) fn attacked_after(&self, after: &Position, mv: Move) -> bool {
        if mv.is_double() || mv.is_promotion() {
            return mover_royal_hangs(after);
        }
        let Some(royal) = self.royal else {
            // No royal, or two or more: a move that neither promotes nor captures a royal
            // of its own side (none can) leaves the count as it was.
            return false;
        };
        if mv.from() == royal {
            return mover_royal_hangs(after);
        }
        let (from, to) = (mv.from(), mv.to());
        let mover = after.side_to_move().flip();
        self.checkers
            .iter()
            .any(|&(checker, between)| checker != to && !between.contains(to))
            || after.is_attacked_along(royal, mover.flip(), from)
    }
}
