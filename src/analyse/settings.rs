//! How to analyse: the settings of one `shishi analyse` run (limits, lines, workers and
//! threads, the first ply, the judgement thresholds, where to write files), and the
//! defaults that `shishi analyse` and a page's review share.

use super::Thresholds;
use crate::control::SearchControl;
use crate::search::Limits;
use std::sync::Arc;

/// How to analyse: the settings of one run.
#[derive(Clone, Debug)]
pub struct AnalysisSettings {
    /// Search limits of every position (depth, nodes or movetime).
    pub limits: Limits,
    /// Lines per position.
    pub multipv: usize,
    /// Positions analysed at once.
    pub workers: usize,
    /// Search threads per position.
    pub threads: usize,
    /// Hash per search, MB.
    pub hash_mb: usize,
    /// In games, start at this ply (1 = the first move).
    pub from_ply: usize,
    /// Judgement thresholds.
    pub thresholds: Thresholds,
    /// Where to write annotated KIF files (games only).
    pub kif_dir: Option<std::path::PathBuf>,
    /// Write each analysed game as an HTML report in this folder.
    pub report_dir: Option<std::path::PathBuf>,
    /// Show a progress bar on stderr.
    pub progress: bool,
    /// Time for the mate solver in each position (`--mate`); `None`: no mate solving.
    pub mate: Option<std::time::Duration>,
    /// The switches of the task this analysis is (a page's review, run by the engine
    /// session): its stop ends the analysis after the ply being searched. `None` for
    /// `shishi analyse`, which runs to the end.
    pub task: Option<Arc<SearchControl>>,
}

impl AnalysisSettings {
    /// Nodes per position when no limit is given: about a quarter of a second on one core,
    /// so that a 300-ply game takes a few minutes (depth 10 took about 1.7 s a ply, ten
    /// minutes a game), and the same result every run.
    pub const DEFAULT_NODES: u64 = 200_000;
    /// Hash per search when none is given, MB.
    pub const DEFAULT_HASH_MB: usize = 16;

    /// The search limits of every position: the depth, nodes or milliseconds given, or
    /// [`DEFAULT_NODES`](Self::DEFAULT_NODES) when none is.
    pub fn limits(depth: Option<i32>, nodes: Option<u64>, movetime_ms: Option<u64>) -> Limits {
        let none_given = depth.is_none() && nodes.is_none() && movetime_ms.is_none();
        Limits {
            depth,
            nodes: nodes.or(none_given.then_some(Self::DEFAULT_NODES)),
            movetime: movetime_ms.map(std::time::Duration::from_millis),
            ..Limits::default()
        }
    }

    /// The settings of `shishi analyse` given nothing but a game (one thread, a table of
    /// [`DEFAULT_HASH_MB`](Self::DEFAULT_HASH_MB), the default thresholds), with these
    /// limits, as a task that `task` stops: a page's review, whose results are the
    /// command line's on the same game and limits.
    pub fn review(limits: Limits, task: Arc<SearchControl>) -> AnalysisSettings {
        AnalysisSettings {
            limits,
            multipv: 1,
            workers: 1,
            threads: 1,
            hash_mb: Self::DEFAULT_HASH_MB,
            from_ply: 1,
            thresholds: Thresholds::default(),
            kif_dir: None,
            report_dir: None,
            progress: false,
            mate: None,
            task: Some(task),
        }
    }
}
