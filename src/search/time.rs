//! Time management: from the limits and the clock to a soft limit (do not start another
//! iteration after it) and a hard limit (stop at once), both measured on our clock.
//!
//! Byoyomi is time that comes back every move, so most of it may be spent; main time is
//! shared out over the moves expected to remain, after setting aside `Move Overhead` for
//! each of them (every move costs that much in communication, however fast the search: in
//! a long chu game under sudden death that adds up); an increment is mostly spent. The hard
//! limit never goes past what the clock allows minus the margin.

use super::Limits;
use crate::core::Color;
use std::time::Duration;

/// Moves we expect still to play when the clock does not say (chu games are long: lishogi
/// games run to a hundred moves a side and more, and a flag fall loses).
const DEFAULT_MOVES_TO_GO: u64 = 70;

/// Percent of the planned time after which no new iteration starts (the next one usually
/// takes longer than all before it, so stopping early keeps the average near the plan).
const SOFT_PERCENT: u64 = 55;

/// Percent of the byoyomi (after the move overhead) that a move may use at most. Online,
/// a move that arrives a few milliseconds late loses the game, and network delays vary
/// more than any fixed overhead: spending to the last 50 ms lost games on lishogi.
const BYOYOMI_PERCENT: u64 = 90;

/// The two time limits of a search (`None`: no time limit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeLimits {
    /// Do not start a new iteration after this.
    pub soft: Option<Duration>,
    /// Stop the search at this.
    pub hard: Option<Duration>,
}

/// The limits for `us` given `limits` and the move overhead.
pub fn time_limits(limits: &Limits, us: Color, overhead: Duration) -> TimeLimits {
    if limits.infinite {
        return TimeLimits {
            soft: None,
            hard: None,
        };
    }
    let ms = |d: Duration| d.as_millis() as u64;
    let overhead = ms(overhead);
    let mut soft: Option<u64> = None;
    let mut hard: Option<u64> = None;
    if let Some(t) = limits.movetime {
        let t = ms(t).saturating_sub(overhead).max(1);
        soft = Some(t);
        hard = Some(t);
    }
    if let Some(clock) = limits.clock {
        let i = us.index();
        let (time, inc, byoyomi) = (
            ms(clock.time[i]),
            ms(clock.increment[i]),
            ms(clock.byoyomi[i]),
        );
        let mtg = clock
            .moves_to_go
            .map_or(DEFAULT_MOVES_TO_GO, |m| (m as u64).clamp(1, 60));
        // What we may spend at most: all main time plus this move's usable byoyomi (an
        // increment arrives only after the move), less the margin; at least a millisecond.
        let byoyomi = byoyomi.saturating_sub(overhead) * BYOYOMI_PERCENT / 100;
        let ceiling = if byoyomi > 0 {
            time.saturating_sub(overhead) + byoyomi
        } else {
            time.saturating_sub(overhead)
        }
        .max(1);
        let usable = time.saturating_sub(overhead * mtg);
        let share = usable / mtg + inc * 3 / 4;
        // Byoyomi not spent is lost, so nearly all of it is planned.
        let optimum = (share + byoyomi * 9 / 10).min(ceiling).max(1);
        let maximum = (share * 4 + byoyomi).min(ceiling).max(optimum);
        // With an explicit moves-to-go of 1 the whole remaining time is for this move.
        let (optimum, maximum) = if clock.moves_to_go == Some(1) {
            (ceiling * 7 / 10, ceiling)
        } else {
            (optimum, maximum)
        };
        let soft_limit = (optimum * SOFT_PERCENT / 100).max(1);
        soft = Some(soft.map_or(soft_limit, |s| s.min(soft_limit)));
        hard = Some(hard.map_or(maximum, |h| h.min(maximum)));
    }
    TimeLimits {
        soft: soft.map(Duration::from_millis),
        hard: hard.map(Duration::from_millis),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Clock;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn clock(time: u64, inc: u64, byo: u64) -> Limits {
        Limits {
            clock: Some(Clock {
                time: [ms(time), ms(time)],
                increment: [ms(inc), ms(inc)],
                byoyomi: [ms(byo), ms(byo)],
                moves_to_go: None,
            }),
            ..Limits::default()
        }
    }

    #[test]
    fn limits_stay_within_the_clock() {
        let overhead = ms(50);
        for (time, inc, byo) in [
            (60_000, 0, 0),
            (60_000, 1_000, 0),
            (0, 0, 10_000),
            (30_000, 0, 5_000),
            (100, 0, 0),
            (10, 0, 0),
            (0, 0, 30),
        ] {
            let t = time_limits(&clock(time, inc, byo), Color::Sente, overhead);
            let (soft, hard) = (t.soft.unwrap(), t.hard.unwrap());
            assert!(soft <= hard, "{time} {inc} {byo}: {t:?}");
            assert!(hard >= ms(1));
            let ceiling = (time + byo).saturating_sub(50).max(1);
            assert!(
                hard <= ms(ceiling),
                "{time} {inc} {byo}: {t:?} over the clock"
            );
            // Byoyomi keeps a safety margin beyond the move overhead.
            if time == 0 && byo > 50 {
                assert!(hard <= ms((byo - 50) * 9 / 10), "{byo}: {t:?}");
            }
        }
        // Pure byoyomi spends most of it.
        let t = time_limits(&clock(0, 0, 10_000), Color::Gote, overhead);
        assert!(
            t.hard.unwrap() >= ms(8_500) && t.soft.unwrap() >= ms(4_000),
            "{t:?}"
        );
        // Sudden death spends a fraction.
        let t = time_limits(&clock(60_000, 0, 0), Color::Sente, overhead);
        assert!(t.soft.unwrap() < ms(5_000), "{t:?}");
    }

    #[test]
    fn movetime_and_infinite() {
        let l = Limits {
            movetime: Some(ms(1000)),
            ..Limits::default()
        };
        assert_eq!(
            time_limits(&l, Color::Sente, ms(30)),
            TimeLimits {
                soft: Some(ms(970)),
                hard: Some(ms(970))
            }
        );
        let l = Limits {
            infinite: true,
            movetime: Some(ms(1000)),
            ..Limits::default()
        };
        assert_eq!(
            time_limits(&l, Color::Sente, ms(30)),
            TimeLimits {
                soft: None,
                hard: None
            }
        );
        assert_eq!(
            time_limits(&Limits::default(), Color::Sente, ms(30)),
            TimeLimits {
                soft: None,
                hard: None
            }
        );
    }
}
