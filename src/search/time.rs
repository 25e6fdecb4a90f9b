//! Time management: from the limits and the clock to a soft limit (do not start another
//! iteration after it) and a hard limit (stop at once), both measured on our clock.
//!
//! Byoyomi is time that comes back every move, so most of it may be spent; main time is
//! shared out over the moves expected to remain (the search constants
//! `sudden_death_moves_to_go`, and `increment_moves_to_go` with an increment), after
//! setting aside `Move Overhead` for the next `overhead_reserve_moves` of them (every move
//! costs that much in communication, however fast the search); an increment is mostly
//! spent. The hard limit never goes past what the clock allows minus the margin.
//!
//! With the search constant `time_adjust` on, the search scales a clock's soft limit after
//! each iteration by how settled its best move is ([`soft_scale`]).

use super::params::SearchParams;
use super::Limits;
use crate::core::Color;
use std::time::Duration;

/// Percent of the planned time after which no new iteration starts (the next one usually
/// takes longer than all before it, so stopping early keeps the average near the plan).
const SOFT_PERCENT: u64 = 55;

/// What a move leaves of the byoyomi beyond the move overhead: a quarter of it, at most
/// this many ms. Online a move that arrives a few milliseconds late loses the game, and
/// the delays between the engine and lishogi's clock vary more than any fixed overhead:
/// spending to the last 50 ms lost games on lishogi, and through the real Lishogi-Bot on a
/// busy machine the bot's own work and the transport took 523 ms of a 5 s byoyomi after
/// `bestmove` (the engine had kept 10% then, 500 ms, and lost on time far ahead).
const BYOYOMI_RESERVE_MAX_MS: u64 = 1000;

/// Percent of the main time left (after the move overhead) that one move may use at most
/// when no byoyomi follows. With 300 ms left and a 100 ms increment, the whole 290 ms were
/// planned and answers came 8 ms before the flag on a busy machine.
const MAIN_TIME_CEILING_PERCENT: u64 = 80;

/// The part of a byoyomi period a move may use: less the move overhead and the reserve
/// ([`BYOYOMI_RESERVE_MAX_MS`], or a quarter of a short byoyomi).
fn usable_byoyomi(byoyomi: u64, overhead: u64) -> u64 {
    let reserve = (byoyomi / 4).min(BYOYOMI_RESERVE_MAX_MS);
    byoyomi.saturating_sub(overhead).saturating_sub(reserve)
}

/// The two time limits of a search (`None`: no time limit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeLimits {
    /// Do not start a new iteration after this.
    pub soft: Option<Duration>,
    /// Stop the search at this.
    pub hard: Option<Duration>,
    /// The soft limit is a share of a clock (not a `movetime` the user asked for), so the
    /// search may stretch or shorten it by how settled its result is ([`soft_scale`]).
    pub adjustable: bool,
}

/// What the iterations so far say about how settled the best move is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settledness {
    /// Iterations in a row that ended with the same best move (0: it just changed).
    pub stable_iterations: u32,
    /// The share of the main thread's root nodes that went to the best move (0 to 1).
    pub best_move_effort: f64,
    /// How much the best score fell in the last iteration (centipawns; negative: it rose).
    pub score_drop: i32,
}

/// The factor on the soft limit of a clock search after an iteration: below 1 when the
/// best move has stood for several iterations and took most of the nodes (the others
/// were refuted quickly), above 1 when it keeps changing, shares the nodes with rivals or
/// its score falls. Each factor has the range the model engines give it; their product
/// stays between 0.4 and 2.5 (the hard limit still caps the move).
pub fn soft_scale(s: Settledness) -> f64 {
    let stability = 1.2 - 0.04 * f64::from(s.stable_iterations.min(10));
    let rivals = (2.0 * (1.0 - s.best_move_effort) + 0.4).clamp(0.5, 1.6);
    let falling = (1.0 + f64::from(s.score_drop) / 200.0).clamp(0.85, 1.5);
    (stability * rivals * falling).clamp(0.4, 2.5)
}

