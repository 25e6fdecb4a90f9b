//! Every tunable constant of the search, in one place (the evaluation's weights live in
//! `eval/params.rs`; time management's in `time.rs`). Values are hand-set from the first
//! version; tuning them by self-play is the strength issue's work.

use crate::core::score::Score;

/// Aspiration window around the last iteration's score (centipawns), from this depth on.
pub const ASPIRATION_WINDOW: Score = 30;
/// Depth from which iterations start with an aspiration window.
pub const ASPIRATION_MIN_DEPTH: i32 = 4;
/// A window wider than this becomes a full window.
pub const ASPIRATION_MAX: Score = 1000;

/// A mate score is taken as proven once the iteration depth exceeds its distance by this
/// many plies; a search with limits then ends.
pub const PROVEN_MATE_MARGIN: i32 = 2;

/// Reverse futility: at most this depth, with this margin per ply.
pub const REVERSE_FUTILITY_DEPTH: i32 = 6;
/// Reverse futility margin per ply of depth.
pub const REVERSE_FUTILITY_MARGIN: Score = 110;

/// Null move: from this depth on.
pub const NULL_MOVE_MIN_DEPTH: i32 = 3;
/// Null move reduction: this plus depth / [`NULL_MOVE_DEPTH_DIVISOR`].
pub const NULL_MOVE_BASE_REDUCTION: i32 = 3;
/// See [`NULL_MOVE_BASE_REDUCTION`].
pub const NULL_MOVE_DEPTH_DIVISOR: i32 = 4;

/// Late-move pruning: at most this depth, quiet moves after `base + factor * depth²`.
pub const LMP_MAX_DEPTH: i32 = 3;
/// See [`LMP_MAX_DEPTH`].
pub const LMP_BASE: usize = 4;
/// See [`LMP_MAX_DEPTH`].
pub const LMP_FACTOR: usize = 3;

/// Late-move reductions: from this depth, after this many moves searched.
pub const LMR_MIN_DEPTH: i32 = 3;
/// See [`LMR_MIN_DEPTH`].
pub const LMR_MIN_MOVES: usize = 3;
/// Reduction `base + ln(depth) * ln(moves) / divisor`.
pub const LMR_BASE: f64 = 0.5;
/// See [`LMR_BASE`].
pub const LMR_DIVISOR: f64 = 2.25;

/// History bonus of a quiet cut-off: `factor * depth²`, at most `max`.
pub const HISTORY_BONUS_FACTOR: i32 = 16;
/// See [`HISTORY_BONUS_FACTOR`].
pub const HISTORY_BONUS_MAX: i32 = 2_000;

/// How many plies of quiescence may answer threats to the royal with all moves.
pub const QS_CHECK_PLIES: usize = 2;
/// From this quiescence ply on only recaptures (on the square of the last move) are
/// searched: in a crowded chu position every piece has several even-or-better captures,
/// and without this bound one `go depth 1` took millions of nodes.
pub const QS_RECAPTURE_ONLY_PLIES: usize = 4;
/// Delta pruning: a capture whose material gain, plus this margin, leaves the standing
/// evaluation below alpha is not searched.
pub const QS_DELTA_MARGIN: Score = 200;
