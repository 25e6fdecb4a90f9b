//! The searches of an analysis: one position's best lines with a fresh table (so that
//! results do not depend on the order of work), and the mate solver's verdict.

use super::results::MateResult;
use super::AnalysisSettings;
use crate::mate::Verdict;
use crate::position::Position;
use crate::search::{
    Info, Limits, Observer, Request, SearchControl, SearchOptions, Searcher, Task,
};
use std::sync::Mutex;

pub(crate) struct Lines(Mutex<Vec<Info>>);

impl Observer for Lines {
    fn info(&self, info: &Info) {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(info.clone());
    }
}

/// The result of one search: the best lines.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The last complete report of each line, best first.
    pub lines: Vec<Info>,
    /// The nodes searched.
    pub nodes: u64,
}

pub(crate) fn search(
    searcher: &mut Searcher,
    pos: &Position,
    settings: &AnalysisSettings,
    multipv: usize,
) -> Analysis {
    searcher.clear();
    let lines = Lines(Mutex::new(Vec::new()));
    // Analysis wants the position's own scores: a draw is 0, without the contempt of play.
    let request = Request {
        limits: settings.limits.clone(),
        task: Task::Analyse,
        options: SearchOptions {
            threads: settings.threads,
            multipv,
            ..SearchOptions::for_variant(pos.variant())
        },
    };
    // One step of a task (a page's review): the task's stop ends it.
    let control = match &settings.task {
        Some(task) => SearchControl::within(task),
        None => SearchControl::new(false),
    };
    let result = crate::session::worker::search_guarded(searcher, pos, &request, &control, &lines);
    let infos = lines.0.into_inner().unwrap_or_else(|e| e.into_inner());
    // The last complete report of each line.
    let mut best: Vec<Info> = Vec::new();
    for k in 1..=multipv {
        if let Some(info) = infos
            .iter()
            .rev()
            .find(|i| i.multipv == k && i.bound.is_none())
        {
            best.push(info.clone());
        }
    }
    if best.is_empty() {
        // Without a finished iteration there is no score to report (a move alone is no
        // analysis).
        if let (Some(mv), Some(score)) = (result.best, result.score) {
            best.push(Info {
                depth: result.depth,
                seldepth: 0,
                multipv: 1,
                score,
                bound: result.bound,
                nodes: result.nodes,
                time: Default::default(),
                hashfull: 0,
                pv: vec![mv],
            });
        }
    }
    Analysis {
        lines: best,
        nodes: result.nodes,
    }
}

/// The mate solver's verdict on `pos` (`--mate`): a forced win of the side to move with
/// its line, no checking sequence that wins, or undecided in `time`.
pub(crate) fn prove(
    searcher: &mut Searcher,
    pos: &Position,
    time: std::time::Duration,
) -> MateResult {
    let request = Request {
        limits: Limits {
            mate: true,
            movetime: Some(time),
            ..Limits::default()
        },
        task: Task::ProveMate(crate::mate::AttackerMoves::Checks),
        ..Request::default()
    };
    let result = crate::session::worker::search_guarded(
        searcher,
        pos,
        &request,
        &SearchControl::new(false),
        &crate::search::Silent,
    );
    match result.mate {
        Some(Verdict::Mate(line)) => MateResult::Mate {
            plies: line.len(),
            line: pv_text(pos, &line),
        },
        Some(Verdict::NoMate) => MateResult::Nomate,
        _ => MateResult::Unknown,
    }
}

pub(crate) fn pv_text(pos: &Position, pv: &[crate::core::Move]) -> String {
    let mut p = pos.clone();
    let mut out = Vec::new();
    for &mv in pv {
        if !p.is_legal(mv) {
            break;
        }
        out.push(p.move_to_usi(mv));
        p.make_move(mv);
    }
    out.join(" ")
}
