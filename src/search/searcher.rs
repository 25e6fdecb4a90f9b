//! The searcher: owns the hash table and the per-thread history tables, and runs a search
//! as Lazy SMP on std threads (scoped, with explicit stack sizes). All threads search the
//! same root and share the table; the main thread keeps time and reports; one relaxed stop
//! flag ends them all.

use super::history::History;
use super::mate_plan::{self, MatePlan};
use super::thread::{Line, SearchThread, Shared};
use super::time::time_limits;
use super::tt::{NoMemory, TranspositionTable};
use super::{Info, Limits, Observer, Request, SearchControl, SearchResult, Silent, Task, MAX_PLY};
use crate::core::score::{Score, DRAW};
use crate::core::Move;
use crate::mate::{AttackerMoves, Solver};
use crate::position::rules::Outcome;
use crate::position::{GenMode, Position};
use std::sync::atomic::{AtomicI32, AtomicU64, Ordering::Relaxed};
use std::time::Duration;

/// Stack size of each search thread: the recursion is at most `MAX_PLY` frames deep, a few
/// hundred bytes each (the whole bench and a crowded position at depth 4 run in 1 MB).
/// Kept small so that many threads do not exhaust a limited address space: with 64 MB
/// stacks, `Threads 64` under a 1.5 GB limit ran out of memory and aborted.
#[cfg(not(single_thread))]
const STACK_BYTES: usize = 8 * 1024 * 1024;
/// The stack tried when the first cannot be had.
#[cfg(not(single_thread))]
const MIN_STACK_BYTES: usize = 2 * 1024 * 1024;

/// A reusable searcher (one per engine).
pub struct Searcher {
    tt: TranspositionTable,
    /// One history table per search thread (as many as the last search had threads).
    histories: Vec<History>,
    /// The hash memory in MB (`USI_Hash`): the search's table and the solvers' tables
    /// together take no more (protocol-docs/usi.md, "Memory").
    hash_mb: usize,
    /// The probe's small solver (see `mate_plan.rs`; its 2 MB are
    /// outside the hash memory).
    pub(super) probe_solver: Option<crate::mate::Solver>,
    /// The solver of an analysis: the helper's or the first line's (see `mate_plan.rs`); its
    /// table is carved out of the hash memory when first needed.
    pub(super) analysis_solver: Option<crate::mate::Solver>,
}

