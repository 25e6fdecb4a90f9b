//! How games end: last royal captured, no legal move, bare king, kings alone, fourfold
//! repetition (with the perpetual check/attack loss) and the move limit.
//!
//! [`Position::board_outcome`] looks only at the board (cheap enough for every perft node);
//! [`Position::outcome`] adds what needs move generation or the game's history.

use super::{GenMode, Position};
use crate::core::{Bitboard, Color, Square};
use crate::variant::{PerpetualRule, Variant};

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

impl OutcomeReason {
    /// The reason in words, as records and result lines give it.
    pub fn describe(self) -> &'static str {
        match self {
            OutcomeReason::RoyalCaptured => "royal captured",
            OutcomeReason::NoLegalMoves => "no legal move",
            OutcomeReason::BareKing => "bare king",
            OutcomeReason::KingsAlone => "kings alone",
            OutcomeReason::Repetition => "fourfold repetition",
            OutcomeReason::PerpetualAttack => "perpetual check or attack",
            OutcomeReason::MoveLimit => "200 plies without capture or promotion",
        }
    }
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
    /// The end in words: why, and who won (`royal captured; gote wins`).
    pub fn describe(&self) -> String {
        match self.winner {
            Some(winner) => format!("{}; {} wins", self.reason.describe(), winner.name()),
            None => format!("{}; a draw", self.reason.describe()),
        }
    }

    fn win(winner: Color, reason: OutcomeReason) -> Option<Outcome> {
        Some(Outcome {
            winner: Some(winner),
            reason,
        })
    }

    fn draw(reason: OutcomeReason) -> Option<Outcome> {
        Some(Outcome {
            winner: None,
            reason,
        })
    }
}

impl Position {
    /// `color`'s pawns and lances (one-way kinds) on its last rank: they can never move, and
    /// count as no piece.
    fn dead_pieces(&self, color: Color) -> Bitboard {
        self.pieces_in(color, self.variant.one_way_mask)
            & self.variant.tables.last_rank[color.index()]
    }

    /// `color`'s pieces that can still move.
    /// How many pieces of `color` are alive (not dead on the last ranks), which the
    /// bare-king and kings-alone rules count.
    pub fn live_piece_count(&self, color: Color) -> u32 {
        self.live_pieces(color).count()
    }

    fn live_pieces(&self, color: Color) -> Bitboard {
        self.occupied(color) & !self.dead_pieces(color)
    }

    /// Whether `bare` loses by the bare-king rule now (the side to move does not matter):
    /// its one live piece is a royal, while the other side has a royal and at least one
    /// more counted piece (live, not `weak`: a crown prince counts), unless the bare royal
    /// attacks an enemy royal (where the variant says so) or may take one of exactly two
    /// counted pieces and so reach kings alone.
    fn is_bare_king_loss(&self, bare: Color) -> bool {
        let other = bare.flip();
        if self.is_kingless(bare) || self.is_kingless(other) {
            return false;
        }
        let v = self.variant;
        let live = self.live_pieces(bare);
        if live.count() != 1 || (live & self.royals(bare)).is_empty() {
            return false;
        }
        let their_royals = self.royals(other);
        let counted = self.live_pieces(other) & !self.pieces_in(other, v.weak_mask);
        if their_royals.is_empty() || counted.count() < 2 {
            return false;
        }
        let royal = live.first().expect("one live piece");
        if v.spec.rules.bare_king.attacking_a_royal_saves
            && their_royals.iter().any(|r| self.is_attacked(r, bare))
        {
            return false;
        }
        !(counted.count() == 2
            && counted
                .iter()
                .any(|target| self.royal_may_take(royal, target, other)))
    }

