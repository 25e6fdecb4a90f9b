//! Texel tuning of the evaluation (Peter Österlund's method): take quiet positions of
//! finished games, map the static evaluation to an expected score with a logistic curve,
//! and change the evaluation's parameters one at a time while the mean squared difference
//! to the games' results goes down.
//!
//! Two steps, each a `shishi tune` subcommand: [`extract`] turns match records (JSON lines
//! of `shishi match`) into training lines `RESULT VARIANT SFEN`, and [`tune`] fits the
//! parameters of [`Resolved`] to a [`Dataset`] of such lines. The positions are quiet by
//! the moves around them: the side to move's royal is not attacked, the move played from it
//! is no capture or promotion, and the move before it was no capture (no exchange half
//! done), so the static evaluation is what a quiescence search would return.
//!
//! A line's RESULT may also be any expected score from 0 to 1, so that the fit can follow
//! another judge than the games alone: `scripts/measure/label.py` blends each game's result with a
//! stronger engine's score of the position.

use crate::core::Color;
use crate::eval::params::{Resolved, Weights};
use crate::eval::Evaluator;
use crate::position::Position;
use crate::records::{GameRecord, GameResult};
use crate::search::movepick::is_capture;
use crate::variant::Variant;
use rayon::prelude::*;

/// Which positions of a game become training positions.
#[derive(Clone, Copy, Debug)]
pub struct ExtractOptions {
    /// Plies at the start of a game that are never taken (besides the book's).
    pub skip_plies: usize,
    /// Take only every n-th ply (1: every one), to have fewer near-identical positions.
    pub every: usize,
}

/// The training lines of one game: `RESULT VARIANT SFEN` per quiet position, RESULT from
/// sente's side (1, 0.5 or 0). A game lost by forfeit gives none (its result says nothing
/// about the board), nor one the match runner drew at its ply limit (self-play games that
/// wander far ahead until the limit would teach that a large lead draws: 12 of 210 sho
/// self-play games at 1+0.02 ended there, most of them 5 to 8 pawns up). An error names the
/// move that does not replay.
pub fn extract(record: &GameRecord, options: &ExtractOptions) -> Result<Vec<String>, String> {
    let result = match record.result() {
        GameResult::SenteWon => "1",
        GameResult::GoteWon => "0",
        GameResult::Draw => "0.5",
        GameResult::Unfinished => return Err(format!("game {}: unfinished ('*')", record.number)),
    };
    if record.forfeit || record.ended_at_move_limit() {
        return Ok(Vec::new());
    }
    let variant = record.game.variant;
    let mut pos = Position::from_sfen(variant, &record.game.start_sfen)
        .map_err(|e| format!("game {}: {e}", record.number))?;
    let mut lines = Vec::new();
    let mut previous_was_capture = false;
    for (ply, text) in record.game.moves.iter().enumerate() {
        let mv = pos
            .parse_game_move(text)
            .map_err(|e| format!("game {}: ply {}: {e}", record.number, ply + 1))?;
        let capture = is_capture(&pos, mv);
        let from_book = record.game.comments.get(ply).is_some_and(|c| c == "book");
        let quiet = !capture && !mv.is_promotion() && !previous_was_capture;
        if quiet
            && !from_book
            && ply >= options.skip_plies
            && ply % options.every.max(1) == 0
            && !pos.royal_attacked(pos.side_to_move())
        {
            lines.push(format!("{result} {} {}", variant.name(), pos.to_sfen()));
        }
        previous_was_capture = capture;
        pos.make_move(mv);
    }
    Ok(lines)
}

/// Training positions of one variant with their targets: the games' results or expected
/// scores (sente's side).
pub struct Dataset {
    /// The variant of every position.
    pub variant: &'static Variant,
    positions: Vec<Position>,
    /// Each position's target: its game's result or an expected score, from 0 to 1.
    targets: Vec<f64>,
}

