//! A game's figures per side: the moves judged, the inaccuracies, mistakes and blunders,
//! the average centipawn loss, and the accuracy as lichess computes a game's accuracy (the
//! formula is public: lichess's "accuracy" page and its code; nothing here is its code).
//!
//! A move's accuracy comes from the win percentage it gave away against the best move
//! (`103.1668 exp(-0.04354 lost) - 3.1669`, plus one point for the uncertainty of the
//! evaluation, from 0 to 100). A side's accuracy is the mean of two means of its moves'
//! accuracies: one weighted by how much the evaluation moved around each move (the
//! standard deviation of the win percentages in a window of positions, 0.5 to 12: a move in
//! a calm position weighs little), and the harmonic mean (one very bad move pulls it down
//! hard). So a side that plays one blunder among good moves scores far below the plain
//! average of its moves.

use super::judgement::{as_cp, keeps_forced_win, winning_chances, Judgement, CHANCES_CEILING_CP};
use crate::core::score::Score;
use crate::core::Color;
use serde::{Deserialize, Serialize};

/// One judged move, as the summary needs it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JudgedMove {
    /// The mover.
    pub mover: Color,
    /// The best move's value, from the mover's side.
    pub best: Score,
    /// The move played's value, from the mover's side.
    pub played: Score,
    /// Its judgement.
    pub judgement: Option<Judgement>,
}

/// One side's figures over a game's analysed moves; written in the summary line as they
/// are (JSON, camelCase), the two averages to a tenth.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SideSummary {
    /// Moves judged.
    pub moves: u32,
    /// Inaccuracies (?!).
    pub inaccuracies: u32,
    /// Mistakes (?).
    pub mistakes: u32,
    /// Blunders (??).
    pub blunders: u32,
    /// Centipawns given away per move, each move's loss counted up to 2000 (the chances'
    /// ceiling); none (`null`) without a judged move.
    #[serde(serialize_with = "to_a_tenth")]
    pub average_cp_loss: Option<f64>,
    /// The side's accuracy, percent (see the module's doc); none (`null`) without a judged
    /// move.
    #[serde(serialize_with = "to_a_tenth")]
    pub accuracy: Option<f64>,
}

/// Writes a figure rounded to a tenth.
fn to_a_tenth<S: serde::Serializer>(value: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    value.map(|x| (x * 10.0).round() / 10.0).serialize(s)
}

/// Both sides' figures: the `summary` of a game's summary line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameFigures {
    /// Sente's.
    pub sente: SideSummary,
    /// Gote's.
    pub gote: SideSummary,
}

/// How many critical moments a game's review names at most.
pub const CRITICAL_MOMENTS: usize = 5;

/// A game's critical moments: the indices of its judged plies (each ply's winning chances
/// given away, `None` for a ply not judged) that gave away the most, worst first (the
/// earlier ply first among equals), at most [`CRITICAL_MOMENTS`].
pub fn critical_moments(plies: impl IntoIterator<Item = Option<i32>>) -> Vec<usize> {
    let mut judged: Vec<(usize, i32)> = plies
        .into_iter()
        .enumerate()
        .filter_map(|(i, lost)| Some((i, lost?)))
        .collect();
    judged.sort_by_key(|&(i, lost)| (std::cmp::Reverse(lost), i));
    judged
        .into_iter()
        .take(CRITICAL_MOMENTS)
        .map(|(i, _)| i)
        .collect()
}

/// A score's win percentage for the side it belongs to, 0 to 100.
fn win_percent(score: Score) -> f64 {
    50.0 + 50.0 * winning_chances(score)
}

/// A move's accuracy, percent: 100 for the best move (or one that keeps a forced win).
pub fn move_accuracy(best: Score, played: Score) -> f64 {
    if keeps_forced_win(played) {
        return 100.0;
    }
    let lost = (win_percent(best) - win_percent(played)).max(0.0);
    (103.166_8 * (-0.043_54 * lost).exp() - 3.166_9 + 1.0).clamp(0.0, 100.0)
}