impl Searcher {
    /// A searcher with a `hash_mb` table. Panics when the table cannot be had: for fixed
    /// small sizes (tests, tools); user sizes go to [`try_new`]. The threads of a search
    /// are its request's ([`SearchOptions::threads`](super::SearchOptions::threads)).
    ///
    /// [`try_new`]: Searcher::try_new
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher::try_new(hash_mb).expect("memory for a small hash table")
    }

    /// A searcher with a `hash_mb` table, or an error saying that the table cannot be had.
    pub fn try_new(hash_mb: usize) -> Result<Searcher, NoMemory> {
        Ok(Searcher {
            tt: TranspositionTable::try_new(hash_mb)?,
            histories: vec![History::new(MAX_PLY)],
            hash_mb: hash_mb.max(1),
            probe_solver: None,
            analysis_solver: None,
        })
    }

    /// A searcher with this one's hash size and nothing learnt (after a failure inside a
    /// search, the old tables are not trusted). Falls back to a 1 MB table.
    pub fn fresh(&self) -> Searcher {
        Searcher::try_new(self.hash_mb()).unwrap_or_else(|_| Searcher::new(1))
    }

    /// Keeps one history table per thread of this search (histories of new threads start
    /// empty; those of threads no longer used go).
    fn set_threads(&mut self, threads: usize) {
        self.histories
            .resize_with(threads.max(1), || History::new(MAX_PLY));
    }

    /// Replaces the hash table by one of `mb` megabytes. If that much memory cannot be had,
    /// the old table stays and the error says so.
    pub fn set_hash(&mut self, mb: usize) -> Result<(), NoMemory> {
        // Free the old tables first so that their memory can be reused.
        self.free_tables();
        match TranspositionTable::try_new(mb) {
            Ok(tt) => {
                self.tt = tt;
                self.hash_mb = mb.max(1);
                Ok(())
            }
            Err(e) => {
                // The hash memory is still the old size: its table is made again.
                self.restore_search_table();
                Err(e)
            }
        }
    }

    /// The hash memory in MB (`USI_Hash`).
    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// The hash memory in bytes.
    pub(super) fn hash_bytes(&self) -> usize {
        self.hash_mb << 20
    }

    /// Frees the search's table and the analysis solver's (the table left is one bucket),
    /// so that their memory can go elsewhere.
    pub(super) fn free_tables(&mut self) {
        self.analysis_solver = None;
        self.tt = TranspositionTable::with_bytes_or_one_bucket(0);
    }

    /// Makes the search's table again, empty: the hash memory less the analysis solver's
    /// share if it has one.
    pub(super) fn restore_search_table(&mut self) {
        let share = self
            .analysis_solver
            .as_ref()
            .map_or(0, crate::mate::Solver::table_bytes);
        let bytes = self.hash_bytes().saturating_sub(share);
        self.tt = TranspositionTable::with_bytes_or_one_bucket(bytes);
    }

    /// `go mate`: the solver gets the whole hash memory. The search's table (and an
    /// analysis solver's) are freed first, and the search's is made again, empty,
    /// afterwards; both are made at once (zeroed memory), so `go mate` starts at once
    /// whatever the size, and the tables together never take more than `USI_Hash`.
    fn prove_mate(
        &mut self,
        pos: &Position,
        limits: &Limits,
        attacker_moves: AttackerMoves,
        control: &SearchControl,
        observer: &dyn Observer,
    ) -> SearchResult {
        let hash_bytes = self.hash_bytes();
        self.free_tables();
        let mut solver = Solver::with_bytes(hash_bytes);
        let result = mate_plan::prove(&mut solver, pos, limits, attacker_moves, control, observer);
        drop(solver);
        self.restore_search_table();
        result
    }

    /// Makes the analysis solver (the helper's or the first line's) if there is none, its
    /// table carved out of the hash memory: the search's table is made smaller by the
    /// solver's share (and so emptied, that once).
    fn carve_analysis_solver(&mut self) {
        if self.analysis_solver.is_none() {
            let share = mate_plan::analysis_table_bytes(self.hash_bytes());
            self.free_tables();
            self.analysis_solver = Some(Solver::with_bytes(share));
            self.restore_search_table();
        }
    }

    /// Forgets everything learnt (a new game, or `Clear Hash`).
    pub fn clear(&mut self) {
        self.tt.clear();
        for h in &mut self.histories {
            h.clear();
        }
    }

    /// The root moves the game rules allow: legal moves (restricted to `search_moves` if
    /// given), without those that lose at once by perpetual check or attack (and, with
    /// `avoid_repetition`, those that repeat an earlier position) when another move exists.
    pub fn root_moves(pos: &Position, search_moves: &[Move], avoid_repetition: bool) -> Vec<Move> {
        let mut pos = pos.clone();
        let mut moves = Vec::new();
        pos.legal_moves(GenMode::Search, &mut moves);
        if !search_moves.is_empty() {
            let wanted: Vec<Move> = search_moves.iter().map(|&m| pos.canonical(m)).collect();
            moves.retain(|m| wanted.contains(m));
        }
        let us = pos.side_to_move();
        let allowed: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&mv| {
                pos.make_move(mv);
                let lost = pos
                    .repetition_outcome()
                    .is_some_and(|o| o.winner == Some(us.flip()));
                let repeats = avoid_repetition && pos.repetitions().0 >= 2;
                pos.unmake_move();
                !lost && !repeats
            })
            .collect();
        if allowed.is_empty() {
            moves
        } else {
            allowed
        }
    }

    /// Searches `pos` as `request` asks, reporting to `observer`; returns when done or
    /// stopped (an infinite or pondering search waits for `stop` / `ponderhit` even when it
    /// has nothing left to search, as USI requires).
    ///
    /// It reads as: the solver's plan (see `mate_plan.rs`), then the threads, then the
    /// answer. The result stands by the deepest line a thread finished (the last report to
    /// the observer says the same, so a GUI that keeps the last `info` line keeps the
    /// answer); when no iteration finished it still names a legal move, but no score.
    pub fn search(
        &mut self,
        pos: &Position,
        request: &Request,
        control: &SearchControl,
        observer: &dyn Observer,
    ) -> SearchResult {
        let limits = &request.limits;
        self.set_threads(request.options.threads);
        if let Task::ProveMate(attacker_moves) = request.task {
            return self.prove_mate(pos, limits, attacker_moves, control, observer);
        }
        let root =
            Searcher::root_moves(pos, &limits.search_moves, request.options.avoid_repetition);
        if root.is_empty() {
            wait_for_release(control, limits);
            return SearchResult::default();
        }
        let time = time_limits(
            limits,
            pos.side_to_move(),
            pos.move_number().saturating_sub(1),
            request.options.move_overhead,
            &request.options.params,
        );
        let plan = MatePlan::choose(request, pos, &time, control.is_pondering());
        if let MatePlan::Probe { budget } = plan {
            let solver = self
                .probe_solver
                .get_or_insert_with(|| Solver::new(mate_plan::PROBE_TABLE_MB));
            if let Some(proven) = mate_plan::probe(solver, pos, budget, control, observer, &root) {
                return proven;
            }
        }
        self.tt.new_search();
        let first_line = match plan {
            MatePlan::FirstLine { budget } => {
                self.carve_analysis_solver();
                let solver = self.analysis_solver.as_mut().expect("carved above");
                mate_plan::first_line(solver, pos, budget, control, &root)
            }
            _ => None,
        };
        if plan == MatePlan::Helper {
            self.carve_analysis_solver();
        }
        let helper_solver = match plan {
            MatePlan::Helper => self.analysis_solver.as_mut(),
            _ => None,
        };
        let shared = Shared {
            tt: &self.tt,
            control,
            nodes: (0..self.histories.len())
                .map(|_| AtomicU64::new(0))
                .collect(),
            request,
            time,
            multipv: request.lines(),
            observer,
            reported: Default::default(),
            searching: (0..self.histories.len())
                .map(|_| AtomicI32::new(0))
                .collect(),
            deepest_shown: Default::default(),
            root_draw: (pos.side_to_move(), root_draw_value(pos, request)),
            proven: Default::default(),
        };
        if let Some(proof) = first_line {
            shared.report_proven(proof);
        }
        let outcomes = run_threads(pos, &root, &shared, &mut self.histories, helper_solver);
        choose_answer(&shared, &outcomes, &root, self.tt.hashfull())
    }

    /// Self-play: plays both sides from `pos`, each move a search as `request` asks, until the
    /// game ends or `max_plies` moves were made; the outcome, `None` if the game goes on.
    /// For measurements and tests of whole endgames (converting a won one).
    pub fn play_out(
        &mut self,
        pos: &mut Position,
        request: &Request,
        max_plies: usize,
    ) -> Option<Outcome> {
        for _ in 0..max_plies {
            if let Some(outcome) = pos.outcome() {
                return Some(outcome);
            }
            let result = self.search(pos, request, &SearchControl::new(false), &Silent);
            // A game that goes on has a legal move (no move at all is an outcome), and the
            // search names one; should it not, the game is left where it stands.
            let Some(best) = result.best else {
                break;
            };
            pos.make_move(best);
        }
        pos.outcome()
    }
}