/// The moves over which sudden death shares the main time at `game_ply` (plies played
/// since the game's start): `sudden_death_moves_to_go`, or with `sudden_death_game_plies`
/// set, the moves left to us until that ply when there are more.
fn sudden_death_horizon(params: &SearchParams, game_ply: u64) -> i32 {
    let floor = params.sudden_death_moves_to_go;
    if params.sudden_death_game_plies == 0 {
        return floor;
    }
    let moves_left = (i64::from(params.sudden_death_game_plies) - game_ply as i64) / 2;
    moves_left.max(i64::from(floor)) as i32
}

/// The limits for `us` at `game_ply` (plies played since the game's start) given
/// `limits`, the move overhead and the time plan's search constants (the horizons over
/// which main time is shared when the GUI does not say, and the moves the overhead is set
/// aside for).
pub fn time_limits(
    limits: &Limits,
    us: Color,
    game_ply: u64,
    overhead: Duration,
    params: &SearchParams,
) -> TimeLimits {
    if limits.infinite {
        return TimeLimits {
            soft: None,
            hard: None,
            adjustable: false,
        };
    }
    let ms = |d: Duration| d.as_millis() as u64;
    let overhead = ms(overhead);
    let mut soft: Option<u64> = None;
    let mut hard: Option<u64> = None;
    let adjustable = limits.movetime.is_none() && limits.clock.is_some();
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
        let horizon = match inc {
            0 => sudden_death_horizon(params, game_ply),
            _ => params.increment_moves_to_go,
        }
        .max(1) as u64;
        let mtg = clock
            .moves_to_go
            .map_or(horizon, |m| (m as u64).clamp(1, 60));
        // What we may spend at most: all main time plus this move's usable byoyomi (an
        // increment arrives only after the move), less the margin; at least a millisecond.
        let byoyomi = usable_byoyomi(byoyomi, overhead);
        let ceiling = if byoyomi > 0 {
            time.saturating_sub(overhead) + byoyomi
        } else {
            time.saturating_sub(overhead) * MAIN_TIME_CEILING_PERCENT / 100
        }
        .max(1);
        let reserved_moves = mtg.min(params.overhead_reserve_moves.max(0) as u64);
        let usable = time.saturating_sub(overhead * reserved_moves);
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
        adjustable,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Clock;

    /// The search constants as they are by default.
    fn defaults() -> SearchParams {
        SearchParams::default()
    }

    /// The defaults with the time plan's constant `name` set to `value`.
    fn with(name: &str, value: i64) -> SearchParams {
        let mut params = SearchParams::default();
        params.set(name, value).unwrap();
        params
    }

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
            let t = time_limits(
                &clock(time, inc, byo),
                Color::Sente,
                0,
                overhead,
                &defaults(),
            );
            let (soft, hard) = (t.soft.unwrap(), t.hard.unwrap());
            assert!(soft <= hard, "{time} {inc} {byo}: {t:?}");
            assert!(hard >= ms(1));
            let ceiling = (time + byo).saturating_sub(50).max(1);
            assert!(
                hard <= ms(ceiling),
                "{time} {inc} {byo}: {t:?} over the clock"
            );
            // Byoyomi keeps a reserve beyond the move overhead: a quarter, at most 1 s.
            if time == 0 && byo > 50 {
                let reserve = (byo / 4).min(1000);
                assert!(hard <= ms(byo - 50 - reserve), "{byo}: {t:?}");
            }
        }
        // Pure byoyomi spends most of it.
        let t = time_limits(&clock(0, 0, 10_000), Color::Gote, 0, overhead, &defaults());
        assert!(
            t.hard.unwrap() >= ms(8_500) && t.soft.unwrap() >= ms(4_000),
            "{t:?}"
        );
        // Sudden death spends a fraction.
        let t = time_limits(&clock(60_000, 0, 0), Color::Sente, 0, overhead, &defaults());
        assert!(t.soft.unwrap() < ms(5_000), "{t:?}");
    }

    #[test]
    fn byoyomi_keeps_a_second_for_the_bot_and_the_network() {
        // Issue 29, finding 11: at `go btime 0 wtime 18523 byoyomi 5000` (Lishogi-Bot, ply
        // 67) the engine answered after 4,506 ms, and the bot's work and transport made it
        // 5,029 ms: lost on time. With the default overhead (10 ms) a move now keeps 1 s.
        let mut limits = clock(0, 0, 5000);
        if let Some(c) = limits.clock.as_mut() {
            c.time[1] = ms(18523);
        }
        let t = time_limits(&limits, Color::Sente, 0, ms(10), &defaults());
        assert_eq!(t.hard, Some(ms(5000 - 10 - 1000)), "{t:?}");
        // Short byoyomi keeps a quarter.
        let t = time_limits(&clock(0, 0, 200), Color::Sente, 0, ms(10), &defaults());
        assert_eq!(t.hard, Some(ms(200 - 10 - 50)), "{t:?}");
        // Without byoyomi a fifth of the main time is kept back: at 300 ms left and a
        // 100 ms increment, at most 232 ms (not 290).
        let t = time_limits(&clock(300, 100, 0), Color::Sente, 0, ms(10), &defaults());
        assert_eq!(t.hard, Some(ms(232)), "{t:?}");
    }

    #[test]
    fn an_increment_sets_the_horizon() {
        // 10+0.1: the main time, less the overhead of the moves to come, is shared over the
        // horizon's moves, and most of the increment is added.
        let t = time_limits(&clock(10_000, 100, 0), Color::Sente, 0, ms(10), &defaults());
        assert_eq!(
            t.soft,
            Some(ms(((10_000 - 700) / 70 + 75) * 55 / 100)),
            "{t:?}"
        );
        // A shorter horizon spends the main time sooner.
        let shorter = with("increment_moves_to_go", 30);
        let t = time_limits(&clock(10_000, 100, 0), Color::Sente, 0, ms(10), &shorter);
        assert_eq!(
            t.soft,
            Some(ms(((10_000 - 300) / 30 + 75) * 55 / 100)),
            "{t:?}"
        );
        // Sudden death keeps its own horizon whatever the increment's.
        let sudden_death = time_limits(&clock(60_000, 0, 0), Color::Sente, 0, ms(10), &shorter);
        assert_eq!(
            sudden_death,
            time_limits(&clock(60_000, 0, 0), Color::Sente, 0, ms(10), &defaults())
        );
    }

    #[test]
    fn sudden_death_shares_what_is_left_after_the_overhead_it_reserves() {
        // 2.5 s: the overhead of all 70 moves to come is set aside (700 ms) by default...
        let t = time_limits(&clock(2_500, 0, 0), Color::Sente, 0, ms(10), &defaults());
        assert_eq!(t.soft, Some(ms((2_500 - 700) / 70 * 55 / 100)), "{t:?}");
        // ...and only 20 moves' worth (200 ms) with `overhead_reserve_moves` at 20.
        let fewer = with("overhead_reserve_moves", 20);
        let t = time_limits(&clock(2_500, 0, 0), Color::Sente, 0, ms(10), &fewer);
        assert_eq!(t.soft, Some(ms((2_500 - 200) / 70 * 55 / 100)), "{t:?}");
        // At 700 ms left the default plans a millisecond; 20 moves' reserve still shares.
        let t = time_limits(&clock(700, 0, 0), Color::Sente, 0, ms(10), &defaults());
        assert_eq!(t.soft, Some(ms(1)), "{t:?}");
        let t = time_limits(&clock(700, 0, 0), Color::Sente, 0, ms(10), &fewer);
        assert_eq!(t.soft, Some(ms((700 - 200) / 70 * 55 / 100)), "{t:?}");
        // A longer horizon takes a smaller share (and sets aside its moves' overhead).
        let longer = with("sudden_death_moves_to_go", 100);
        let t = time_limits(&clock(2_500, 0, 0), Color::Sente, 0, ms(10), &longer);
        assert_eq!(t.soft, Some(ms((2_500 - 1_000) / 100 * 55 / 100)), "{t:?}");
    }

    #[test]
    fn an_expected_game_length_sets_the_sudden_death_horizon() {
        let mut plan = defaults();
        for (name, value) in [
            ("sudden_death_game_plies", 360),
            ("sudden_death_moves_to_go", 50),
            ("overhead_reserve_moves", 0),
        ] {
            plan.set(name, value).unwrap();
        }
        let soft_at = |ply: u64, params: &SearchParams| {
            time_limits(&clock(18_000, 0, 0), Color::Sente, ply, ms(10), params).soft
        };
        // At the start: the 180 moves left to us until ply 360; at ply 200, the 80 left.
        assert_eq!(soft_at(0, &plan), Some(ms(18_000 / 180 * 55 / 100)));
        assert_eq!(soft_at(200, &plan), Some(ms(18_000 / 80 * 55 / 100)));
        // From ply 260 on, and past the expected end, never fewer than 50.
        assert_eq!(soft_at(260, &plan), Some(ms(18_000 / 50 * 55 / 100)));
        assert_eq!(soft_at(900, &plan), Some(ms(18_000 / 50 * 55 / 100)));
        // Off by default: the same horizon at every ply.
        assert_eq!(soft_at(0, &defaults()), soft_at(300, &defaults()));
        // An increment keeps its own horizon whatever the ply.
        let with_increment = |ply: u64, params: &SearchParams| {
            time_limits(&clock(18_000, 100, 0), Color::Sente, ply, ms(10), params)
        };
        assert_eq!(with_increment(0, &plan), with_increment(300, &plan));
    }

    #[test]
    fn only_a_clock_share_is_adjustable() {
        assert!(
            time_limits(&clock(10_000, 100, 0), Color::Sente, 0, ms(10), &defaults()).adjustable
        );
        assert!(time_limits(&clock(0, 0, 5_000), Color::Sente, 0, ms(10), &defaults()).adjustable);
        let mut both = clock(10_000, 100, 0);
        both.movetime = Some(ms(500));
        assert!(!time_limits(&both, Color::Sente, 0, ms(10), &defaults()).adjustable);
    }

    #[test]
    fn a_settled_best_move_shortens_the_soft_limit_and_an_unsettled_one_stretches_it() {
        let settled = Settledness {
            stable_iterations: 10,
            best_move_effort: 0.95,
            score_drop: -20,
        };
        let middling = Settledness {
            stable_iterations: 5,
            best_move_effort: 0.7,
            score_drop: 0,
        };
        let unsettled = Settledness {
            stable_iterations: 0,
            best_move_effort: 0.3,
            score_drop: 80,
        };
        let (low, mid, high) = (
            soft_scale(settled),
            soft_scale(middling),
            soft_scale(unsettled),
        );
        assert!((0.4..0.6).contains(&low), "{low}");
        assert!((0.9..=1.1).contains(&mid), "{mid}");
        assert!((2.0..=2.5).contains(&high), "{high}");
        // The bounds hold at the extremes.
        let worst = Settledness {
            stable_iterations: 0,
            best_move_effort: 0.0,
            score_drop: 10_000,
        };
        assert_eq!(soft_scale(worst), 2.5);
    }

    #[test]
    fn movetime_and_infinite() {
        let l = Limits {
            movetime: Some(ms(1000)),
            ..Limits::default()
        };
        assert_eq!(
            time_limits(&l, Color::Sente, 0, ms(30), &defaults()),
            TimeLimits {
                soft: Some(ms(970)),
                hard: Some(ms(970)),
                adjustable: false,
            }
        );
        let l = Limits {
            infinite: true,
            movetime: Some(ms(1000)),
            ..Limits::default()
        };
        assert_eq!(
            time_limits(&l, Color::Sente, 0, ms(30), &defaults()),
            TimeLimits {
                soft: None,
                hard: None,
                adjustable: false,
            }
        );
        assert_eq!(
            time_limits(&Limits::default(), Color::Sente, 0, ms(30), &defaults()),
            TimeLimits {
                soft: None,
                hard: None,
                adjustable: false,
            }
        );
    }
}
