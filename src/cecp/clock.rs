//! XBoard's clock commands and the search limits they make: `level MPS BASE INC`, `st`,
//! `sd`, and the `time`/`otim` sent before each move (centiseconds).

use crate::position::Position;
use crate::search::{Clock, Limits};
use std::time::Duration;

/// `level MPS BASE INC`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Level {
    /// Moves per session (0: the base time is for the whole game).
    pub moves_per_session: u32,
    /// The session's base time (`level 40 5 0`: 5 minutes; `0:30`: 30 s), which stands for
    /// the clock until XBoard sends `time` (a GUI that never does would otherwise leave the
    /// engine without a clock: `level 0 1 0` spent 4.9 s on move 1 of a 60 s game).
    pub base_ms: u64,
    /// The increment per move.
    pub increment_ms: u64,
}

impl Level {
    /// `MPS BASE INC`: BASE in minutes or `m:ss`, INC in seconds (decimals allowed);
    /// `None` unless all three fields are good.
    pub fn parse(arg: &str) -> Option<Level> {
        let fields: Vec<&str> = arg.split_whitespace().collect();
        if fields.len() != 3 {
            return None;
        }
        let mps = crate::text::parse_number(fields[0])?;
        let inc = fields[2].parse::<f64>().ok().filter(|i| i.is_finite())?;
        Some(Level {
            moves_per_session: mps.clamp(0, 10_000) as u32,
            base_ms: level_base_ms(fields[1])?,
            increment_ms: (inc.clamp(0.0, 86_400.0) * 1000.0) as u64,
        })
    }
}

/// The base time of `level MPS BASE INC` in ms: minutes (`5`, `0.5`) or minutes and
/// seconds (`0:30`).
fn level_base_ms(text: &str) -> Option<u64> {
    let (minutes, seconds) = match text.split_once(':') {
        Some((m, s)) => (m.parse::<f64>().ok()?, s.parse::<f64>().ok()?),
        None => (text.parse::<f64>().ok()?, 0.0),
    };
    let ms = (minutes * 60.0 + seconds) * 1000.0;
    (ms.is_finite() && ms >= 0.0).then(|| ms.min(1e12) as u64)
}

/// What the GUI said of the clocks and limits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeControl {
    /// The last `level`.
    pub level: Level,
    /// `st`: a fixed time a move (cleared by `level` and `new`).
    pub seconds_per_move: Option<u64>,
    /// `sd`: a depth limit (cleared by `new`).
    pub max_depth: Option<i32>,
    /// `time`: the engine's clock, centiseconds.
    pub own_cs: Option<u64>,
    /// `otim`: the opponent's clock, centiseconds.
    pub opponent_cs: Option<u64>,
}

impl TimeControl {
    /// A new `level`: a fixed time a move no longer holds.
    pub fn set_level(&mut self, level: Level) {
        self.level = level;
        self.seconds_per_move = None;
    }