/// On one thread (`single_thread`: no thread can be started) the main search runs here,
/// without helpers.
#[cfg(single_thread)]
fn run_threads(
    pos: &Position,
    root: &[Move],
    shared: &Shared,
    histories: &mut [History],
    _helper_solver: Option<&mut crate::mate::Solver>,
) -> Vec<ThreadOutcome> {
    vec![run_main_thread(
        pos.clone(),
        root,
        shared,
        &mut histories[0],
    )]
}

/// The main search thread's work: the search, then (an infinite or pondering search) the
/// wait for `stop` or `ponderhit`; what it hands back.
fn run_main_thread(
    pos: Position,
    root: &[Move],
    shared: &Shared,
    history: &mut History,
) -> ThreadOutcome {
    let control = shared.control;
    let _stop = StopOnDrop(control);
    let mut thread = SearchThread::new(0, pos, root, shared, history);
    thread.iterative_deepening();
    shared.nodes[0].store(thread.nodes_searched(), Relaxed);
    wait_for_release(control, &shared.request.limits);
    ThreadOutcome::of(&thread)
}

/// Runs the search threads (the main one, which keeps time and reports, and the helpers,
/// the last of them first giving `helper_solver` its try when the plan has one) until they
/// end; what each hands back, the main thread's first (none if no thread could start).
#[cfg(not(single_thread))]
fn run_threads(
    pos: &Position,
    root: &[Move],
    shared: &Shared,
    histories: &mut [History],
    mut helper_solver: Option<&mut crate::mate::Solver>,
) -> Vec<ThreadOutcome> {
    let control = shared.control;
    let (main_history, helper_histories) = histories
        .split_first_mut()
        .expect("set_threads keeps one thread at least");
    std::thread::scope(|scope| {
        // Whatever happens in here (a panic included), the threads are told to stop, so
        // that the scope can join them.
        let _stop = StopOnDrop(control);
        let mut handles = Vec::with_capacity(1 + helper_histories.len());
        // Dropped when the main thread ends (normally or by a panic): the time keeper below
        // hears it at once.
        let (main_running, main_ended) = std::sync::mpsc::channel::<()>();
        let main = spawn_search_thread(scope, "search-main".into(), {
            let (pos, root) = (pos.clone(), root.to_vec());
            move || {
                let _running = main_running;
                run_main_thread(pos, &root, shared, main_history)
            }
        });
        let Some(main) = main else {
            return Vec::new();
        };
        handles.push(main);
        let last_helper = helper_histories.len().saturating_sub(1);
        for (i, history) in helper_histories.iter_mut().enumerate() {
            let (pos, root) = (pos.clone(), root.to_vec());
            let solver = if i == last_helper {
                helper_solver.take()
            } else {
                None
            };
            let helper = spawn_search_thread(scope, format!("search-{}", i + 1), move || {
                let _stop = StopOnDrop(control);
                if let Some(solver) = solver {
                    mate_plan::helper(solver, &pos, &root, shared);
                }
                let mut thread = SearchThread::new(i + 1, pos, &root, shared, history);
                thread.iterative_deepening();
                ThreadOutcome::of(&thread)
            });
            match helper {
                Some(h) => handles.push(h),
                None => break,
            }
        }
        // This thread keeps the time while the main search thread runs: the search
        // threads check it too, but when there are more of them than cores they may not
        // run for a long while. It wakes each millisecond, and at once when the main
        // thread ends (a sleep of 1 ms between looks at the main thread cost every search
        // about a millisecond: at 2.5 s a game, a tenth of the clock).
        while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
            main_ended.recv_timeout(Duration::from_millis(1))
        {
            shared.check_hard_limit();
        }
        control.stop();
        handles
            .into_iter()
            .map(|h| match h.join() {
                Ok(outcome) => outcome,
                Err(panic) => std::panic::resume_unwind(panic),
            })
            .collect::<Vec<_>>()
    })
}

