//! The mate plan of the searcher: how the mate solver ([`crate::mate`]) takes part in a
//! search. Its roles, chosen once at the start of a search as a [`MatePlan`] (and named
//! after it here: [`prove`], [`probe`], [`first_line`], [`helper`]; the searcher keeps the
//! solvers and their memory):
//! - **prove**: a `go mate` hands the position to the solver alone, and its verdict becomes
//!   the [`SearchResult`] and a final `info` line;
//! - **probe**: a timed game search first lets it try, for a share of the move's time
//!   (`probe_mate_permille`, kept after an SPRT showed it does no harm), to prove a forced
//!   win (alpha-beta misses long checking sequences that the solver proves in
//!   milliseconds); a proof is the answer;
//! - **first line**: a single-thread analysis gives it a short budget before searching;
//! - **helper**: an analysis with two threads or more lets one of them try it first.
//!
//! In an analysis a proven win then stands as the first line.

use super::thread::Shared;
use super::time::TimeLimits;
use super::{Info, Limits, Observer, Request, SearchControl, SearchResult, Task};
use crate::core::score::mate_in;
use crate::core::Move;
use crate::mate::{AttackerMoves, MateLimits, Solver, Verdict};
use crate::position::Position;
use std::time::Duration;

/// Size of the table of the solver that the game search runs first: small, because it is
/// cleared at every move and the solver gets milliseconds.
pub(super) const PROBE_TABLE_MB: usize = 2;

/// A shorter share is not tried (in time trouble every millisecond is the search's).
const MIN_PROBE: Duration = Duration::from_millis(1);

/// The share of a single-thread analysis's planned time that the solver gets first.
const ANALYSIS_PROOF_SHARE: u32 = 10;

/// How long the helper gives the solver before its thread joins the search: at 10 s
/// the solver proves most mates of `data/mate/hard.txt` that it proves at all. In ordinary
/// positions it decides (no mate by checks) within milliseconds (56 self-play positions:
/// median 4 ms, at most 67 ms), so the cap matters only where checks abound.
// A helper thread is had only where threads are.
#[cfg_attr(single_thread, allow(dead_code))]
const MATE_HELPER_TIME: Duration = Duration::from_secs(10);

/// How the solver takes part in one search (see the module doc for each role).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum MatePlan {
    /// The search alone.
    None,
    /// A timed game move: the solver tries first, for `budget`; a proof is the answer.
    Probe { budget: Duration },
    /// A single-thread analysis: the solver tries first, for `budget`; a proof stands as
    /// the first line and the search goes on.
    FirstLine { budget: Duration },
    /// An analysis with threads to spare: the last helper thread gives the solver up to
    /// [`MATE_HELPER_TIME`] before it joins the search.
    Helper,
}

impl MatePlan {
    /// The plan of a search (not a `go mate`, which is the solver's alone) for `pos`,
    /// with the time limits `time`.
    ///
    /// Only a search for one line at full strength lets the solver in: several lines or a
    /// lower strength want the search's own lines. An analysis runs the helper when it
    /// has two threads or more; with one, the first line, if it has a fixed time
    /// (shoginet's `go movetime 3000 depth 19 nodes 1250000`) or none at all (an analysis
    /// bounded by depth or nodes alone stays a pure, repeatable search). A game search
    /// keeps every thread for the search: it probes, when the move's time is known (not
    /// bounded by depth or nodes, as bench and fixed-node games are, not pondering) and
    /// the side to move leads by `probe_mate_min_lead` or more.
    pub(super) fn choose(
        request: &Request,
        pos: &Position,
        time: &TimeLimits,
        pondering: bool,
    ) -> MatePlan {
        let (limits, options) = (&request.limits, &request.options);
        if options.multipv > 1 || options.skill.is_some() {
            return MatePlan::None;
        }
        match request.task {
            Task::ProveMate(_) => MatePlan::None,
            Task::Analyse if options.threads >= 2 => MatePlan::Helper,
            Task::Analyse if limits.infinite || limits.movetime.is_some() => MatePlan::FirstLine {
                budget: analysis_proof_budget(time),
            },
            Task::Analyse => MatePlan::None,
            Task::Play => probe_budget(request, pos, time, pondering)
                .map_or(MatePlan::None, |budget| MatePlan::Probe { budget }),
        }
    }
}

