//! The search: iterative deepening with aspiration windows over a PVS negamax, quiescence
//! with a lion-aware SEE, null move, late-move reductions and a staged move picker; Lazy SMP
//! on std threads sharing one lock-free transposition table.
//!
//! The search never prints. It reports each finished line to an [`Observer`], which a
//! front-end turns into USI `info` lines, XBoard thinking output or JSON. It is stopped
//! through a [`SearchControl`] that the front-end keeps (stop, ponderhit).

mod eval_cache;
pub mod history;
pub mod iterate;
pub mod movepick;
pub mod negamax;
pub mod params;
pub mod pool;
mod prove;
pub mod qsearch;
pub mod see;
pub mod skill;
pub mod thread;
pub mod time;
pub mod tt;

use crate::core::score::{self, Score};
use crate::core::Move;
pub use pool::Searcher;
use std::time::Duration;
pub use tt::Bound;

/// Deepest ply the search reaches (iterations, extensions and quiescence included).
pub const MAX_PLY: usize = 128;

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

/// What ends a search (any mix; none at all means "until stopped").
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Maximum depth in plies.
    pub depth: Option<i32>,
    /// Maximum nodes (all threads together).
    pub nodes: Option<u64>,
    /// Fixed time for this move.
    pub movetime: Option<Duration>,
    /// Prove or disprove a forced win of the side to move with the proof-number solver
    /// ([`crate::mate`]) instead of searching (USI `go mate`); `movetime` and `nodes` bound it.
    pub mate: bool,
    /// Which attacker moves a `mate` search tries (USI `Mate_AllMoves`).
    pub mate_moves: crate::mate::AttackerMoves,
    /// Search until told to stop.
    pub infinite: bool,
    /// The search analyses a position rather than plays a move of a game (USI
    /// `USI_AnalyseMode`): a draw scores as a draw, without contempt, so the reported
    /// scores are the position's.
    pub analysis: bool,
    /// The clock.
    pub clock: Option<Clock>,
    /// Only these root moves (empty: all).
    pub search_moves: Vec<Move>,
    /// Do not play a move that repeats an earlier position of the game when another move
    /// exists (HaChu treats any repetition as an illegal move; XBoard mode sets this).
    pub avoid_repetition: bool,
    /// Play below full strength (`Skill_Level` under 20).
    pub skill: Option<skill::Skill>,
    /// The search constants (tuning changes them; the defaults otherwise).
    pub params: params::SearchParams,
}

impl Limits {
    /// The node limit: the one asked for, or a lower strength level's budget.
    pub fn node_limit(&self) -> Option<u64> {
        let by_skill = self.skill.map(skill::Skill::max_nodes);
        match (self.nodes, by_skill) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}

/// One finished line of the search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    /// Iteration depth.
    pub depth: i32,
    /// Deepest ply reached.
    pub seldepth: usize,
    /// 1-based line number (MultiPV).
    pub multipv: usize,
    /// Score from the side to move's point of view.
    pub score: Score,
    /// `Some` when the score is only a bound (aspiration window failed).
    pub bound: Option<Bound>,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Hash table fill, per mille.
    pub hashfull: u32,
    /// The principal variation.
    pub pv: Vec<Move>,
}

/// Receives the search's reports. Called from the main search thread.
pub trait Observer: Sync {
    /// A line finished (or an aspiration window failed).
    fn info(&self, info: &Info);

    /// The mate solver is still at work (about once a second).
    fn progress(&self, _progress: &crate::mate::Progress) {}
}

/// An observer that ignores everything (bench, tests).
pub struct Silent;

impl Observer for Silent {
    fn info(&self, _: &Info) {}
}

/// The outcome of a search.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` only when there is no legal move.
    pub best: Option<Move>,
    /// The expected reply, for pondering.
    pub ponder: Option<Move>,
    /// Score of the best move; `None` when the search ended before any iteration finished
    /// (nothing is known of the move but that it is legal).
    pub score: Option<Score>,
    /// `Some` when the score is only a bound (a better move found in a stopped iteration).
    pub bound: Option<Bound>,
    /// Depth of the line behind the result (0: none finished).
    pub depth: i32,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// The principal variation.
    pub pv: Vec<Move>,
    /// The mate solver's verdict (only a `mate` search gives one).
    pub mate: Option<crate::mate::Verdict>,
}

impl SearchResult {
    /// A legal move with nothing known about it (no iteration finished).
    pub fn unscored(mv: Move) -> SearchResult {
        SearchResult {
            best: Some(mv),
            pv: vec![mv],
            ..SearchResult::default()
        }
    }

    /// The score if it is a proven mate: plies to mate, positive when the side to move wins.
    pub fn mate_plies(&self) -> Option<i32> {
        self.score.and_then(score::mate_plies)
    }
}

pub use crate::control::SearchControl;
