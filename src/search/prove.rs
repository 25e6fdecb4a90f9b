//! The proof-number solver ([`crate::mate`]) inside the search: a `mate` search hands the
//! position to it and turns its verdict into a [`SearchResult`] and a final `info` line; a
//! timed game search can first let it try, for a share of the move's time
//! (`probe_mate_permille`, kept after an SPRT showed it does no harm), to prove a forced win
//! (alpha-beta misses long checking sequences that the solver proves in milliseconds); and
//! an analysis with two threads or more lets one of them try the solver first (the mate
//! helper), a single-thread analysis gives it a short budget before searching, and a
//! proven win then stands as the first line.

use super::thread::Shared;
use super::time::TimeLimits;
use super::{Info, Limits, Observer, SearchControl, SearchResult, Searcher};
use crate::core::score::mate_in;
use crate::core::Move;
use crate::eval::Evaluator;
use crate::mate::{MateLimits, Solver, Verdict};
use crate::position::Position;
use std::time::Duration;

/// Size of the table of the solver that the game search runs first: small, because it is
/// cleared at every move and the solver gets milliseconds.
const PROBE_TABLE_MB: usize = 2;

/// A shorter share is not tried (in time trouble every millisecond is the search's).
const MIN_PROBE: Duration = Duration::from_millis(1);

/// The share of a single-thread analysis's planned time that the solver gets first.
const ANALYSIS_PROOF_SHARE: u32 = 10;

/// How long the analysis mate helper tries before its thread joins the search: at 10 s
/// the solver proves most mates of `data/mate/hard.txt` that it proves at all. In ordinary
/// positions it decides (no mate by checks) within milliseconds (56 self-play positions:
/// median 4 ms, at most 67 ms), so the cap matters only where checks abound.
const MATE_HELPER_TIME: Duration = Duration::from_secs(10);

impl Searcher {
    /// A single-thread analysis's first try: a forced win that the solver proves within
    /// `budget`, if its first move is one of the `root` moves, as the `info` of its line.
    pub(super) fn prove_before_analysis(
        &mut self,
        pos: &Position,
        budget: Duration,
        control: &SearchControl,
        root: &[Move],
    ) -> Option<Info> {
        self.carve_analysis_solver();
        let solver = self.analysis_solver.as_mut().expect("carved above");
        let (line, progress) = first_try(solver, pos, budget, control, root)?;
        Some(proof_info(
            line,
            progress.nodes,
            control.elapsed(),
            progress.hashfull,
        ))
    }

    /// Proves or disproves a forced win of the side to move within `limits.movetime` and
    /// `limits.nodes` (none: until decided or stopped).
    pub(super) fn prove_mate(
        &mut self,
        pos: &Position,
        limits: &Limits,
        control: &SearchControl,
        observer: &dyn Observer,
    ) -> SearchResult {
        // The solver gets the whole hash memory: the search's table (and an analysis
        // solver's) are freed first, and the search's is made again, empty, afterwards.
        // Both are made at once (zeroed memory), so `go mate` starts at once whatever the
        // size, and the tables together never take more than `USI_Hash`.
        let hash_bytes = self.hash_bytes();
        self.free_tables();
        let mut solver = Solver::with_bytes(hash_bytes);
        let mate_limits = MateLimits {
            time: if limits.infinite {
                None
            } else {
                limits.movetime
            },
            nodes: limits.nodes,
            attacker_moves: limits.mate_moves,
            root_moves: limits
                .search_moves
                .iter()
                .map(|&mv| pos.canonical(mv))
                .collect(),
            ..MateLimits::default()
        };
        let solution = solver.solve(pos, mate_limits, control, &mut |p| observer.progress(p));
        drop(solver);
        self.restore_search_table();
        let mut result = match &solution.verdict {
            Verdict::Mate(line) => proven_line(line, &solution.progress, observer),
            _ => SearchResult {
                nodes: solution.progress.nodes,
                ..SearchResult::default()
            },
        };
        result.mate = Some(solution.verdict);
        result
    }

