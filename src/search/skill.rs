//! Strength levels (`Skill_Level` 0 to 20, as lishogi's worker sets them for its AI levels):
//! below 20 the search looks at several lines, searches at most `1 + level` plies deep and
//! at most [`Skill::max_nodes`] nodes (a budget that doubles every two levels, so that a
//! level plays alike on a fast and a slow machine and at any clock), and then picks among
//! its lines with a pull towards weaker ones that grows as the level drops
//! (the idea of Stockfish's skill levels: a weaker player prefers plausible moves, it does
//! not hang its king at random). The choice is deterministic: the randomness comes from the
//! position's key.

use super::thread::Line;
use crate::core::rng::Rng;
use crate::core::score::{is_mate, Score};

/// The full-strength level.
pub const MAX_LEVEL: u8 = 20;
/// Lines searched below full strength.
pub const LINES: usize = 4;
/// The largest random pull, in centipawns, at the lowest level.
const MAX_DELTA: Score = 100;
/// The node budget of level 0; it doubles every two levels (level 19: about 145,000 nodes,
/// a third of a second of one thread).
const LEVEL_0_NODES: f64 = 200.0;

/// A strength below full.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skill {
    /// 0 (weakest) to 19.
    pub level: u8,
}

impl Skill {
    /// The skill for `level`; `None` at full strength.
    pub fn new(level: u8) -> Option<Skill> {
        (level < MAX_LEVEL).then_some(Skill { level })
    }

    /// The deepest iteration at this level.
    pub fn max_depth(self) -> i32 {
        1 + self.level as i32
    }

    /// The most nodes a search may spend at this level.
    pub fn max_nodes(self) -> u64 {
        (LEVEL_0_NODES * 2f64.powf(self.level as f64 / 2.0)) as u64
    }

    /// Picks one of `lines` (best first, all from one finished iteration) for a position
    /// with key `key`: the index of the chosen line.
    pub fn pick(self, lines: &[Line], key: u64) -> usize {
        let Some(top) = lines.first().map(|l| l.score) else {
            return 0;
        };
        // A mate found is played (a weak player still takes a king left hanging).
        if is_mate(top) {
            return 0;
        }
        // 128 at level 0 (any of the lines within the random pull is as good as the best)
        // down to 14 at level 19: steeper than Stockfish's 120 - 2 * level, because at the
        // low levels our node budgets differ too little for the depth alone to tell them
        // apart (levels 0 and 5 scored 58% for 5 with that slope).
        let weakness = 128 - 6 * self.level as Score;
        let worst = lines.last().map_or(top, |l| l.score);
        let delta = (top - worst).min(MAX_DELTA);
        let mut rng = Rng::new(key ^ 0x5eed_5eed_5eed_5eed);
        let mut best = (0, Score::MIN);
        for (i, line) in lines.iter().enumerate() {
            if is_mate(line.score) {
                continue;
            }
            let pull = (weakness * (top - line.score)
                + delta * rng.below(weakness as usize) as Score)
                / 128;
            let value = line.score + pull;
            if value > best.1 {
                best = (i, value);
            }
        }
        best.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Move;

    fn lines(scores: &[Score]) -> Vec<Line> {
        scores
            .iter()
            .map(|&score| Line {
                depth: 3,
                seldepth: 3,
                score,
                bound: None,
                pv: vec![Move::NULL],
            })
            .collect()
    }

    #[test]
    fn low_levels_stray_from_the_best_line_high_ones_less() {
        let l = lines(&[50, 40, 20, -30]);
        let strays = |level: u8| {
            (0..1000u64)
                .filter(|&key| Skill::new(level).unwrap().pick(&l, key) != 0)
                .count()
        };
        let (low, high) = (strays(0), strays(19));
        assert!(low > 300, "{low}");
        assert!(high < low, "{high} vs {low}");
        // Deterministic.
        let s = Skill::new(3).unwrap();
        assert_eq!(s.pick(&l, 42), s.pick(&l, 42));
        assert_eq!(Skill::new(20), None);
        // A found mate is always played.
        assert_eq!(s.pick(&lines(&[30_990, 40, 20]), 7), 0);
    }

    #[test]
    fn the_node_budget_doubles_every_two_levels() {
        let nodes = |level| Skill::new(level).unwrap().max_nodes();
        assert_eq!(nodes(0), 200);
        assert_eq!(nodes(2), 400);
        assert_eq!(nodes(10), 6_400);
        assert!((100_000..200_000).contains(&nodes(19)), "{}", nodes(19));
        assert!((0..19).all(|l| nodes(l) < nodes(l + 1)));
    }
}