/// Why training lines were not read: the file, the line (none: the file as a whole) and
/// what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}{}: {problem}", line.map_or(String::new(), |n| format!(":{n}")))]
pub struct DatasetError {
    /// The file.
    pub file: String,
    /// The line (from 1).
    pub line: Option<usize>,
    /// What is wrong.
    pub problem: LineProblem,
}

/// What is wrong with a training line (or the file).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LineProblem {
    /// Fewer than three fields.
    #[error("expected RESULT VARIANT SFEN")]
    Fields,
    /// A result that is no score.
    #[error("result '{0}' is not a score from 0 to 1")]
    Result(String),
    /// A variant the engine does not play.
    #[error("unknown variant {0}")]
    Variant(String),
    /// An SFEN that does not parse.
    #[error("{0}")]
    Sfen(#[from] crate::position::sfen::SfenError),
    /// A line of another variant than the first line's.
    #[error("a second variant ({0})")]
    SecondVariant(&'static str),
    /// No training line at all.
    #[error("no training lines")]
    Empty,
}

impl Dataset {
    /// Reads training lines (`RESULT VARIANT SFEN`; `#` comments and blank lines skipped).
    /// Every line must parse and be of one variant; the error names the file and line.
    pub fn parse(text: &str, file: &str) -> Result<Dataset, DatasetError> {
        let error = |line, problem| DatasetError {
            file: file.to_string(),
            line,
            problem,
        };
        let lines: Vec<(usize, &str)> = text
            .lines()
            .enumerate()
            .map(|(n, l)| (n + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
            .collect();
        let parsed: Vec<Result<(&'static Variant, Position, f64), DatasetError>> = lines
            .par_iter()
            .map(|&(n, line)| parse_line(line).map_err(|e| error(Some(n), e)))
            .collect();
        let mut variant = None;
        let (mut positions, mut targets) = (Vec::new(), Vec::new());
        for (item, &(n, _)) in parsed.into_iter().zip(&lines) {
            let (v, pos, target) = item?;
            if variant.is_some_and(|first: &Variant| first.name() != v.name()) {
                return Err(error(Some(n), LineProblem::SecondVariant(v.name())));
            }
            variant = Some(v);
            positions.push(pos);
            targets.push(target);
        }
        let variant = variant.ok_or_else(|| error(None, LineProblem::Empty))?;
        Ok(Dataset {
            variant,
            positions,
            targets,
        })
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// Splits off the last `percent` of the positions as a validation set: `(training,
    /// validation)`. Training lines come game after game, so the validation positions are
    /// from other games than the training ones (positions of one game share its result).
    pub fn split_tail(mut self, percent: usize) -> (Dataset, Dataset) {
        let keep = self.len() - self.len() * percent.min(100) / 100;
        let check = Dataset {
            variant: self.variant,
            positions: self.positions.split_off(keep),
            targets: self.targets.split_off(keep),
        };
        (self, check)
    }

    /// How many pieces of each kind the positions hold (both colours).
    fn kind_counts(&self) -> Vec<usize> {
        let mut counts = vec![0; self.variant.kind_count()];
        for pos in &self.positions {
            for sq in pos.occupied(Color::Sente) | pos.occupied(Color::Gote) {
                counts[pos.piece_on(sq).kind() as usize] += 1;
            }
        }
        counts
    }
}

fn parse_line(line: &str) -> Result<(&'static Variant, Position, f64), LineProblem> {
    let mut parts = line.splitn(3, ' ');
    let (result, variant, sfen) = match (parts.next(), parts.next(), parts.next()) {
        (Some(r), Some(v), Some(s)) => (r, v, s),
        _ => return Err(LineProblem::Fields),
    };
    let result: f64 = match result.parse::<f64>() {
        Ok(score) if (0.0..=1.0).contains(&score) => score,
        _ => return Err(LineProblem::Result(result.to_string())),
    };
    let variant =
        Variant::by_name(variant).ok_or_else(|| LineProblem::Variant(variant.to_string()))?;
    let pos = Position::from_sfen(variant, sfen)?;
    // A clone drops the spare capacity of the move history: a training set holds many.
    Ok((variant, pos.clone(), result))
}

/// The expected score of sente for an evaluation `eval` (centipawns, sente's side).
fn expected(eval: i32, scale: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-scale * eval as f64 / 400.0))
}

/// The mean squared difference between the targets (games' results or expected scores)
/// and the evaluation's expected scores.
pub fn mean_error(ev: &Evaluator, data: &Dataset, scale: f64) -> f64 {
    let sum: f64 = data
        .positions
        .par_iter()
        .zip(&data.targets)
        .map(|(pos, &target)| {
            let e = expected(ev.breakdown(pos).total(), scale);
            (target - e) * (target - e)
        })
        .sum();
    sum / data.len().max(1) as f64
}

/// The scale of the logistic curve that fits `ev` best to `data` (golden-section search).
pub fn fit_scale(ev: &Evaluator, data: &Dataset) -> f64 {
    let (mut lo, mut hi) = (0.05f64, 4.0f64);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    while hi - lo > 0.001 {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if mean_error(ev, data, a) < mean_error(ev, data, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// How the search over the parameters runs.
#[derive(Clone, Copy, Debug)]
pub struct TuneOptions {
    /// At most this many passes over the parameters.
    pub max_passes: usize,
    /// A kind's parameters stay as they are unless the positions hold at least this many
    /// pieces of it (too few to learn from).
    pub min_occurrences: usize,
}

/// Where a tuning run stands after a pass.
#[derive(Clone, Debug)]
pub struct FitProgress {
    /// Passes done.
    pub pass: usize,
    /// The training error now.
    pub error: f64,
    /// Parameters changed in this pass.
    pub changed: usize,
    /// The parameters now.
    pub params: Resolved,
}

/// Which entries of the flat vector are tuned: not the pawn's value (it fixes the scale:
/// a pawn is 100), not a royal's (both sides have theirs; a position without one is over),
/// not those of kinds seen fewer than `min_occurrences` times, nor those of a kind that
/// plays as an earlier one (`alike`: it follows that one's).
fn tunable_entries(data: &Dataset, min_occurrences: usize, alike: &[usize]) -> Vec<bool> {
    let v = data.variant;
    let n = v.kind_count();
    let mut counts = vec![0; n];
    for (kind, count) in data.kind_counts().into_iter().enumerate() {
        counts[alike[kind]] += count;
    }
    let mut tuned = vec![true; 3 * n + Weights::NAMES.len()];
    for kind in 0..n {
        let rare = counts[kind] < min_occurrences;
        // A kind that plays as an earlier one follows that one's entries.
        let follows = alike[kind] != kind;
        let fixed_value = v.spec.kinds[kind].sfen == "p" || v.spec.kinds[kind].royal;
        tuned[kind] = !rare && !follows && !fixed_value;
        tuned[n + kind] = !rare && !follows;
        tuned[2 * n + kind] = !rare && !follows;
    }
    tuned
}

/// Per kind, the first kind that plays as it does ([`KindSpec::plays_as`]), royals left
/// alone (their values are fixed). The fit gives such kinds one value and one placement:
/// left to themselves, the sho fits spread the gold and the four promoted pieces that move
/// as it from 283 to 405 centipawns, though without drops a captured tokin is as gone as a
/// captured gold (in chu: the lion and the promoted kirin, the queen and the promoted
/// phoenix).
///
/// [`KindSpec::plays_as`]: crate::variant::KindSpec::plays_as
pub fn alike_kinds(variant: &Variant) -> Vec<usize> {
    let kinds = &variant.spec.kinds;
    (0..kinds.len())
        .map(|k| {
            (0..k)
                .find(|&first| !kinds[k].royal && kinds[first].plays_as(&kinds[k]))
                .unwrap_or(k)
        })
        .collect()
}

/// Gives every kind of `flat` the value and placement of the first kind that plays as it
/// (`alike`, from [`alike_kinds`]).
fn copy_to_alike(flat: &mut [i32], alike: &[usize]) {
    let n = alike.len();
    for (kind, &first) in alike.iter().enumerate() {
        for table in 0..3 {
            flat[table * n + kind] = flat[table * n + first];
        }
    }
}

/// Gives each group of kinds that play alike the mean of its members' value and placement
/// (rounded), so that a fit starts from one value per group.
fn start_alike_at_their_mean(flat: &mut [i32], alike: &[usize]) {
    let n = alike.len();
    for first in 0..n {
        let members: Vec<usize> = (0..n).filter(|&k| alike[k] == first).collect();
        if members.len() < 2 {
            continue;
        }
        for table in 0..3 {
            let sum: i32 = members.iter().map(|&k| flat[table * n + k]).sum();
            let mean = f64::from(sum) / members.len() as f64;
            flat[table * n + first] = mean.round() as i32;
        }
    }
    copy_to_alike(flat, alike);
}

/// The range an entry of the flat vector is kept in.
fn bounds(variant: &Variant, index: usize) -> (i32, i32) {
    let n = variant.kind_count();
    if index < n {
        return (10, 10_000);
    }
    if index < 3 * n {
        return (-50, 50);
    }
    match Weights::NAMES[index - 3 * n] {
        "promotion_potential_pct" | "lion_hunted_pct" | "lion_prey_pct" => (0, 100),
        _ => (0, 500),
    }
}

/// The first step of an entry: coarse for values, fine for small weights; halved whenever
/// neither direction helps, down to 1.
fn first_step(variant: &Variant, index: usize, value: i32) -> i32 {
    if index < variant.kind_count() {
        16
    } else {
        (value.abs() / 4).clamp(1, 8)
    }
}

/// Tunes `start` on `data` with the logistic scale `scale` (coordinate descent: each
/// tuned entry in turn one step up, else one step down, kept if the error falls). Kinds
/// that play alike ([`alike_kinds`]) start from their mean and move as one.
/// `progress` is called after every pass.
pub fn tune(
    data: &Dataset,
    start: &Resolved,
    scale: f64,
    options: &TuneOptions,
    mut progress: impl FnMut(&FitProgress),
) -> Resolved {
    let variant = data.variant;
    let alike = alike_kinds(variant);
    let tuned = tunable_entries(data, options.min_occurrences, &alike);
    let error_of = |flat: &[i32]| {
        let params = Resolved::from_vec(variant, flat).expect("the vector keeps its length");
        mean_error(&Evaluator::with_params(variant, &params), data, scale)
    };
    let mut current = start.to_vec();
    start_alike_at_their_mean(&mut current, &alike);
    let mut steps: Vec<i32> = current
        .iter()
        .enumerate()
        .map(|(i, &v)| first_step(variant, i, v))
        .collect();
    let mut best = error_of(&current);
    for pass in 1..=options.max_passes {
        let mut changed = 0;
        for i in (0..current.len()).filter(|&i| tuned[i]) {
            let (lo, hi) = bounds(variant, i);
            let mut improved = false;
            for direction in [1, -1] {
                let mut candidate = current.clone();
                candidate[i] = (current[i] + direction * steps[i]).clamp(lo, hi);
                if candidate[i] == current[i] {
                    continue;
                }
                copy_to_alike(&mut candidate, &alike);
                let error = error_of(&candidate);
                if error < best {
                    best = error;
                    current = candidate;
                    improved = true;
                    break;
                }
            }
            if improved {
                changed += 1;
            } else {
                steps[i] = (steps[i] / 2).max(1);
            }
        }
        let params = Resolved::from_vec(variant, &current).expect("same length");
        progress(&FitProgress {
            pass,
            error: best,
            changed,
            params,
        });
        if changed == 0 && steps.iter().zip(&tuned).all(|(&s, &t)| !t || s == 1) {
            break;
        }
    }
    Resolved::from_vec(variant, &current).expect("same length")
}
