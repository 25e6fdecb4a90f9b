//! The typed search request: what a search is asked, in three parts, each from its own
//! source.
//! - [`Limits`]: what the GUI sent with its `go` (depth, nodes, time, clock, `mate`,
//!   `infinite`, `searchmoves`), like Stockfish's `LimitsType`. The front-ends build it.
//! - [`Task`]: what the search is for (play a move, analyse, prove a mate). The session
//!   decides it once, from the limits and the analyse-mode option ([`Task::for_go`]).
//! - [`SearchOptions`]: the options that shape every search (threads, MultiPV, skill,
//!   overhead, repetitions, the search constants). The session builds them from its
//!   settings, so that no front-end copies a setting.
//!
//! [`Searcher::search`](super::Searcher::search) takes a [`Request`] of the three.

use super::params::SearchParams;
use super::skill::Skill;
use crate::core::Move;
use crate::mate::AttackerMoves;
use std::time::Duration;

/// A game clock as `go` gives it, per colour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Main time left (sente, gote).
    pub time: [Duration; 2],
    /// Fischer increment per move (sente, gote).
    pub increment: [Duration; 2],
    /// Byoyomi per move once the main time is spent (sente, gote).
    pub byoyomi: [Duration; 2],
    /// Moves until the next time control, if the clock has one.
    pub moves_to_go: Option<u32>,
}

/// What the GUI sent with `go`: what ends a search (any mix; none at all means "until
/// stopped").
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Maximum depth in plies.
    pub depth: Option<i32>,
    /// Maximum nodes (all threads together).
    pub nodes: Option<u64>,
    /// Fixed time for this move.
    pub movetime: Option<Duration>,
    /// `go mate`: prove or disprove a forced win of the side to move with the
    /// proof-number solver ([`crate::mate`]) instead of searching; `movetime` and `nodes`
    /// bound it.
    pub mate: bool,
    /// Search until told to stop.
    pub infinite: bool,
    /// The clock.
    pub clock: Option<Clock>,
    /// Only these root moves (empty: all).
    pub search_moves: Vec<Move>,
}

/// What a search is for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Task {
    /// Play a move of a game: a draw is valued with contempt, and the mate solver may try
    /// first for a share of a timed move.
    #[default]
    Play,
    /// Analyse the position (`go infinite`, XBoard `analyze`, `USI_AnalyseMode`, `shishi
    /// analyse`): the scores are the position's own (a draw is 0), and a proven forced
    /// win stands as the first line.
    Analyse,
    /// Prove or disprove a forced win with the mate solver alone (`go mate`), trying
    /// these attacker moves.
    ProveMate(AttackerMoves),
}

impl Task {
    /// The task of a `go` with `limits`: a mate proof for `go mate` (with the attacker
    /// moves `mate_moves`), an analysis for `go infinite` or in analyse mode, else a move.
    pub fn for_go(limits: &Limits, analyse_mode: bool, mate_moves: AttackerMoves) -> Task {
        if limits.mate {
            Task::ProveMate(mate_moves)
        } else if limits.infinite || analyse_mode {
            Task::Analyse
        } else {
            Task::Play
        }
    }
}

/// The options that shape every search, from the session's settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// Search threads (Lazy SMP).
    pub threads: usize,
    /// Lines reported (MultiPV).
    pub multipv: usize,
    /// Play below full strength (`Skill_Level` under 20).
    pub skill: Option<Skill>,
    /// Margin kept on the clock for communication delays.
    pub move_overhead: Duration,
    /// Do not play a move that repeats an earlier position of the game when another move
    /// exists (HaChu treats any repetition as an illegal move; XBoard mode sets this).
    pub avoid_repetition: bool,
    /// The search constants (tuning changes them; the defaults otherwise). Contempt is
    /// among them (`contempt_pct`, `contempt_max`); the task says whether it applies.
    pub params: SearchParams,
}

/// The move overhead a search keeps when nobody says otherwise, ms, and so the USI
/// `Move_Overhead` option's default (the option table reads it from here, so the two cannot
/// differ): what a local pipe costs, with room to spare (Stockfish's default too). Main time
/// is shared out after setting it aside for every expected move, so 50 ms left a 5 s + 0.05 s
/// game little more than the increment to think with; a bot on a network sets more
/// (protocol-docs/lishogi.md: 300).
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 10;

/// The options of a search nobody set: one thread, one line, full strength, the option
/// table's move overhead, the shared search constants.
impl Default for SearchOptions {
    fn default() -> SearchOptions {
        SearchOptions {
            threads: 1,
            multipv: 1,
            skill: None,
            move_overhead: Duration::from_millis(DEFAULT_MOVE_OVERHEAD_MS),
            avoid_repetition: false,
            params: SearchParams::default(),
        }
    }
}

impl SearchOptions {
    /// The default options of a search of `variant`: its own search constants
    /// ([`SearchParams::for_variant`]) instead of the defaults.
    pub fn for_variant(variant: &crate::variant::Variant) -> SearchOptions {
        SearchOptions {
            params: SearchParams::for_variant(variant),
            ..SearchOptions::default()
        }
    }
}

/// One search request: the GUI's limits, the task and the options.
#[derive(Clone, Debug, Default)]
pub struct Request {
    /// What the GUI sent with `go`.
    pub limits: Limits,
    /// What the search is for.
    pub task: Task,
    /// The options of every search.
    pub options: SearchOptions,
}

impl Request {
    /// A request to play a move within `limits`, with the default options (tools, tests).
    pub fn play(limits: Limits) -> Request {
        Request {
            limits,
            ..Request::default()
        }
    }

    /// The same request with these options.
    pub fn with_options(self, options: SearchOptions) -> Request {
        Request { options, ..self }
    }

    /// Whether the search analyses rather than plays.
    pub fn is_analysis(&self) -> bool {
        self.task == Task::Analyse
    }

    /// The node limit: the one asked for, or a lower strength level's budget.
    pub fn node_limit(&self) -> Option<u64> {
        let by_skill = self.options.skill.map(Skill::max_nodes);
        match (self.limits.nodes, by_skill) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// The lines the search keeps (MultiPV).
    pub fn lines(&self) -> usize {
        self.options.multipv.max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_task_of_a_go_is_decided_from_its_limits_and_the_analyse_mode() {
        let checks = AttackerMoves::Checks;
        let mate = Limits {
            mate: true,
            infinite: true,
            ..Limits::default()
        };
        assert_eq!(
            Task::for_go(&mate, true, checks),
            Task::ProveMate(checks),
            "go mate infinite proves, in any mode"
        );
        let infinite = Limits {
            infinite: true,
            ..Limits::default()
        };
        assert_eq!(Task::for_go(&infinite, false, checks), Task::Analyse);
        let depth = Limits {
            depth: Some(5),
            ..Limits::default()
        };
        assert_eq!(Task::for_go(&depth, false, checks), Task::Play);
        assert_eq!(Task::for_go(&depth, true, checks), Task::Analyse);
    }

    #[test]
    fn a_lower_strength_bounds_the_nodes() {
        let mut request = Request::play(Limits {
            nodes: Some(1_000_000),
            ..Limits::default()
        });
        assert_eq!(request.node_limit(), Some(1_000_000));
        assert_eq!(request.lines(), 1);
        request.options.skill = Skill::new(0);
        assert_eq!(
            request.node_limit(),
            Some(Skill::new(0).unwrap().max_nodes())
        );
        assert_eq!(request.lines(), 1, "one line, as at full strength");
    }
}
