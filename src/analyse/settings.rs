//! How to analyse: the settings of one `shishi analyse` run (limits, lines, workers and
//! threads, the first ply, the judgement thresholds, where to write files).

use super::Thresholds;
use crate::search::Limits;

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
}
