//! A proof-number mate solver (df-pn, depth-first proof-number search) for chu and sho under
//! our rules.
//!
//! The side to move at the root is the attacker. At its nodes (OR nodes) it needs one move
//! that wins; at the defender's nodes (AND nodes) every defence must lose. The attacker's
//! moves are, by default, those after which an enemy royal is attacked ("checks") or the
//! game is won at once; [`AttackerMoves::All`] tries every move. The defender tries every
//! legal move. A position is proven when the game ends in the attacker's favour
//! ([`Position::board_outcome`]: the last royal captured, the bare-king rule, and in sho a
//! defender without a legal move), and disproven when it ends otherwise, when the attacker has
//! no move left to try, when it repeats a position of the current line (a repetition never
//! wins for the attacker: fourfold repetition is a draw and perpetual checks lose), or when the
//! line reaches the ply limit. The move generator applies the rest of the rules (lion double
//! moves, igui, jitto, the lion-trading rules, promotions, the counter-strike square), and a
//! kingless side (a problem without the attacker's king) never loses by royal capture.
//!
//! Proof and disproof numbers (Allis) count the leaves that must still be proven or
//! disproven; df-pn (Nagai) expands the most-proving node depth-first under thresholds and
//! keeps the numbers in its own [`table`]. Graph-history interaction: a disproof that rests
//! on a repetition or on the ply limit belongs to the line it was found on, so it is never
//! stored in the table (the node keeps it for the expansion in progress only). A second pass
//! shortens a found proof: it solves again with the ply limit set below the proof's length
//! until no shorter proof is found, so that the line given has the attacker mating fastest
//! and, at each defence, the defender resisting longest.
//!
//! The parts: this file, the public API (limits, verdicts, progress, the numbers); `dfpn`,
//! the solver and its search; `proof_line`, the proof read out of the table and the
//! shortening pass; `proof_numbers`, a node's numbers from its children;
//! `royal`, the royal-attack tests; `quiet`, the quiet-move test; `table`, the solver's
//! own table.

mod dfpn;
mod proof_line;
mod proof_numbers;
mod quiet;
mod royal;
pub mod table;

use crate::control::SearchControl;
use crate::core::{Bitboard, Color, Move, Square};
use crate::position::{GenMode, Position};
pub use dfpn::Solver;
use proof_numbers::*;
use quiet::*;
use royal::*;
use std::time::{Duration, Instant};
use table::Table;

/// A proof or disproof number that means "never": the node is decided the other way.
pub const INFINITE: u32 = 1 << 30;

/// The longest line the solver follows, in plies.
pub const MAX_PLIES: usize = 120;

/// Proof number (`pn`: leaves still to prove) and disproof number (`dn`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, bytemuck::Zeroable)]
pub struct Numbers {
    /// 0: proven.
    pub pn: u32,
    /// 0: disproven.
    pub dn: u32,
}

impl Numbers {
    const PROVEN: Numbers = Numbers {
        pn: 0,
        dn: INFINITE,
    };
    const DISPROVEN: Numbers = Numbers {
        pn: INFINITE,
        dn: 0,
    };
    const UNKNOWN: Numbers = Numbers { pn: 1, dn: 1 };
}

/// Which attacker moves the solver tries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AttackerMoves {
    /// Moves that attack an enemy royal or win at once (the tsume convention).
    #[default]
    Checks,
    /// Every legal move.
    All,
}

/// The limits of one solve.
#[derive(Clone, Debug)]
pub struct MateLimits {
    /// Which attacker moves count.
    pub attacker_moves: AttackerMoves,
    /// The attacker's first moves to try (USI `go mate ... searchmoves`); empty: all.
    pub root_moves: Vec<Move>,
    /// Give up after this long (`None`: until stopped or decided).
    pub time: Option<Duration>,
    /// Give up after this many nodes.
    pub nodes: Option<u64>,
    /// The longest line, in plies (at most [`MAX_PLIES`]).
    pub max_plies: usize,
    /// After the first proof, look for shorter ones (the second pass); without it the
    /// first proof is the answer, at once (the analysis mate helper shows it first).
    pub shorten: bool,
}

impl Default for MateLimits {
    fn default() -> MateLimits {
        MateLimits {
            attacker_moves: AttackerMoves::Checks,
            root_moves: Vec::new(),
            time: None,
            nodes: None,
            max_plies: MAX_PLIES,
            shorten: true,
        }
    }
}

/// What the solver found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A forced win: the line, from the attacker's first move to the end of the game.
    Mate(Vec<Move>),
    /// No forced win with the attacker moves tried, within the ply limit.
    NoMate,
    /// Stopped or out of time or nodes before deciding.
    Unknown,
}

/// A solve's report, as the progress callback and the final answer see it.
#[derive(Clone, Debug)]
pub struct Progress {
    /// Nodes visited so far.
    pub nodes: u64,
    /// Time since the solve started.
    pub time: Duration,
    /// Table use, per mille.
    pub hashfull: u32,
}