/// The answer of a search from what its threads handed back: the deepest finished line
/// (an exact one before a bound at the same depth, the main thread's on ties), or a proven
/// forced win when it beats that line. The observer last hears the line the answer stands
/// by.
fn choose_answer(
    shared: &Shared,
    outcomes: &[ThreadOutcome],
    root: &[Move],
    hashfull: u32,
) -> SearchResult {
    let Some(main) = outcomes.first() else {
        log::error!("no search thread could be started; playing the first legal move");
        return SearchResult::unscored(root[0]);
    };
    let chosen = outcomes.iter().filter_map(|o| o.line.as_ref()).fold(
        None::<&Line>,
        |best, line| match best {
            Some(b) if (b.depth, !b.partial) >= (line.depth, !line.partial) => Some(b),
            _ => Some(line),
        },
    );
    let nodes = shared.total_nodes();
    if let Some(proven) = shared.proven() {
        if chosen.is_none_or(|line| line.score < proven.score) {
            return proven_result(&proven, nodes, shared);
        }
    }
    let Some(line) = chosen else {
        return SearchResult {
            nodes,
            ..SearchResult::unscored(main.first_move)
        };
    };
    let last = Info {
        depth: line.depth,
        seldepth: line.seldepth,
        multipv: 1,
        score: line.score,
        bound: line.bound,
        nodes,
        time: shared.control.elapsed(),
        hashfull,
        pv: line.pv.clone(),
    };
    if !shared.repeats_last_report(&last) {
        shared.report_block(&last);
    }
    SearchResult {
        best: Some(line.pv[0]),
        ponder: line.pv.get(1).copied(),
        score: Some(line.score),
        bound: line.bound,
        depth: line.depth,
        nodes,
        pv: line.pv.clone(),
        mate: None,
    }
}

