//! The scale a move is judged on: the winning chances of a score (a logistic curve of the
//! centipawns, a mate at either end), the judgements (inaccuracy, mistake, blunder) and the
//! thresholds between them.

use crate::core::score::{mate_plies, Score};

/// Judgement thresholds: the winning chances a move gives away against the best move, in
/// hundredths of the scale from -1 (lost) to +1 (won) of [`winning_chances`] (lichess judges
/// moves this way, with 10, 20 and 30; lishogi's analysis descends from lichess's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thresholds {
    /// At least this is an inaccuracy.
    pub inaccuracy: i32,
    /// At least this is a mistake.
    pub mistake: i32,
    /// At least this is a blunder.
    pub blunder: i32,
}

impl Thresholds {
    /// lichess's: 10, 20 and 30 (`shishi analyse`'s defaults, and a page's review's).
    pub const DEFAULT: Thresholds = Thresholds {
        inaccuracy: 10,
        mistake: 20,
        blunder: 30,
    };
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds::DEFAULT
    }
}

/// What a move is judged to be, by the winning chances it gave away ([`Thresholds`]).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Judgement {
    /// `?!`
    Inaccuracy,
    /// `?`
    Mistake,
    /// `??`
    Blunder,
}

impl Judgement {
    /// The name in result lines and the report: `inaccuracy`, `mistake`, `blunder`.
    pub fn name(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "inaccuracy",
            Judgement::Mistake => "mistake",
            Judgement::Blunder => "blunder",
        }
    }

    /// A name read back (`--resume`); `None` for anything else.
    pub fn parse(name: &str) -> Option<Judgement> {
        [
            Judgement::Inaccuracy,
            Judgement::Mistake,
            Judgement::Blunder,
        ]
        .into_iter()
        .find(|j| j.name() == name)
    }

    /// The mark after a move: `?!`, `?`, `??`.
    pub fn glyph(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "?!",
            Judgement::Mistake => "?",
            Judgement::Blunder => "??",
        }
    }

    /// The words of lishogi's analysis in English.
    pub fn words(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "Inaccuracy",
            Judgement::Mistake => "Mistake",
            Judgement::Blunder => "Blunder",
        }
    }

    /// The words lishogi's analysis uses (疑問手, 悪手, 大悪手).
    pub fn kanji(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "疑問手",
            Judgement::Mistake => "悪手",
            Judgement::Blunder => "大悪手",
        }
    }
}

/// The slope of [`winning_chances`] per centipawn, fitted to chu: Shishi's scores (200,000
/// nodes, the analysis default) of 1,680 positions of 32 self-play games against the
/// games' results, by `scripts/measure/label.py` (logistic slope 0.360 on its `10^(-s cp / 400)`
/// scale, that is 0.360 ln 10 / 400 per centipawn; protocol-docs/analyse.md). Shishi's chu
/// centipawns weigh less than chess ones (lichess's slope is 0.00368): at 500 cp the chances
/// are 0.48, at 1000 cp 0.78, at 2000 cp 0.97. Sho uses the same curve (not fitted).
pub(crate) const WINNING_CHANCES_PER_CP: f64 = 0.360 * std::f64::consts::LN_10 / 400.0;

/// Winning chances given away (hundredths of the -1..+1 scale) as points of a 0-100% chance
/// to win: half as many, rounded.
pub fn chance_points(hundredths: i64) -> i64 {
    (hundredths + 1) / 2
}

/// The chances that a score gives the side it belongs to, from -1 (lost) to +1 (won): a
/// logistic curve of the centipawns, and exactly +1 or -1 for a mate, so that a mate
/// outranks every centipawn score.
pub fn winning_chances(score: Score) -> f64 {
    match mate_plies(score) {
        Some(p) if p > 0 => 1.0,
        Some(_) => -1.0,
        None => {
            let cp = f64::from(score.clamp(-CHANCES_CEILING_CP, CHANCES_CEILING_CP));
            2.0 / (1.0 + (-WINNING_CHANCES_PER_CP * cp).exp()) - 1.0
        }
    }
}

/// Centipawn scores count at most this much in [`winning_chances`] (lichess stops at ten
/// pawns; on the chu curve twenty of Shishi's pawns are 0.97): beyond it the game is
/// decided, and a mate stays above every such score.
pub(crate) const CHANCES_CEILING_CP: Score = 2000;

/// The winning chances a move gave away (`best` and `played` from the mover's side), in
/// hundredths (0 for a move as good as the best), and its judgement. A move that keeps a
/// forced win is never judged, however much faster the best move mates.
pub(crate) fn judge(best: Score, played: Score, t: &Thresholds) -> (i32, Option<Judgement>) {
    if keeps_forced_win(played) {
        return (0, None);
    }
    let lost = ((winning_chances(best) - winning_chances(played)) * 100.0)
        .max(0.0)
        .round() as i32;
    (lost, judgement(lost, t))
}

/// Whether the played move's score (the mover's side) is a forced win: such a move is as
/// good as any for judgements and accuracy, however much faster the best move mates.
pub(crate) fn keeps_forced_win(played: Score) -> bool {
    mate_plies(played).is_some_and(|p| p > 0)
}

/// A score as centipawns for comparisons, mates counted as large values.
pub(crate) fn as_cp(score: Score) -> i32 {
    match mate_plies(score) {
        Some(p) if p > 0 => 10_000 - p,
        Some(p) => -10_000 - p,
        None => score,
    }
}

/// The judgement of a move that gave away `loss` (hundredths of winning chances).
pub(crate) fn judgement(loss: i32, t: &Thresholds) -> Option<Judgement> {
    if loss >= t.blunder {
        Some(Judgement::Blunder)
    } else if loss >= t.mistake {
        Some(Judgement::Mistake)
    } else if loss >= t.inaccuracy {
        Some(Judgement::Inaccuracy)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::score::{mate_in, mated_in};
    #[test]
    fn a_mate_outranks_every_centipawn_score() {
        assert_eq!(winning_chances(mate_in(99)), 1.0);
        assert_eq!(winning_chances(mated_in(99)), -1.0);
        assert!(winning_chances(12_204) < 1.0 && winning_chances(-12_204) > -1.0);
        assert!(winning_chances(0).abs() < 1e-9);
    }

    #[test]
    fn verdicts_follow_the_winning_chances_given_away() {
        let t = Thresholds::default();
        // Issue 25: a move that forces mate was a "blunder" because the best move's
        // +122.04 outranked its mate 6. A forced win is never a mistake.
        assert_eq!(judge(12_204, mate_in(6), &t), (0, None));
        assert_eq!(judge(mate_in(3), mate_in(9), &t), (0, None));
        // Ten pawns up, a pawn less changes little: no mark. Even, a pawn is an inaccuracy
        // (chu's curve: Shishi's pawns weigh less than chess's).
        assert_eq!(judge(1_100, 1_000, &t).1, None);
        assert_eq!(judge(-1_000, -1_100, &t).1, None);
        assert_eq!(judge(20, -20, &t).1, None);
        assert_eq!(judge(50, -50, &t).1, Some(Judgement::Inaccuracy));
        assert_eq!(judge(100, -100, &t).1, Some(Judgement::Mistake));
        assert_eq!(judge(150, -150, &t).1, Some(Judgement::Blunder));
        // Letting a forced win go, or walking into a mate, is a blunder.
        assert_eq!(judge(mate_in(5), 0, &t).1, Some(Judgement::Blunder));
        assert_eq!(judge(0, mated_in(4), &t).1, Some(Judgement::Blunder));
        // A better move than the best found is no loss.
        assert_eq!(judge(0, 40, &t), (0, None));
    }
}