/// The probe's share of a game move's time, if the probe applies (see
/// [`MatePlan::choose`]) and the share is long enough to try.
fn probe_budget(
    request: &Request,
    pos: &Position,
    time: &TimeLimits,
    pondering: bool,
) -> Option<Duration> {
    let (limits, params) = (&request.limits, &request.options.params);
    let permille = u32::try_from(params.probe_mate_permille).ok()?;
    let soft = time.soft?;
    let applies = permille > 0
        && limits.nodes.is_none()
        && limits.depth.is_none()
        && !limits.infinite
        && !pondering
        && super::evaluator(pos, params).evaluate(pos) >= params.probe_mate_min_lead;
    let budget = soft * permille / 1000;
    (applies && budget >= MIN_PROBE).then_some(budget)
}

/// The first line of a single-thread analysis: a forced win that `solver` proves within
/// `budget`, if its first move is one of the `root` moves, as the `info` of its line.
pub(super) fn first_line(
    solver: &mut Solver,
    pos: &Position,
    budget: Duration,
    control: &SearchControl,
    root: &[Move],
) -> Option<Info> {
    let (line, progress) = solve_within(solver, pos, budget, control, root)?;
    Some(proof_info(
        line,
        progress.nodes,
        control.elapsed(),
        progress.hashfull,
    ))
}

