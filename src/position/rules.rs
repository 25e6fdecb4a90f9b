//! How games end: last royal captured, no legal move, bare king, kings alone, fourfold
//! repetition (with the perpetual check/attack loss) and the move limit.
//!
//! [`Position::board_outcome`] looks only at the board (cheap enough for every perft node);
//! [`Position::outcome`] adds what needs move generation or the game's history.

use super::{GenMode, Position};
use crate::core::{Bitboard, Color};
use crate::variant::{BareKingRule, PerpetualRule, Variant};

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutcomeReason {
    /// The loser's last royal was captured.
    RoyalCaptured,
    /// The loser had no legal move (in sho: checkmate or stalemate).
    NoLegalMoves,
    /// The loser was left with a bare royal.
    BareKing,
    /// Only one royal a side is left (draw).
    KingsAlone,
    /// Fourfold repetition (draw).
    Repetition,
    /// Fourfold repetition in which the loser checked or attacked with every move.
    PerpetualAttack,
    /// Too many plies without capture or promotion (draw).
    MoveLimit,
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    /// Why the game ended.
    pub reason: OutcomeReason,
}

impl Outcome {
    fn win(winner: Color, reason: OutcomeReason) -> Option<Outcome> {
        Some(Outcome { winner: Some(winner), reason })
    }

    fn draw(reason: OutcomeReason) -> Option<Outcome> {
        Some(Outcome { winner: None, reason })
    }
}

impl Position {
    /// `color`'s pawns and lances (one-way kinds) on its last rank: they can never move, and
    /// count as no piece.
    fn dead_pieces(&self, color: Color) -> Bitboard {
        self.pieces_in(color, self.variant.one_way_mask) & self.variant.tables.last_rank[color.index()]
    }

    /// `color`'s pieces that can still move.
    fn live_pieces(&self, color: Color) -> Bitboard {
        self.occupied(color) & !self.dead_pieces(color)
    }

    /// Whether `bare` loses by the bare-king rule now (the side to move does not matter).
    fn is_bare_king_loss(&self, bare: Color) -> bool {
        let other = bare.flip();
        if self.is_kingless(bare) || self.is_kingless(other) {
            return false;
        }
        let v = self.variant;
        match v.spec.rules.bare_king {
            BareKingRule::Chu => {
                let live = self.live_pieces(bare);
                if live.count() != 1 || (live & self.royals(bare)).is_empty() {
                    return false;
                }
                let their_royals = self.royals(other);
                let counted = self.live_pieces(other) & !self.pieces_in(other, v.weak_mask) & !their_royals;
                if their_royals.is_empty() || counted.is_empty() {
                    return false;
                }
                let king = live.first().expect("one live piece");
                // Exceptions: the bare king attacks an enemy royal, or it stands next to the
                // only counted enemy piece (it may take it and reach kings alone).
                if their_royals.iter().any(|r| r.distance(king) <= 1 && self.is_attacked(r, bare)) {
                    return false;
                }
                if counted.count() == 1 && v.tables.neighbors(king).contains(&counted.first().expect("one piece")) {
                    return false;
                }
                true
            }
            BareKingRule::Sho => {
                let ours = self.occupied(bare);
                let their_other = self.occupied(other) & !self.royals(other);
                if ours != self.royals(bare) || ours.is_empty() || their_other.is_empty() {
                    return false;
                }
                // The bared side may take the last non-royal at once (then kings alone: draw).
                !(self.side_to_move() == bare
                    && their_other.count() == 1
                    && self.is_attacked(their_other.first().expect("one piece"), bare))
            }
        }
    }

    /// The outcome decided by the board alone: a side without royals, bare king, kings
    /// alone. Does not look at legal moves or history.
    pub fn board_outcome(&self) -> Option<Outcome> {
        let stm = self.side_to_move();
        for color in [stm, stm.flip()] {
            if !self.is_kingless(color) && self.royals(color).is_empty() {
                return Outcome::win(color.flip(), OutcomeReason::RoyalCaptured);
            }
        }
        for color in [stm, stm.flip()] {
            if self.is_bare_king_loss(color) {
                return Outcome::win(color.flip(), OutcomeReason::BareKing);
            }
        }
        if self.is_kings_alone() {
            return Outcome::draw(OutcomeReason::KingsAlone);
        }
        None
    }

