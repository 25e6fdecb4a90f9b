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
mod mate_plan;
pub mod movepick;
pub mod negamax;
pub mod params;
pub mod qsearch;
pub mod request;
pub mod searcher;
pub mod see;
pub mod skill;
pub mod thread;
pub mod time;
pub mod tt;

use crate::core::score::{self, Score};
use crate::core::Move;
pub use request::{Clock, Limits, Request, SearchOptions, Task};
pub use searcher::Searcher;
use std::time::Duration;
pub use tt::Bound;

/// Deepest ply the search reaches (iterations, extensions and quiescence included).
pub const MAX_PLY: usize = 128;

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

/// The evaluator a search of `pos` with `params` uses: the variant's, with what the
/// `mopup_lead`, `trade_down_pct`, `quiet_damping_pct`, `lion_prey_pct`, `royal_zone_attack`,
/// `promoted_twins_alike` and `eval_candidate` parameters may change.
pub(crate) fn evaluator(
    pos: &crate::position::Position,
    params: &params::SearchParams,
) -> &'static crate::eval::Evaluator {
    crate::eval::Evaluator::for_variant(pos.variant()).with_options(crate::eval::EvalOptions {
        mopup_lead: params.mopup_lead,
        trade_down_pct: params.trade_down_pct,
        quiet_damping_pct: params.quiet_damping_pct,
        lion_prey_pct: params.lion_prey_pct,
        royal_zone_attack: params.royal_zone_attack,
        promoted_twins: match params.promoted_twins_alike {
            0 => crate::eval::PromotedTwins::Fitted,
            1 => crate::eval::PromotedTwins::Alike,
            _ => crate::eval::PromotedTwins::AlikeFittedGains,
        },
        candidate: params.eval_candidate != 0,
    })
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
