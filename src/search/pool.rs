//! The searcher: owns the hash table and the per-thread history tables, and runs a search
//! as Lazy SMP on std threads (scoped, with explicit stack sizes). All threads search the
//! same root and share the table; the main thread keeps time and reports; one relaxed stop
//! flag ends them all.

use super::history::History;
use super::thread::{Shared, Worker};
use super::time::time_limits;
use super::tt::TranspositionTable;
use super::{Limits, Observer, SearchControl, SearchResult, MAX_PLY};
use crate::core::score::INFINITE;
use crate::core::Move;
use crate::position::{GenMode, Position};
use std::sync::atomic::AtomicU64;
use std::time::Duration;

/// Stack size of each search thread: the recursion is at most `MAX_PLY` frames deep.
const STACK_BYTES: usize = 64 * 1024 * 1024;

/// A reusable searcher (one per engine).
pub struct Searcher {
    tt: TranspositionTable,
    histories: Vec<History>,
    /// Number of best lines to report (MultiPV).
    pub multipv: usize,
    /// Margin kept on the clock for communication delays.
    pub move_overhead: Duration,
}

impl Searcher {
    /// A searcher with a `hash_mb` table and `threads` threads.
    pub fn new(hash_mb: usize, threads: usize) -> Searcher {
        Searcher {
            tt: TranspositionTable::new(hash_mb),
            histories: (0..threads.max(1)).map(|_| History::new(MAX_PLY)).collect(),
            multipv: 1,
            move_overhead: Duration::from_millis(50),
        }
    }

    /// Number of search threads.
    pub fn threads(&self) -> usize {
        self.histories.len()
    }

    /// Changes the number of threads (histories of new threads start empty).
    pub fn set_threads(&mut self, threads: usize) {
        self.histories
            .resize_with(threads.max(1), || History::new(MAX_PLY));
    }

    /// Replaces the hash table by one of `mb` megabytes. If that much memory cannot be had,
    /// the old table stays and the error says so.
    pub fn set_hash(&mut self, mb: usize) -> Result<(), String> {
        // Free the old table first so that its memory can be reused; fall back to its size.
        let old_mb = self.tt.size_mb().max(1);
        self.tt = TranspositionTable::new(1);
        match TranspositionTable::try_new(mb) {
            Ok(tt) => {
                self.tt = tt;
                Ok(())
            }
            Err(e) => {
                self.tt = TranspositionTable::try_new(old_mb)
                    .unwrap_or_else(|_| TranspositionTable::new(1));
                Err(e)
            }
        }
    }

    /// Hash table size in MB.
    pub fn hash_mb(&self) -> usize {
        self.tt.size_mb()
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

    /// Searches `pos` within `limits`, reporting to `observer`; returns when done or
    /// stopped (an infinite or pondering search waits for `stop` / `ponderhit` even when it
    /// has nothing left to search, as USI requires).
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        control: &SearchControl,
        observer: &dyn Observer,
    ) -> SearchResult {
        let root = Searcher::root_moves(pos, &limits.search_moves, limits.avoid_repetition);
        if root.is_empty() {
            wait_for_release(control, limits);
            return SearchResult {
                best: None,
                ponder: None,
                score: -INFINITE,
                depth: 0,
                nodes: 0,
                pv: Vec::new(),
            };
        }
        self.tt.new_search();
        let threads = self.histories.len();
        let shared = Shared {
            tt: &self.tt,
            control,
            nodes: (0..threads).map(|_| AtomicU64::new(0)).collect(),
            limits,
            time: time_limits(limits, pos.side_to_move(), self.move_overhead),
            multipv: self.multipv.max(1),
            observer,
        };
        let (main_history, helper_histories) = self
            .histories
            .split_first_mut()
            .expect("one thread at least");
        let (best, depth) = std::thread::scope(|scope| {
            let shared = &shared;
            let helpers: Vec<_> = helper_histories
                .iter_mut()
                .enumerate()
                .map(|(i, history)| {
                    let (pos, root) = (pos.clone(), root.clone());
                    std::thread::Builder::new()
                        .name(format!("search-{}", i + 1))
                        .stack_size(STACK_BYTES)
                        .spawn_scoped(scope, move || {
                            let mut worker = Worker::new(i + 1, pos, &root, shared, history);
                            worker.iterative_deepening();
                            (worker.root_moves[0].clone(), worker.completed_depth)
                        })
                        .expect("spawn a search thread")
                })
                .collect();
            let main = std::thread::Builder::new()
                .name("search-main".into())
                .stack_size(STACK_BYTES)
                .spawn_scoped(scope, move || {
                    let mut worker = Worker::new(0, pos.clone(), &root, shared, main_history);
                    worker.iterative_deepening();
                    shared.nodes[0]
                        .store(worker_nodes(&worker), std::sync::atomic::Ordering::Relaxed);
                    wait_for_release(control, limits);
                    control.stop();
                    (worker.root_moves[0].clone(), worker.completed_depth)
                })
                .expect("spawn the main search thread");
            // The deepest finished search wins; the main thread on ties.
            let mut best = main.join().expect("the main search thread");
            for helper in helpers {
                let candidate = helper.join().expect("a search thread");
                if candidate.1 > best.1 {
                    best = candidate;
                }
            }
            best
        });
        SearchResult {
            best: Some(best.mv),
            ponder: best.pv.get(1).copied(),
            score: best.score.max(best.previous),
            depth,
            nodes: shared.total_nodes(),
            pv: best.pv,
        }
    }
}

fn worker_nodes(worker: &Worker) -> u64 {
    worker.nodes_searched()
}

/// An infinite or pondering search does not end on its own.
fn wait_for_release(control: &SearchControl, limits: &Limits) {
    while !control.is_stopped() && (limits.infinite || control.is_pondering()) {
        std::thread::sleep(Duration::from_millis(1));
    }
}