/// The answer of [`Solver::solve`].
#[derive(Clone, Debug)]
pub struct Solution {
    /// Mate, no mate, or unknown.
    pub verdict: Verdict,
    /// Nodes and time spent.
    pub progress: Progress,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Calls `visit` at every position of `games` random games a variant (chu and sho), each
    /// at most `plies` long, from the start position, with the random moves seeded by `seed`.
    fn along_random_games(
        seed: u64,
        games: usize,
        plies: usize,
        mut visit: impl FnMut(&mut Position),
    ) {
        let mut rng = crate::core::rng::Rng::new(seed);
        for variant in crate::variant::Variant::all() {
            for _ in 0..games {
                let mut pos = Position::startpos(variant);
                for _ in 0..plies {
                    visit(&mut pos);
                    match pos.outcome().is_none().then(|| pos.random_move(&mut rng)) {
                        Some(Some(mv)) => pos.make_move(mv),
                        _ => break,
                    }
                }
            }
        }
    }

    /// Whether `small` is in `big`, in the same order.
    fn in_order(small: &[Move], big: &[Move]) -> bool {
        let mut rest = big.iter();
        small.iter().all(|mv| rest.any(|m| m == mv))
    }

    fn child(pn: u32, dn: u32, length: u16, line_only: bool) -> Child {
        Child {
            mv: Move::NULL,
            numbers: Numbers { pn, dn },
            length,
            line_only,
        }
    }

    /// The two-line test after a plain move must say what the full test says, in every
    /// position of random games of both variants, for every move of the side to move.
    #[test]
    fn the_attackers_targeted_generation_keeps_every_move_that_may_be_tried_in_order() {
        let (mut positions, mut left_out) = (0, 0);
        along_random_games(29, 12, 160, |pos| {
            let quiet = QuietTest::at(pos, true);
            let (mut all, mut targeted) = (Vec::new(), Vec::new());
            pos.legal_moves(GenMode::Search, &mut all);
            pos.legal_moves_with_quiet_targets(
                |pos, from| quiet.quiet_targets(pos, from),
                &mut targeted,
            );
            let tried: Vec<Move> = all
                .iter()
                .copied()
                .filter(|&mv| !quiet.surely_not_tried(pos, mv))
                .collect();
            // `tried` within `targeted` within `all`, each in the order of `all`.
            assert!(in_order(&tried, &targeted), "{}", pos.to_sfen());
            assert!(in_order(&targeted, &all), "{}", pos.to_sfen());
            let mut everything = Vec::new();
            pos.legal_moves_with_quiet_targets(|_, _| !Bitboard::EMPTY, &mut everything);
            assert_eq!(everything, all);
            positions += 1;
            left_out += all.len() - targeted.len();
        });
        assert!(
            positions > 1_000 && left_out > 20 * positions,
            "{positions} {left_out}"
        );
    }

    #[test]
    fn the_checked_defenders_targeted_generation_keeps_every_move_but_the_surely_hanging() {
        let (mut checked, mut left_out) = (0, 0);
        along_random_games(30, 40, 200, |pos| {
            let own_royal = MoverRoyal::at(pos, no_end_by_quiet_move(pos));
            if !own_royal.hanging_moves_known() {
                return;
            }
            let (mut all, mut targeted) = (Vec::new(), Vec::new());
            pos.legal_moves(GenMode::Search, &mut all);
            pos.legal_moves_with_quiet_targets(
                |pos, from| own_royal.quiet_targets(pos, from),
                &mut targeted,
            );
            let (hanging, kept): (Vec<Move>, Vec<Move>) = all
                .iter()
                .partition(|&&mv| own_royal.surely_hanging(pos, mv));
            assert!(in_order(&kept, &targeted), "{}", pos.to_sfen());
            assert!(in_order(&targeted, &all), "{}", pos.to_sfen());
            let first = own_royal.first_hanging_move(pos);
            assert_eq!(first.is_some(), !hanging.is_empty(), "{}", pos.to_sfen());
            assert!(first.is_none_or(|mv| own_royal.surely_hanging(pos, mv)));
            checked += 1;
            left_out += all.len() - targeted.len();
        });
        assert!(
            checked > 200 && left_out > 20 * checked,
            "{checked} {left_out}"
        );
    }