    /// The limits of a search for a move in `pos` (the options' part, such as skill and
    /// repetitions, is the session's): `st` as a move time; else the clock (`time`, or the
    /// level's base before the first `time`), the opponent's (`otim`, else the same), the
    /// increment and, with moves per session, the moves left in this one; with neither and
    /// no depth limit, 5 s.
    pub fn limits(&self, pos: &Position) -> Limits {
        let ms = Duration::from_millis;
        let mut limits = Limits {
            depth: self.max_depth,
            ..Limits::default()
        };
        if let Some(st) = self.seconds_per_move {
            limits.movetime = Some(ms(st.saturating_mul(1000)));
        } else if let Some(own) = self
            .own_cs
            .or((self.level.base_ms > 0).then_some(self.level.base_ms / 10))
        {
            let us = pos.side_to_move();
            let other = self.opponent_cs.unwrap_or(own);
            let mut time = [ms(own.saturating_mul(10)); 2];
            time[us.flip().index()] = ms(other.saturating_mul(10));
            let mps = self.level.moves_per_session;
            let played = (pos.history().len() / 2) as u32;
            let inc = ms(self.level.increment_ms);
            limits.clock = Some(Clock {
                time,
                increment: [inc; 2],
                byoyomi: [Duration::ZERO; 2],
                moves_to_go: (mps > 0).then(|| mps - played % mps),
            });
        } else if self.max_depth.is_none() {
            limits.movetime = Some(ms(5000));
        }
        limits
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Color;
    use crate::variant::Variant;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn level_reads_minutes_seconds_and_decimals() {
        let level = |arg| Level::parse(arg);
        assert_eq!(
            level("40 5 0"),
            Some(Level {
                moves_per_session: 40,
                base_ms: 300_000,
                increment_ms: 0
            })
        );
        assert_eq!(level("0 0:30 0.5").map(|l| l.base_ms), Some(30_000));
        assert_eq!(level("0 0:30 0.5").map(|l| l.increment_ms), Some(500));
        assert_eq!(level("0 0.5 0").map(|l| l.base_ms), Some(30_000));
        for bad in ["40 5", "40 5 0 1", "x 5 0", "40 y 0", "40 5 inf", "40 -1 0"] {
            assert_eq!(level(bad), None, "{bad}");
        }
    }

    #[test]
    fn time_and_otim_give_each_side_its_clock() {
        let mut pos = Position::startpos(Variant::chu());
        let control = TimeControl {
            level: Level::parse("0 1 2").unwrap(),
            own_cs: Some(1234),
            opponent_cs: Some(5678),
            ..TimeControl::default()
        };
        let clock = control.limits(&pos).clock.unwrap();
        let (us, them) = (pos.side_to_move(), pos.side_to_move().flip());
        assert_eq!(clock.time[us.index()], ms(12_340));
        assert_eq!(clock.time[them.index()], ms(56_780));
        assert_eq!(clock.increment, [ms(2000); 2]);
        assert_eq!(clock.moves_to_go, None);
        // Before the first `time`, the level's base stands for both clocks.
        let fresh = TimeControl {
            level: Level::parse("0 1 0").unwrap(),
            ..TimeControl::default()
        };
        assert_eq!(fresh.limits(&pos).clock.unwrap().time, [ms(60_000); 2]);
        // Moves per session: the moves left in this session, counted from the game's.
        let session = TimeControl {
            level: Level::parse("40 5 0").unwrap(),
            ..TimeControl::default()
        };
        assert_eq!(session.limits(&pos).clock.unwrap().moves_to_go, Some(40));
        for mv in ["7i7h", "7d7e", "6i6h", "6d6e"] {
            let m = pos.parse_usi_path(mv).unwrap();
            pos.make_move(m);
        }
        assert_eq!(session.limits(&pos).clock.unwrap().moves_to_go, Some(38));
        assert_eq!(pos.side_to_move(), Color::Sente);
    }

    #[test]
    fn st_and_sd_and_the_default() {
        let pos = Position::startpos(Variant::chu());
        let mut control = TimeControl {
            seconds_per_move: Some(3),
            own_cs: Some(100),
            ..TimeControl::default()
        };
        assert_eq!(control.limits(&pos).movetime, Some(ms(3000)));
        assert_eq!(control.limits(&pos).clock, None);
        // A new level ends the fixed time a move.
        control.set_level(Level::parse("0 1 0").unwrap());
        assert!(control.limits(&pos).clock.is_some());
        // No clock at all: 5 s a move, unless a depth is the limit.
        let none = TimeControl::default();
        assert_eq!(none.limits(&pos).movetime, Some(ms(5000)));
        let depth = TimeControl {
            max_depth: Some(6),
            ..TimeControl::default()
        };
        assert_eq!(depth.limits(&pos).movetime, None);
        assert_eq!(depth.limits(&pos).depth, Some(6));
    }
}