    /// Before a game search: a forced win of the side to move that the solver proves within
    /// `probe_mate_permille` of the planned time, if its first move is one of the `root`
    /// moves (the search may play). Only in a timed game search for one best move at full
    /// strength, not pondering, with a lead of `probe_mate_min_lead` or more: the share of
    /// time is then known and the answer is wanted now; searches bounded by depth or nodes
    /// stay as they were (bench, fixed-node games), and an analysis has the mate helper or
    /// its own first try instead.
    pub(super) fn probe_mate(
        &mut self,
        pos: &Position,
        limits: &Limits,
        time: &TimeLimits,
        control: &SearchControl,
        observer: &dyn Observer,
        root: &[Move],
    ) -> Option<SearchResult> {
        let permille = u32::try_from(limits.params.probe_mate_permille).ok()?;
        let soft = time.soft?;
        let applies = permille > 0
            && self.multipv <= 1
            && limits.skill.is_none()
            && limits.nodes.is_none()
            && limits.depth.is_none()
            && !limits.infinite
            && !limits.analysis
            && !control.is_pondering()
            && Evaluator::for_variant(pos.variant()).evaluate(pos)
                >= limits.params.probe_mate_min_lead;
        if !applies {
            return None;
        }
        let budget = soft * permille / 1000;
        if budget < MIN_PROBE {
            return None;
        }
        let solver = self
            .probe_solver
            .get_or_insert_with(|| Solver::new(PROBE_TABLE_MB));
        let (line, progress) = first_try(solver, pos, budget, control, root)?;
        log::debug!(
            "the solver proved a win in {} plies ({} nodes)",
            line.len(),
            progress.nodes
        );
        Some(proven_line(&line, &progress, observer))
    }
}

/// Whether an analysis runs the mate helper: one of two or more threads first gives the
/// proof-number solver up to [`MATE_HELPER_TIME`] to prove a forced win, which then stands as
/// the first line (alpha-beta misses long checking sequences; an analyst wants the mate).
/// Only for a single line at full strength: a game search keeps every thread for the
/// search (there the solver gets a short first try instead, `probe_mate_permille`).
pub(super) fn runs_mate_helper(limits: &Limits, threads: usize, multipv: usize) -> bool {
    analyses_one_line(limits, multipv) && threads >= 2
}

/// Whether a single-thread analysis lets the solver try first, for a short budget
/// ([`analysis_proof_budget`]), since no thread can be spared for the mate helper. Only
/// with a fixed time (shoginet's `go movetime 3000 depth 19 nodes 1250000`) or none at all:
/// an analysis bounded by depth or nodes alone stays a pure, repeatable search.
pub(super) fn proves_before_analysis(limits: &Limits, threads: usize, multipv: usize) -> bool {
    analyses_one_line(limits, multipv)
        && threads == 1
        && (limits.infinite || limits.movetime.is_some())
}

/// An analysis (`go infinite`, `USI_AnalyseMode`) for one line at full strength: where the
/// solver's proof may stand as the answer.
fn analyses_one_line(limits: &Limits, multipv: usize) -> bool {
    (limits.infinite || limits.analysis) && multipv <= 1 && limits.skill.is_none()
}

/// How long a single-thread analysis lets the solver try first: a tenth of the planned
/// time, or half a second of an infinite analysis (in ordinary positions the solver
/// decides within milliseconds, so the first search lines are not held back).
pub(super) fn analysis_proof_budget(time: &TimeLimits) -> Duration {
    time.soft.map_or(Duration::from_millis(500), |soft| {
        soft / ANALYSIS_PROOF_SHARE
    })
}

/// The table of the analysis mate solver: a quarter of the hash memory, at most 256 MB
/// (in bytes).
pub(super) fn analysis_table_bytes(hash_bytes: usize) -> usize {
    (hash_bytes / 4).min(256 << 20)
}

impl Searcher {
    /// Makes the analysis solver (the mate helper's, or a single-thread analysis's first
    /// try) if there is none, its table carved out of the hash memory: the search's table
    /// is made smaller by the solver's share (and so emptied, that once).
    pub(super) fn carve_analysis_solver(&mut self) {
        if self.analysis_solver.is_none() {
            let share = analysis_table_bytes(self.hash_bytes());
            self.free_tables();
            self.analysis_solver = Some(Solver::with_bytes(share));
            self.restore_search_table();
        }
    }
}

/// A first try before a search (the game probe, a single-thread analysis's first try): the
/// proof the solver finds within `budget`, if the search may play its first move, and the
/// solve's progress.
fn first_try(
    solver: &mut Solver,
    pos: &Position,
    budget: Duration,
    control: &SearchControl,
    root: &[Move],
) -> Option<(Vec<Move>, crate::mate::Progress)> {
    let limits = MateLimits {
        time: Some(budget),
        ..MateLimits::default()
    };
    let solution = solver.solve(pos, limits, control, &mut |_| {});
    let line = playable_proof(solution.verdict, root)?;
    Some((line, solution.progress))
}