    #[test]
    fn the_movers_royal_test_agrees_with_the_full_test_after_every_move() {
        use crate::variant::Variant;
        let (mut compared, mut hanging, mut hanging_told_before) = (0, 0, 0);
        let (mut royal_steps, mut royal_steps_hanging) = (0, 0);
        let mut compare_moves = |pos: &mut Position| {
            let own_royal = MoverRoyal::at(pos, no_end_by_quiet_move(pos));
            let mut moves = Vec::new();
            pos.legal_moves(GenMode::Search, &mut moves);
            for mv in moves {
                let told_before = own_royal.surely_hanging(pos, mv);
                let royal_step_hangs = own_royal.royal_step_hangs(pos, mv);
                pos.make_move(mv);
                let hangs = mover_royal_hangs(pos);
                let context = || format!("{} after {mv:?}", pos.to_sfen());
                assert_eq!(own_royal.attacked_after(pos, mv), hangs, "{}", context());
                assert!(
                    !told_before || (hangs && pos.board_outcome().is_none()),
                    "{}",
                    context()
                );
                if let Some(step_hangs) = royal_step_hangs {
                    assert_eq!(step_hangs, hangs, "{}", context());
                    assert!(pos.board_outcome().is_none(), "{}", context());
                    royal_steps += 1;
                    royal_steps_hanging += usize::from(step_hangs);
                }
                compared += 1;
                hanging += usize::from(hangs);
                hanging_told_before += usize::from(told_before);
                pos.unmake_move();
            }
        };
        // A lone king in check from a rook, with a silver that can block or uncover.
        let mut checked = Position::from_sfen(
            Variant::chu(),
            "6k5/12/12/12/12/12/6S5/12/12/12/6R5/5K6 w - 1",
        )
        .unwrap();
        compare_moves(&mut checked);
        along_random_games(28, 12, 160, compare_moves);
        assert!(
            compared > 50_000 && hanging > 500 && hanging_told_before > 100,
            "{compared} {hanging} {hanging_told_before}"
        );
        assert!(
            royal_steps > 1_000 && royal_steps_hanging > 50,
            "{royal_steps} {royal_steps_hanging}"
        );
    }

    #[test]
    fn the_royal_attack_after_a_move_agrees_with_the_full_test() {
        use crate::variant::Variant;
        let mut compared = 0;
        let mut discovered = 0;
        let mut compare_moves = |pos: &mut Position| {
            let quiet = QuietTest::at(pos, true);
            let defender = pos.side_to_move().flip();
            let mut moves = Vec::new();
            pos.legal_moves(GenMode::Search, &mut moves);
            for mv in moves {
                pos.make_move(mv);
                let attacked = pos.royal_attacked(defender);
                assert_eq!(
                    quiet.attacks_royal_after(pos, mv),
                    attacked,
                    "{} after {mv:?}",
                    pos.to_sfen()
                );
                let royal = pos.royals(defender).iter().next();
                if attacked && royal.is_some_and(|r| !pos.leaps_to(mv.to(), r)) {
                    discovered += usize::from(!pos.is_attacked_along(
                        royal.unwrap(),
                        defender.flip(),
                        mv.to(),
                    ));
                }
                compared += 1;
                pos.unmake_move();
            }
        };
        // A silver in front of its rook, on the file of the enemy king: most of its moves
        // uncover the rook's attack.
        let mut uncovering =
            Position::from_sfen(Variant::sho(), "4k4/9/9/9/4S4/9/9/4R4/4K4 b - 1").unwrap();
        compare_moves(&mut uncovering);
        along_random_games(27, 12, 160, compare_moves);
        assert!(
            compared > 50_000 && discovered >= 3,
            "{compared} {discovered}"
        );
    }

    #[test]
    fn an_attacker_node_takes_the_easiest_proof_and_sums_the_disproofs() {
        let children = [
            child(3, 2, 0, false),
            child(1, 5, 0, false),
            child(4, 1, 0, false),
        ];
        let node = summarise(&children, true);
        assert_eq!(node.numbers, Numbers { pn: 1, dn: 8 });
        assert_eq!(most_proving(&children, true), (1, 3));
        // One proven child proves it, with the shortest proof among the proven.
        let children = [
            child(0, INFINITE, 6, false),
            child(0, INFINITE, 2, false),
            child(2, 2, 0, false),
        ];
        let node = summarise(&children, true);
        assert_eq!(node.numbers, Numbers::PROVEN);
        assert_eq!(node.length, 3);
        assert_eq!(proving_child(&children).map(|c| c.length), Some(2));
        // All disproven: disproven, and only on this line if one of them was.
        let children = [child(INFINITE, 0, 0, false), child(INFINITE, 0, 0, true)];
        let node = summarise(&children, true);
        assert_eq!(node.numbers, Numbers::DISPROVEN);
        assert!(node.line_only);
    }

    #[test]
    fn a_defender_node_needs_every_child_proven_and_takes_the_longest() {
        let children = [child(2, 3, 0, false), child(5, 1, 0, false)];
        let node = summarise(&children, false);
        assert_eq!(node.numbers, Numbers { pn: 7, dn: 1 });
        assert_eq!(most_proving(&children, false), (1, 3));
        let children = [child(0, INFINITE, 4, false), child(0, INFINITE, 0, false)];
        let node = summarise(&children, false);
        assert_eq!(node.numbers, Numbers::PROVEN);
        assert_eq!(node.length, 5);
        // One disproven defence disproves it.
        let children = [child(0, INFINITE, 4, false), child(INFINITE, 0, 0, false)];
        assert_eq!(summarise(&children, false).numbers.dn, 0);
    }

    #[test]
    fn proof_numbers_saturate_below_infinity_unless_a_term_is_infinite() {
        assert_eq!(add(2, 3), 5);
        assert_eq!(add(INFINITE - 1, 5), INFINITE - 1);
        assert_eq!(add(INFINITE, 0), INFINITE);
        assert_eq!(add(0, INFINITE), INFINITE);
    }
}