/// The result of a search whose first line is the analysis solver's proven win; the
/// observer last heard that line (`report` passes it on unless it was the last one).
fn proven_result(proven: &Info, nodes: u64, shared: &Shared) -> SearchResult {
    shared.report(proven);
    mate_plan::proof_result(proven, nodes)
}

/// What a search thread hands back.
struct ThreadOutcome {
    /// The line it stands by, if it finished an iteration.
    line: Option<Line>,
    /// Its first root move (the best it knows of, even with nothing finished).
    first_move: Move,
}

impl ThreadOutcome {
    fn of(worker: &SearchThread) -> ThreadOutcome {
        ThreadOutcome {
            line: worker.final_line(),
            first_move: worker.root_moves[0].mv,
        }
    }
}

/// Stops the search when dropped: on the way out of a thread, normally or by a panic.
struct StopOnDrop<'a>(&'a SearchControl);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.stop();
    }
}

/// Starts a search thread with a deep stack; with less memory, a smaller one. `None` (and
/// a logged error) when no thread can be had: the search then runs with fewer threads.
#[cfg(not(single_thread))]
fn spawn_search_thread<'scope, 'env, T: Send + 'scope>(
    scope: &'scope std::thread::Scope<'scope, 'env>,
    name: String,
    body: impl FnOnce() -> T + Send + 'scope,
) -> Option<std::thread::ScopedJoinHandle<'scope, T>> {
    let mut body = Some(body);
    for stack in [STACK_BYTES, MIN_STACK_BYTES] {
        let run = body.take()?;
        // `spawn_scoped` consumes the closure even when it fails, so share it through a
        // cell that the failed attempt leaves full.
        let cell = std::sync::Arc::new(std::sync::Mutex::new(Some(run)));
        let inner = std::sync::Arc::clone(&cell);
        let spawned = std::thread::Builder::new()
            .name(name.clone())
            .stack_size(stack)
            .spawn_scoped(scope, move || {
                let run = inner
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .take()
                    .expect("the thread runs its body once");
                run()
            });
        match spawned {
            Ok(handle) => return Some(handle),
            Err(e) => {
                log::warn!("cannot start search thread {name} with a {stack}-byte stack: {e}");
                body = cell.lock().unwrap_or_else(|e| e.into_inner()).take();
            }
        }
    }
    None
}

/// What a draw is worth to the side to move at the root: minus a share of its static
/// evaluation (contempt grows with the lead; a side behind values a draw above 0). Only
/// in play: an analysis wants the position's own scores, a draw at 0.
fn root_draw_value(pos: &Position, request: &Request) -> Score {
    if request.is_analysis() {
        return DRAW;
    }
    let params = &request.options.params;
    let eval = super::evaluator(pos, params).evaluate(pos);
    -(eval * params.contempt_pct / 100).clamp(-params.contempt_max, params.contempt_max)
}

/// An infinite or pondering search does not end on its own.
fn wait_for_release(control: &SearchControl, limits: &Limits) {
    while !control.is_stopped() && (limits.infinite || control.is_pondering()) {
        // On one thread nobody else reads the input: this wait does.
        #[cfg(single_thread)]
        crate::control::input_poll::now(control);
        std::thread::sleep(Duration::from_millis(1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;

    #[test]
    fn a_draw_costs_the_side_ahead_and_helps_the_side_behind() {
        let play = Request::default();
        let max = play.options.params.contempt_max;
        let ahead = "12/6k5/7n4/12/12/6N5/6+F5/12/12/4CTT5/4SKE5/5GF5";
        let sente_to_move = Position::from_sfen(Variant::chu(), &format!("{ahead} b - 1")).unwrap();
        let gote_to_move = Position::from_sfen(Variant::chu(), &format!("{ahead} w - 1")).unwrap();
        // Far ahead: the largest contempt.
        assert_eq!(root_draw_value(&sente_to_move, &play), -max);
        assert_eq!(root_draw_value(&gote_to_move, &play), max);
        // About even: about nothing.
        let start = Position::startpos(Variant::chu());
        assert!(root_draw_value(&start, &play).abs() <= 5);
        // Analysis scores a draw as a draw, however far ahead.
        let analysis = Request {
            task: Task::Analyse,
            ..Request::default()
        };
        assert_eq!(root_draw_value(&sente_to_move, &analysis), DRAW);
    }
}