/// The proven line of `verdict`, if there is one and the search may play its first move
/// (one of the `root` moves: not a losing repetition, not excluded by `searchmoves`).
fn playable_proof(verdict: Verdict, root: &[Move]) -> Option<Vec<Move>> {
    match verdict {
        Verdict::Mate(line) if line.first().is_some_and(|mv| root.contains(mv)) => Some(line),
        _ => None,
    }
}

/// The analysis mate helper's work (in its own thread, before it joins the search): tries
/// to prove a forced win of the side to move and, when the first move of the proof is a
/// `root` move, makes it the search's first line and reports it; the first proof at once,
/// then a shorter one if the solver's second pass finds it in the time left.
pub(super) fn help_with_mate(solver: &mut Solver, pos: &Position, root: &[Move], shared: &Shared) {
    let started = std::time::Instant::now();
    for shorten in [false, true] {
        let limits = MateLimits {
            time: Some(MATE_HELPER_TIME.saturating_sub(started.elapsed())),
            shorten,
            ..MateLimits::default()
        };
        let solution = solver.solve(pos, limits, shared.control, &mut |_| {});
        let Some(line) = playable_proof(solution.verdict, root) else {
            return;
        };
        if shared.control.is_stopped() {
            return;
        }
        log::debug!(
            "the mate helper proved a win in {} plies ({} nodes)",
            line.len(),
            solution.progress.nodes
        );
        shared.report_proven(proof_info(
            line,
            shared.total_nodes(),
            shared.control.elapsed(),
            shared.tt.hashfull(),
        ));
    }
}

/// The result of a proven forced win, `line` from its first move to the end of the game,
/// reported to the observer as a mate score.
fn proven_line(
    line: &[Move],
    progress: &crate::mate::Progress,
    observer: &dyn Observer,
) -> SearchResult {
    let info = proof_info(
        line.to_vec(),
        progress.nodes,
        progress.time,
        progress.hashfull,
    );
    observer.info(&info);
    proof_result(&info, progress.nodes)
}

/// The `info` of a proven forced win: a mate in as many plies as the line has, as deep.
fn proof_info(line: Vec<Move>, nodes: u64, time: Duration, hashfull: u32) -> Info {
    Info {
        depth: line.len() as i32,
        seldepth: line.len(),
        multipv: 1,
        score: mate_in(line.len()),
        bound: None,
        nodes,
        time,
        hashfull,
        pv: line,
    }
}

/// The search's answer when it stands by the proof of `info` (after `nodes` in all).
pub(super) fn proof_result(info: &Info, nodes: u64) -> SearchResult {
    SearchResult {
        best: info.pv.first().copied(),
        ponder: info.pv.get(1).copied(),
        score: Some(info.score),
        bound: None,
        depth: info.depth,
        nodes,
        pv: info.pv.clone(),
        mate: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mate_helper_runs_in_a_full_strength_analysis_with_threads_to_spare() {
        let analysis = Limits {
            analysis: true,
            ..Limits::default()
        };
        let infinite = Limits {
            infinite: true,
            ..Limits::default()
        };
        assert!(runs_mate_helper(&analysis, 2, 1));
        assert!(runs_mate_helper(&infinite, 4, 1));
        // A game search keeps its threads; one thread is the search's; several lines or a
        // lower strength want the search's own lines.
        assert!(!runs_mate_helper(&Limits::default(), 2, 1));
        assert!(!runs_mate_helper(&analysis, 1, 1));
        assert!(!runs_mate_helper(&analysis, 2, 3));
        let weaker = Limits {
            skill: crate::search::skill::Skill::new(5),
            ..analysis.clone()
        };
        assert!(!runs_mate_helper(&weaker, 2, 1));
        // One thread: the solver tries first, in an analysis with a fixed time or none.
        let timed = Limits {
            movetime: Some(Duration::from_secs(3)),
            nodes: Some(1_250_000),
            ..analysis.clone()
        };
        assert!(proves_before_analysis(&timed, 1, 1));
        assert!(proves_before_analysis(&infinite, 1, 1));
        assert!(!proves_before_analysis(&timed, 2, 1), "the helper does it");
        assert!(
            !proves_before_analysis(&analysis, 1, 1),
            "by depth or nodes only"
        );
        assert!(!proves_before_analysis(&Limits::default(), 1, 1));
        let soft = TimeLimits {
            soft: Some(Duration::from_secs(3)),
            hard: None,
        };
        assert_eq!(analysis_proof_budget(&soft), Duration::from_millis(300));
        assert_eq!(analysis_table_bytes(16 << 20), 4 << 20);
        assert_eq!(analysis_table_bytes(1 << 20), 256 << 10);
        assert_eq!(analysis_table_bytes(4096 << 20), 256 << 20);
    }
}