/// `go mate`: `solver` proves or disproves a forced win of the side to move, trying
/// `attacker_moves`, within `limits.movetime` and `limits.nodes` (none: until decided or
/// stopped). The search answers with the proof's first move, if there is one.
pub(super) fn prove(
    solver: &mut Solver,
    pos: &Position,
    limits: &Limits,
    attacker_moves: AttackerMoves,
    control: &SearchControl,
    observer: &dyn Observer,
) -> SearchResult {
    let mate_limits = MateLimits {
        time: if limits.infinite {
            None
        } else {
            limits.movetime
        },
        nodes: limits.nodes,
        attacker_moves,
        root_moves: limits
            .search_moves
            .iter()
            .map(|&mv| pos.canonical(mv))
            .collect(),
        ..MateLimits::default()
    };
    let solution = solver.solve(pos, mate_limits, control, &mut |p| observer.progress(p));
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

/// The probe before a game search: a forced win of the side to move that `solver` proves
/// within `budget`, if its first move is one of the `root` moves (the search may play), as
/// the search's answer.
pub(super) fn probe(
    solver: &mut Solver,
    pos: &Position,
    budget: Duration,
    control: &SearchControl,
    observer: &dyn Observer,
    root: &[Move],
) -> Option<SearchResult> {
    let (line, progress) = solve_within(solver, pos, budget, control, root)?;
    log::debug!(
        "the solver's probe proved a win in {} plies ({} nodes)",
        line.len(),
        progress.nodes
    );
    Some(proven_line(&line, &progress, observer))
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

/// The solver's try before a search (the probe, the first line): the proof it finds
/// within `budget`, if the search may play its first move, and the solve's progress.
fn solve_within(
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

/// The helper's work (in its own thread, before it joins the search): tries
/// to prove a forced win of the side to move and, when the first move of the proof is a
/// `root` move, makes it the search's first line and reports it; the first proof at once,
/// then a shorter one if the solver's second pass finds it in the time left.
#[cfg_attr(single_thread, allow(dead_code))]
pub(super) fn helper(solver: &mut Solver, pos: &Position, root: &[Move], shared: &Shared) {
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
            "the solver's helper proved a win in {} plies ({} nodes)",
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
    use crate::search::skill::Skill;
    use crate::search::time::time_limits;
    use crate::search::SearchOptions;
    use crate::variant::Variant;

    /// The plan for `task`, `limits` and `threads` / `multipv`, in `pos`.
    fn plan(
        pos: &Position,
        task: Task,
        limits: Limits,
        threads: usize,
        multipv: usize,
    ) -> MatePlan {
        let request = Request {
            limits,
            task,
            options: SearchOptions {
                threads,
                multipv,
                ..SearchOptions::default()
            },
        };
        let time = time_limits(
            &request.limits,
            pos.side_to_move(),
            pos.move_number().saturating_sub(1),
            Duration::ZERO,
            &request.options.params,
        );
        MatePlan::choose(&request, pos, &time, false)
    }

    #[test]
    fn the_solver_plan_follows_the_task_the_threads_and_the_limits() {
        let start = Position::startpos(Variant::chu());
        let infinite = Limits {
            infinite: true,
            ..Limits::default()
        };
        let depth = Limits {
            depth: Some(8),
            ..Limits::default()
        };
        let timed = Limits {
            movetime: Some(Duration::from_secs(3)),
            nodes: Some(1_250_000),
            ..Limits::default()
        };
        let analyse = Task::Analyse;
        // An analysis with threads to spare runs the helper; one thread gets a first line
        // with a fixed time or none, not when bounded by depth or nodes alone.
        assert_eq!(plan(&start, analyse, depth.clone(), 2, 1), MatePlan::Helper);
        assert_eq!(
            plan(&start, analyse, infinite.clone(), 4, 1),
            MatePlan::Helper
        );
        assert_eq!(
            plan(&start, analyse, timed.clone(), 1, 1),
            MatePlan::FirstLine {
                budget: Duration::from_millis(300)
            }
        );
        assert_eq!(
            plan(&start, analyse, infinite, 1, 1),
            MatePlan::FirstLine {
                budget: Duration::from_millis(500)
            }
        );
        assert_eq!(plan(&start, analyse, depth.clone(), 1, 1), MatePlan::None);
        // Several lines or a lower strength want the search's own lines.
        assert_eq!(plan(&start, analyse, depth.clone(), 2, 3), MatePlan::None);
        let mut weaker = Request {
            limits: depth.clone(),
            task: analyse,
            ..Request::default()
        };
        weaker.options.threads = 2;
        weaker.options.skill = Skill::new(5);
        assert_eq!(
            MatePlan::choose(
                &weaker,
                &start,
                &TimeLimits {
                    soft: None,
                    hard: None,
                    adjustable: false,
                },
                false
            ),
            MatePlan::None
        );
        // A game search keeps its threads; it probes only a timed move with a lead.
        assert_eq!(plan(&start, Task::Play, depth, 2, 1), MatePlan::None);
        let clock_move = Limits {
            movetime: Some(Duration::from_secs(10)),
            ..Limits::default()
        };
        assert_eq!(
            plan(&start, Task::Play, clock_move.clone(), 1, 1),
            MatePlan::None,
            "no lead at the start"
        );
        let ahead = Position::from_sfen(
            Variant::chu(),
            "12/6k5/7n4/12/12/6N5/6+F5/12/12/4CTT5/4SKE5/5GF5 b - 1",
        )
        .unwrap();
        let permille = crate::search::params::SearchParams::default().probe_mate_permille;
        assert_eq!(
            plan(&ahead, Task::Play, clock_move, 1, 1),
            MatePlan::Probe {
                budget: Duration::from_secs(10) * permille as u32 / 1000
            }
        );
        assert_eq!(analysis_table_bytes(16 << 20), 4 << 20);
        assert_eq!(analysis_table_bytes(1 << 20), 256 << 10);
        assert_eq!(analysis_table_bytes(4096 << 20), 256 << 20);
    }
}