    /// Only one live royal a side remains and neither is attacked.
    fn is_kings_alone(&self) -> bool {
        let (s, g) = (self.live_pieces(Color::Sente), self.live_pieces(Color::Gote));
        if s.count() != 1 || g.count() != 1 || s != self.royals(Color::Sente) || g != self.royals(Color::Gote) {
            return false;
        }
        !self.royal_attacked(Color::Sente) && !self.royal_attacked(Color::Gote)
    }

    /// The full outcome: board rules, no legal moves, fourfold repetition and perpetual
    /// attack, and the move limit. `None` while the game goes on.
    pub fn outcome(&mut self) -> Option<Outcome> {
        if let Some(o) = self.board_outcome() {
            return Some(o);
        }
        if !self.has_legal_move() {
            return Outcome::win(self.side_to_move().flip(), OutcomeReason::NoLegalMoves);
        }
        if let Some(o) = self.repetition_outcome() {
            return Some(o);
        }
        let limit = self.variant.spec.rules.move_limit_plies;
        if limit > 0 && self.quiet_plies() >= limit {
            return Outcome::draw(OutcomeReason::MoveLimit);
        }
        None
    }

    /// Whether the move at `history[i]` was irreversible: a capture, a promotion or a
    /// one-way piece's move. Repetitions never cross one.
    fn is_irreversible(&self, i: usize) -> bool {
        let u = &self.history()[i];
        u.is_capture() || u.mv.is_promotion() || Variant::has(self.variant.one_way_mask, u.moved.kind())
    }

    /// How many times the current position occurred in the reversible part of the history
    /// (the current occurrence included), and the history index of the earliest.
    pub fn repetitions(&self) -> (usize, usize) {
        let hist = self.history();
        let mut count = 1;
        let mut earliest = hist.len();
        let mut i = hist.len();
        // history[i].key is the key before move i: the position i plies into the record.
        while i > 0 {
            i -= 1;
            if self.is_irreversible(i) {
                break;
            }
            if hist[i].key == self.key() {
                count += 1;
                earliest = i;
            }
        }
        (count, earliest)
    }

    /// Fourfold repetition: a draw, unless one side checked (or, in chu, attacked an enemy
    /// piece with the moved piece) with every move since the position first appeared.
    pub fn repetition_outcome(&mut self) -> Option<Outcome> {
        let (count, earliest) = self.repetitions();
        if count < 4 {
            return None;
        }
        let len = self.history().len();
        // Replay the cycle to see which moves checked or attacked.
        let undone: Vec<_> = self.history()[earliest..].iter().map(|u| u.mv).collect();
        for _ in earliest..len {
            self.unmake_move();
        }
        let mut relentless = [true, true];
        for mv in undone {
            let mover = self.side_to_move();
            self.make_move(mv);
            let checked = self.royal_attacked(mover.flip());
            let attacked = match self.variant.spec.rules.perpetual {
                PerpetualRule::Check => false,
                PerpetualRule::CheckOrAttack => !(self.attacks_from(mv.to()) & self.occupied(mover.flip())).is_empty(),
            };
            if !(checked || attacked) {
                relentless[mover.index()] = false;
            }
        }
        match relentless {
            [true, false] => Outcome::win(Color::Gote, OutcomeReason::PerpetualAttack),
            [false, true] => Outcome::win(Color::Sente, OutcomeReason::PerpetualAttack),
            _ => Outcome::draw(OutcomeReason::Repetition),
        }
    }

    /// Whether perft should stop at this node: chu counts no children below a finished game
    /// (lishogi's convention); sho counts every legal move (Fairy-Stockfish's).
    #[inline]
    pub fn perft_stops_here(&self) -> bool {
        self.variant.spec.rules.perft_stops_at_game_end && self.board_outcome().is_some()
    }

    /// Legal moves in perft mode (helper for tests and tools).
    pub fn perft_moves(&mut self) -> Vec<crate::core::Move> {
        let mut out = Vec::new();
        self.legal_moves(GenMode::Perft, &mut out);
        out
    }
}
