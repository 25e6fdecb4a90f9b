//! Strength levels: `Skill_Level` -9 to 20, the range lishogi's worker uses (it sends -9,
//! -5 and -1 for its AI levels 1 to 3, then 6, 15 and 20), 20 being full strength.
//!
//! One ladder, two levers, both even from level to level:
//! - a **node budget**: [`LEVEL_19_NODES`] at level 19, halved every
//!   [`LEVELS_PER_HALVING`] levels down (so that a level plays alike on a fast and a slow
//!   machine and at any clock);
//! - a **root bias**: each root move gets a bonus from 0 to [`Skill::max_bias`]
//!   centipawns, drawn from the position and the move, which the search adds to the move's
//!   score. A weaker level thus prefers a plausible move that its search finds a little
//!   worse (the idea of Stockfish's skill levels: a weaker player does not hang its king at
//!   random). The largest bias doubles every [`LEVELS_PER_BIAS_DOUBLING`] levels down from
//!   level 19, which has none. A mate is never biased: a found mate is played.
//!
//! The search stays one line: searching several lines to pick among them costs a level most
//! of its nodes. The choice is deterministic: the randomness comes from the position's
//! key. Each step of the published ladder (every fourth level, and 19 to 20) should score
//! 60 to 80% against the one below: `scripts/measure/skill-levels.sh` measures it,
//! `protocol-docs/lishogi.md` gives the table and `docs/tuning.md` the calibration runs.

use crate::core::score::{is_mate, Score};
use crate::core::Move;

/// The full-strength level.
pub const MAX_LEVEL: i8 = 20;
/// The weakest level (lishogi's AI level 1); lower values count as this one.
pub const MIN_LEVEL: i8 = -9;
/// The node budget of level 19: about two thirds of what one thread searches in 250 ms
/// (two games on two cores), so that the step to full strength at the ladder's measuring
/// clock is one of the ladder's steps, not a cliff. Level 20 is bound by the clock, so on
/// a slower or busier machine this step shrinks.
const LEVEL_19_NODES: f64 = 150_000.0;
/// Levels per halving of the node budget: a step of four levels is 1.5 times the nodes,
/// because in chu a doubling of a small budget is worth a lot.
const LEVELS_PER_HALVING: f64 = 6.8;
/// The largest root bias, at the weakest level, in centipawns.
const MAX_BIAS: Score = 200;
/// Levels per doubling of the largest root bias. Doubling, not growing by a fixed amount:
/// the same few centipawns more matter much at a small bias and little at a large one,
/// where a level already picks almost at random among the moves within reach.
const LEVELS_PER_BIAS_DOUBLING: f64 = 4.0;

/// A strength below full.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skill {
    /// [`MIN_LEVEL`] (weakest) to 19.
    pub level: i8,
}

impl Skill {
    /// The skill for `level` (below [`MIN_LEVEL`]: the weakest); `None` at full strength.
    pub fn new(level: i8) -> Option<Skill> {
        (level < MAX_LEVEL).then_some(Skill {
            level: level.max(MIN_LEVEL),
        })
    }

    /// The most nodes a search may spend at this level (the first iteration always
    /// finishes).
    pub fn max_nodes(self) -> u64 {
        let below_19 = (19 - self.level) as f64;
        (LEVEL_19_NODES * 2f64.powf(-below_19 / LEVELS_PER_HALVING)) as u64
    }

    /// The largest root bias at this level: [`MAX_BIAS`] at the weakest, halved every
    /// [`LEVELS_PER_BIAS_DOUBLING`] levels up, none at level 19.
    pub fn max_bias(self) -> Score {
        if self.level >= 19 {
            return 0;
        }
        let above_weakest = (self.level - MIN_LEVEL) as f64;
        (MAX_BIAS as f64 * 2f64.powf(-above_weakest / LEVELS_PER_BIAS_DOUBLING)).round() as Score
    }

    /// The bias of root move `mv` in the position with key `key`: 0 to
    /// [`max_bias`](Skill::max_bias), the same every time for the same position and move.
    pub fn bias(self, key: u64, mv: Move) -> Score {
        let span = self.max_bias() as u64 + 1;
        (mix(key ^ (mv.raw() as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)) % span) as Score
    }

    /// A root move's score as this level sees it: its search score plus its bias, unless
    /// the score is a mate (a mate is played, and a mate score keeps its distance).
    pub fn biased(self, score: Score, bias: Score) -> Score {
        if is_mate(score) {
            score
        } else {
            score + bias
        }
    }
}

/// A well-mixed 64-bit hash (splitmix64's finaliser).
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ladder_runs_from_minus_nine_to_full_strength_and_every_level_differs() {
        let skill = |level| Skill::new(level).unwrap();
        assert_eq!(skill(19).max_nodes(), 150_000);
        let step = skill(19).max_nodes() as f64 / skill(15).max_nodes() as f64;
        assert!(
            (1.45..1.55).contains(&step),
            "four levels: 1.5 times ({step})"
        );
        assert!((MIN_LEVEL..19).all(|l| skill(l).max_nodes() < skill(l + 1).max_nodes()));
        assert!((MIN_LEVEL..19).all(|l| skill(l).max_bias() >= skill(l + 1).max_bias()));
        assert_eq!(
            skill(-5).max_bias(),
            MAX_BIAS / 2,
            "halved every four levels"
        );
        assert_eq!(skill(MIN_LEVEL).max_bias(), MAX_BIAS);
        assert_eq!(skill(19).max_bias(), 0);
        // lishogi's three weakest AI levels are three players.
        let (a, b, c) = (skill(-9), skill(-5), skill(-1));
        assert!(a.max_nodes() < b.max_nodes() && b.max_nodes() < c.max_nodes());
        assert!(a.max_bias() > b.max_bias() && b.max_bias() > c.max_bias());
        // Below the weakest counts as the weakest; 20 is full strength.
        assert_eq!(Skill::new(-20), Skill::new(MIN_LEVEL));
        assert_eq!(Skill::new(20), None);
    }

    #[test]
    fn the_root_bias_is_fixed_per_position_and_move_spread_over_its_range_and_spares_mates() {
        let s = Skill::new(-9).unwrap();
        let moves: Vec<Move> = (1..200u32).map(|i| Move::from_raw(i * 977)).collect();
        let biases: Vec<Score> = moves.iter().map(|&mv| s.bias(42, mv)).collect();
        assert!(biases.iter().all(|b| (0..=MAX_BIAS).contains(b)));
        assert_eq!(
            biases,
            moves.iter().map(|&mv| s.bias(42, mv)).collect::<Vec<_>>()
        );
        let high = biases.iter().filter(|&&b| b > MAX_BIAS / 2).count();
        assert!((60..140).contains(&high), "{high} of 199 in the upper half");
        assert_ne!(
            s.bias(42, moves[0]),
            s.bias(43, moves[0]),
            "another position"
        );
        assert_eq!(s.biased(120, 50), 170);
        let mate = crate::core::score::mate_in(3);
        assert_eq!(s.biased(mate, 50), mate);
        assert_eq!(Skill::new(19).unwrap().bias(42, moves[0]), 0);
    }
}