/// The standard deviation of some win percentages.
fn standard_deviation(values: &[f64]) -> f64 {
    let n = values.len().max(1) as f64;
    let mean = values.iter().sum::<f64>() / n;
    (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n).sqrt()
}

/// Each side's figures over `moves` (in game order).
pub fn summarise(moves: &[JudgedMove]) -> [SideSummary; 2] {
    let sente_view = |m: &JudgedMove, s: Score| if m.mover == Color::Sente { s } else { -s };
    // Sente's win percentage before the first judged move and after each.
    let mut positions: Vec<f64> = Vec::with_capacity(moves.len() + 1);
    if let Some(first) = moves.first() {
        positions.push(win_percent(sente_view(first, first.best)));
    }
    positions.extend(moves.iter().map(|m| win_percent(sente_view(m, m.played))));
    let window = (moves.len() / 10).clamp(2, 8).min(positions.len());
    let mut sums = [(0.0f64, 0.0f64, 0.0f64); 2]; // weighted sum, weights, sum of 1/accuracy
    let mut summary = [SideSummary::default(); 2];
    let mut cp_loss = [0i64; 2];
    for (k, m) in moves.iter().enumerate() {
        let side = m.mover.index();
        let s = &mut summary[side];
        s.moves += 1;
        match m.judgement {
            Some(Judgement::Blunder) => s.blunders += 1,
            Some(Judgement::Mistake) => s.mistakes += 1,
            Some(Judgement::Inaccuracy) => s.inaccuracies += 1,
            None => {}
        }
        cp_loss[side] += i64::from((as_cp(m.best) - as_cp(m.played)).clamp(0, CHANCES_CEILING_CP));
        // The window of positions around the move (the position after it and those
        // before, or the first ones at the start).
        let end = (k + 2).max(window).min(positions.len());
        let weight = standard_deviation(&positions[end - window..end]).clamp(0.5, 12.0);
        let accuracy = move_accuracy(m.best, m.played);
        sums[side].0 += accuracy * weight;
        sums[side].1 += weight;
        sums[side].2 += 1.0 / accuracy.max(1e-9);
    }
    for (side, s) in summary.iter_mut().enumerate() {
        if s.moves == 0 {
            continue;
        }
        let n = f64::from(s.moves);
        let weighted = sums[side].0 / sums[side].1;
        let harmonic = n / sums[side].2;
        s.accuracy = Some((weighted + harmonic) / 2.0);
        s.average_cp_loss = Some(cp_loss[side] as f64 / n);
    }
    summary
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(mover: Color, best: Score, played: Score) -> JudgedMove {
        JudgedMove {
            mover,
            best,
            played,
            judgement: None,
        }
    }

    #[test]
    fn one_blunder_weighs_more_than_its_share_of_a_plain_average() {
        // Twenty best moves each, then sente throws away 6 pawns in an even position.
        let mut moves: Vec<JudgedMove> = (0..40)
            .map(|i| {
                let c = if i % 2 == 0 {
                    Color::Sente
                } else {
                    Color::Gote
                };
                mv(c, 20, 20)
            })
            .collect();
        moves[20] = mv(Color::Sente, 20, -600);
        let [sente, gote] = summarise(&moves);
        assert_eq!((sente.moves, gote.moves), (20, 20));
        let (sente_accuracy, gote_accuracy) = (sente.accuracy.unwrap(), gote.accuracy.unwrap());
        assert!((gote_accuracy - 100.0).abs() < 1e-9, "{gote:?}");
        let plain = (19.0 * 100.0 + move_accuracy(20, -600)) / 20.0;
        assert!(
            sente_accuracy < plain - 10.0,
            "{} vs plain {plain}",
            sente_accuracy
        );
        assert!(sente_accuracy > 0.0);
        assert_eq!(sente.average_cp_loss, Some(620.0 / 20.0));
    }

    #[test]
    fn a_move_as_good_as_the_best_is_a_hundred() {
        assert_eq!(move_accuracy(50, 50), 100.0);
        assert_eq!(move_accuracy(50, 80), 100.0);
        assert!(move_accuracy(50, -250) < 60.0);
    }
}