    /// Whether the lone royal on `royal` may take `defender`'s piece on `target` with its
    /// next move: it attacks the square, and where a lone royal may not stand attacked
    /// (`lone_royal_check`) no other `defender` piece guards it, seen with the royal gone
    /// from `royal`.
    fn royal_may_take(&self, royal: Square, target: Square, defender: Color) -> bool {
        if !self.attacks_from(royal).contains(target) {
            return false;
        }
        !self.variant.spec.rules.lone_royal_check
            || !self.is_attacked_through(target, defender, Bitboard::from_square(royal))
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
        // The bare-king and kings-alone rules both need a side with one live piece; this is
        // asked at every search node, where both sides almost always have more. Two pieces
        // off their last rank are live for certain (a dead piece stands on it): that test
        // is cheaper than gathering the pawns and lances.
        if Color::ALL.iter().all(|&c| {
            (self.occupied(c) & !self.variant.tables.last_rank[c.index()]).count() > 1
                || self.live_pieces(c).count() > 1
        }) {
            return None;
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
        let (s, g) = (
            self.live_pieces(Color::Sente),
            self.live_pieces(Color::Gote),
        );
        if s.count() != 1
            || g.count() != 1
            || s != self.royals(Color::Sente)
            || g != self.royals(Color::Gote)
        {
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
        // A null move (search only) also ends the window: positions across it are not a
        // repetition of the game.
        u.mv == crate::core::Move::NULL
            || u.is_capture()
            || u.mv.is_promotion()
            || Variant::has(self.variant.one_way_mask, u.moved.kind())
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
        match self.relentless_side(earliest) {
            Some(chaser) => Outcome::win(chaser.flip(), OutcomeReason::PerpetualAttack),
            None => Outcome::draw(OutcomeReason::Repetition),
        }
    }

    /// The side that checked (or, in chu, attacked an enemy piece with the moved piece)
    /// with every move of the record since history index `earliest` while the other did
    /// not: the side a repetition of that stretch makes the loser. `None` when neither or
    /// both did. The game's fourfold repetition asks it, and so does the search of every
    /// repetition it meets when `perpetual_loss` is on.
    pub fn relentless_side(&mut self, earliest: usize) -> Option<Color> {
        let len = self.history().len();
        // Replay the stretch to see which moves checked or attacked.
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
                PerpetualRule::CheckOrAttack => {
                    !(self.attacks_from(mv.to()) & self.occupied(mover.flip())).is_empty()
                }
            };
            if !(checked || attacked) {
                relentless[mover.index()] = false;
            }
        }
        match relentless {
            [true, false] => Some(Color::Sente),
            [false, true] => Some(Color::Gote),
            _ => None,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    fn chu(sfen: &str) -> Position {
        Position::from_sfen(Variant::chu(), sfen).unwrap()
    }

    fn sho(sfen: &str) -> Position {
        Position::from_sfen(Variant::sho(), sfen).unwrap()
    }

    fn win(color: Color, reason: OutcomeReason) -> Option<Outcome> {
        Some(Outcome {
            winner: Some(color),
            reason,
        })
    }

    #[test]
    fn taking_the_last_royal_wins_but_the_prince_keeps_a_side_alive() {
        let mut pos = chu("11k/11G/12/12/12/12/12/12/12/12/12/K11 b - 1");
        pos.play_usi_moves(["1b1a"]).unwrap();
        assert_eq!(
            pos.outcome(),
            win(Color::Sente, OutcomeReason::RoyalCaptured)
        );

        let mut pos = chu("g9+ek/11G/12/12/12/12/12/12/12/12/12/K11 b - 1");
        pos.play_usi_moves(["1b1a"]).unwrap();
        assert_eq!(pos.outcome(), None, "the crown prince is still a royal");
    }

    #[test]
    fn a_kingless_side_cannot_lose_its_royal_but_its_opponent_can() {
        // A mating problem: gote has a king, sente (the attacker) has none.
        let mut pos = chu("11k/12/10G1/12/12/12/12/12/12/12/12/12 b - 1");
        assert!(pos.is_kingless(Color::Sente) && !pos.is_kingless(Color::Gote));
        assert_eq!(pos.outcome(), None);
        pos.play_usi_moves(["2c2b", "1a2a", "2b2a"]).unwrap();
        assert_eq!(
            pos.outcome(),
            win(Color::Sente, OutcomeReason::RoyalCaptured)
        );
    }

    #[test]
    fn no_legal_move_loses_in_sho() {
        // Gote's king on 1a is mated by a protected gold; its pawn cannot help.
        let mut pos = sho("8k/8G/p6S1/9/9/9/9/9/4K4 w - 1");
        assert_eq!(
            pos.outcome(),
            win(Color::Sente, OutcomeReason::NoLegalMoves)
        );
    }

    #[test]
    fn bare_king_is_checked_for_both_sides() {
        // Gote is bare against king and gold, whoever is to move.
        for side in ["b", "w"] {
            let pos = chu(&format!(
                "11k/12/12/12/7G4/12/12/12/12/12/12/K11 {side} - 1"
            ));
            assert_eq!(
                pos.board_outcome(),
                win(Color::Sente, OutcomeReason::BareKing),
                "{side}"
            );
        }
        // Sente is bare: the same with colours swapped.
        let pos = chu("11k/12/12/12/7g4/12/12/12/12/12/12/K11 b - 1");
        assert_eq!(
            pos.board_outcome(),
            win(Color::Gote, OutcomeReason::BareKing)
        );
        // King and crown prince against a bare king win too (lishogi's server; its browser
        // library would not).
        let pos = chu("11k/12/12/12/7+E4/12/12/12/12/12/12/K11 w - 1");
        assert_eq!(
            pos.board_outcome(),
            win(Color::Sente, OutcomeReason::BareKing)
        );
        // A dead pawn (on its last rank) counts as no piece.
        let pos = chu("11k/12/12/12/7G4/12/12/12/12/12/12/K10p w - 1");
        assert_eq!(
            pos.board_outcome(),
            win(Color::Sente, OutcomeReason::BareKing)
        );
    }

    #[test]
    fn bare_king_exceptions() {
        // Pawns and go-betweens do not count for the winner.
        let pos = chu("11k/12/12/12/7P4/6I5/12/12/12/12/12/K11 w - 1");
        assert_eq!(pos.board_outcome(), None);
        // The bare king stands next to the only counted piece: it may take it.
        let pos = chu("10Gk/12/12/12/12/12/12/12/12/12/12/K11 w - 1");
        assert_eq!(pos.board_outcome(), None);
        // ...but not when there are two counted pieces.
        let pos = chu("10Gk/12/12/12/12/5S6/12/12/12/12/12/K11 w - 1");
        assert_eq!(
            pos.board_outcome(),
            win(Color::Sente, OutcomeReason::BareKing)
        );
        // The bare king attacks the winner's royal.
        let pos = chu("12/12/12/12/12/12/12/12/12/5S6/k11/K11 w - 1");
        assert_eq!(pos.board_outcome(), None);
    }

    #[test]
    fn sho_bare_king_is_chus_rule_with_shos_pieces() {
        // A lone king against king and gold, or king and pawn (no sho piece is weak),
        // whoever is to move.
        for side in ["b", "w"] {
            for sfen in [
                format!("8k/9/9/9/9/9/9/3G5/4K4 {side} - 1"),
                format!("8k/9/9/9/9/9/4P4/9/4K4 {side} - 1"),
            ] {
                assert_eq!(
                    sho(&sfen).board_outcome(),
                    win(Color::Sente, OutcomeReason::BareKing),
                    "{sfen}"
                );
            }
        }
        // A king and a crown prince count as two pieces: a lone king against them is bare,
        // for either colour and whoever is to move; the two together are never bare.
        for side in ["b", "w"] {
            let pos = sho(&format!("4k4/9/9/9/9/9/9/9/3K+E4 {side} - 1"));
            assert_eq!(
                pos.board_outcome(),
                win(Color::Sente, OutcomeReason::BareKing),
                "sente's king and prince, {side} to move"
            );
            let pos = sho(&format!("3k+e4/9/9/9/9/9/9/9/4K4 {side} - 1"));
            assert_eq!(
                pos.board_outcome(),
                win(Color::Gote, OutcomeReason::BareKing),
                "gote's king and prince, {side} to move"
            );
        }
        // Kings alone is a draw.
        let pos = sho("4k4/9/9/9/9/9/9/9/4K4 b - 1");
        assert_eq!(
            pos.board_outcome(),
            Some(Outcome {
                winner: None,
                reason: OutcomeReason::KingsAlone
            })
        );
    }

    #[test]
    fn sho_bare_king_survives_while_it_may_take_one_of_two_pieces() {
        // Gote's king may take the unguarded gold next move (then kings alone), whoever is
        // to move now, as chu's exception reads.
        for side in ["b", "w"] {
            let pos = sho(&format!("7Gk/9/9/9/9/9/9/9/4K4 {side} - 1"));
            assert_eq!(pos.board_outcome(), None, "{side} to move");
        }
        // So may it take an unguarded crown prince.
        let pos = sho("7+Ek/9/9/9/9/9/9/9/4K4 w - 1");
        assert_eq!(pos.board_outcome(), None);
        // A guarded gold cannot be taken in sho (a lone king may not move into check): bare.
        // In chu, where it may, the same stands next to the gold goes on.
        let pos = sho("7Gk/6K2/9/9/9/9/9/9/9 w - 1");
        assert_eq!(
            pos.board_outcome(),
            win(Color::Sente, OutcomeReason::BareKing)
        );
        let pos = chu("10Gk/9K2/12/12/12/12/12/12/12/12/12/12 w - 1");
        assert_eq!(pos.board_outcome(), None);
        // Three pieces: taking one does not reach kings alone, so no exception.
        let pos = sho("7Gk/9/9/9/9/9/9/9/3SK4 w - 1");
        assert_eq!(
            pos.board_outcome(),
            win(Color::Sente, OutcomeReason::BareKing)
        );
        // Sho has no exception for a bare king attacking a royal: next to the prince, with
        // three pieces against it, it is bare; in chu the same goes on.
        let pos = sho("6G+Ek/9/9/9/9/9/9/9/4K4 w - 1");
        assert_eq!(
            pos.board_outcome(),
            win(Color::Sente, OutcomeReason::BareKing)
        );
        let pos = chu("9G+Ek/12/12/12/12/12/12/12/12/12/12/K11 w - 1");
        assert_eq!(pos.board_outcome(), None);
    }

    #[test]
    fn sho_a_move_that_bares_ends_the_game() {
        // The elephant takes the last silver and promotes: king and prince against a lone
        // king (the old reading played on here).
        let mut pos = sho("4k4/9/3s5/4E4/9/9/9/9/4K4 b - 1");
        assert_eq!(pos.outcome(), None);
        pos.play_usi_moves(["5d6c+"]).unwrap();
        assert_eq!(pos.outcome(), win(Color::Sente, OutcomeReason::BareKing));
        // Gote takes sente's last gold: sente, to move, is bare.
        let mut pos = sho("4k4/9/9/9/9/9/4s4/4G4/K8 w - 1");
        assert_eq!(pos.outcome(), None);
        pos.play_usi_moves(["5g5h"]).unwrap();
        assert_eq!(pos.outcome(), win(Color::Gote, OutcomeReason::BareKing));
    }

    #[test]
    fn kings_alone_is_a_draw_unless_one_is_attacked() {
        let pos = chu("11k/12/12/12/12/12/12/12/12/12/12/K11 b - 1");
        assert_eq!(
            pos.board_outcome(),
            Some(Outcome {
                winner: None,
                reason: OutcomeReason::KingsAlone
            })
        );
        let pos = chu("12/12/12/12/12/12/12/12/12/12/k11/K11 b - 1");
        assert_eq!(pos.board_outcome(), None);
    }

    #[test]
    fn fourfold_repetition_is_a_draw() {
        let mut pos = chu("g10k/12/12/12/12/12/12/12/12/12/12/K10G b - 1");
        let cycle = ["1l1k", "12a12b", "1k1l", "12b12a"];
        for _ in 0..2 {
            pos.play_usi_moves(cycle).unwrap();
        }
        assert_eq!(pos.repetitions().0, 3);
        assert_eq!(pos.outcome(), None);
        pos.play_usi_moves(cycle).unwrap();
        assert_eq!(pos.repetitions().0, 4);
        assert_eq!(
            pos.outcome(),
            Some(Outcome {
                winner: None,
                reason: OutcomeReason::Repetition
            })
        );
    }

    #[test]
    fn perpetual_check_loses() {
        // Sente's rook checks on every move; gote's king steps between 1a and 1b.
        let mut pos = chu("g10k/9R2/12/12/12/12/12/12/12/12/12/K10G b - 1");
        let cycle = ["3b3a", "1a1b", "3a3b", "1b1a"];
        for _ in 0..3 {
            pos.play_usi_moves(cycle).unwrap();
        }
        assert_eq!(
            pos.outcome(),
            win(Color::Gote, OutcomeReason::PerpetualAttack)
        );
        // In sho only checks count, and the same chase loses there too.
        let mut pos = sho("g7k/6R2/9/9/9/9/9/9/K7G b - 1");
        for _ in 0..3 {
            pos.play_usi_moves(cycle).unwrap();
        }
        assert_eq!(
            pos.outcome(),
            win(Color::Gote, OutcomeReason::PerpetualAttack)
        );
    }

    #[test]
    fn perpetual_attack_on_a_piece_loses_in_chu() {
        // Sente's rook chases gote's gold between 1c and 1d without ever checking.
        let mut pos = chu("k11/12/11g/2R9/12/12/12/12/12/12/12/K10G b - 1");
        let cycle = ["10d10c", "1c1d", "10c10d", "1d1c"];
        for _ in 0..3 {
            pos.play_usi_moves(cycle).unwrap();
        }
        assert_eq!(
            pos.outcome(),
            win(Color::Gote, OutcomeReason::PerpetualAttack)
        );
    }

    #[test]
    fn irreversible_moves_break_repetition() {
        let mut pos = chu("g10k/12/12/12/12/12/12/12/P11/12/12/K10G b - 1");
        pos.play_usi_moves(["1l1k", "12a12b", "1k1l", "12b12a"])
            .unwrap();
        pos.play_usi_moves(["12i12h"]).unwrap();
        assert_eq!(pos.repetitions().0, 1);
    }

    #[test]
    fn the_move_limit_draws_after_200_quiet_plies() {
        let mut pos = chu("g10k/12/12/12/12/12/12/12/12/12/12/K10G b - 1");
        pos.play_usi_moves(["1l1k", "12a12b"]).unwrap();
        assert_eq!(pos.quiet_plies(), 2);
        pos.quiet_plies = 200;
        assert_eq!(
            pos.outcome(),
            Some(Outcome {
                winner: None,
                reason: OutcomeReason::MoveLimit
            })
        );
        // A capture resets the count.
        let mut pos = chu("g10k/12/12/12/12/12/12/12/12/12/12/K9gG b - 1");
        pos.quiet_plies = 150;
        pos.play_usi_moves(["1l2l"]).unwrap();
        assert_eq!(pos.quiet_plies(), 0);
    }

    #[test]
    fn counter_strike_is_part_of_the_position() {
        let with = chu("11k/4g7/12/8+h3/6n1N3/11b/12/9N2/8GP2/6R1+o3/12/K11 w 6e 1");
        let without = chu("11k/4g7/12/8+h3/6n1N3/11b/12/9N2/8GP2/6R1+o3/12/K11 w - 1");
        assert_ne!(with.key(), without.key());
        assert_ne!(
            with.clone().perft_moves().len(),
            without.clone().perft_moves().len()
        );
    }
}
