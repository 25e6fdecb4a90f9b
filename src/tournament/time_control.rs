//! A match's time control (Fischer, byoyomi, a fixed time or node count per move), read from
//! the command line and said in each protocol's words. Its own file, below the engine
//! driver and the game loop that both use it.

use super::error::{ArgumentProblem, MatchError};

/// The time control of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// Main time and increment per move (ms).
    Fischer {
        /// Main time.
        base_ms: u64,
        /// Increment.
        inc_ms: u64,
    },
    /// Main time, then byoyomi per move (ms).
    Byoyomi {
        /// Main time.
        base_ms: u64,
        /// Byoyomi.
        byoyomi_ms: u64,
    },
    /// A fixed time per move (ms).
    MoveTime(u64),
    /// A fixed node count per move.
    Nodes(u64),
}

impl TimeControl {
    /// Parses `60+1` (Fischer, seconds), for `--tc`.
    pub fn fischer(text: &str) -> Result<TimeControl, MatchError> {
        let (base, inc) = two_numbers(text, "--tc")?;
        Ok(TimeControl::Fischer {
            base_ms: (base * 1000.0) as u64,
            inc_ms: (inc * 1000.0) as u64,
        })
    }

    /// Parses `10+1` (main time + byoyomi, seconds), for `--byoyomi`.
    pub fn byoyomi(text: &str) -> Result<TimeControl, MatchError> {
        let (base, byo) = two_numbers(text, "--byoyomi")?;
        Ok(TimeControl::Byoyomi {
            base_ms: (base * 1000.0) as u64,
            byoyomi_ms: (byo * 1000.0) as u64,
        })
    }

    /// The CECP line that announces the time control.
    pub(super) fn cecp_level(&self) -> String {
        let mmss = |ms: u64| format!("{}:{:02}", ms / 60_000, (ms / 1000) % 60);
        match *self {
            TimeControl::Fischer { base_ms, inc_ms } => format!(
                "level 0 {} {}",
                mmss(base_ms.max(1000)),
                inc_ms as f64 / 1000.0
            ),
            TimeControl::Byoyomi {
                base_ms,
                byoyomi_ms,
            } => format!(
                "level 0 {} {}",
                mmss((base_ms + byoyomi_ms).max(1000)),
                byoyomi_ms as f64 / 1000.0
            ),
            TimeControl::MoveTime(ms) => format!("st {}", (ms / 1000).max(1)),
            TimeControl::Nodes(_) => "st 1".to_string(),
        }
    }
}

fn two_numbers(text: &str, flag: &'static str) -> Result<(f64, f64), MatchError> {
    let (a, b) = text.split_once('+').unwrap_or((text, "0"));
    let in_range = |x: f64| (0.0..=MAX_CLOCK_SECONDS).contains(&x);
    match (a.parse::<f64>(), b.parse::<f64>()) {
        (Ok(a), Ok(b)) if in_range(a) && in_range(b) && a + b > 0.0 => Ok((a, b)),
        _ => Err(MatchError::Argument {
            flag,
            problem: ArgumentProblem::Clock {
                text: text.to_string(),
                max_seconds: MAX_CLOCK_SECONDS as u64,
            },
        }),
    }
}

/// The longest clock a match takes, in seconds (a week): enough for any game, and a match
/// that could never end (`inf`, `1e300`) is refused.
const MAX_CLOCK_SECONDS: f64 = 7.0 * 24.0 * 3600.0;

/// The longest `--movetime` a match takes, in ms: the same week.
pub const MAX_MOVETIME_MS: u64 = MAX_CLOCK_SECONDS as u64 * 1000;

/// The most an engine may go over its clock (`--timemargin`), in ms: an hour. More is no
/// margin but a clock that never runs out.
pub const MAX_TIME_MARGIN_MS: u64 = 3_600_000;
