//! One search thread's state: its own copy of the position, history tables, move-picker
//! buffers and PV table, plus references to what all threads share (hash table, control,
//! node counters). The search itself is split over `negamax.rs`, `qsearch.rs` and
//! `iterate.rs`, each an `impl SearchThread` block.

use super::eval_cache::EvalCache;
use super::history::History;
use super::movepick::PickerBuffers;
use super::params::SearchParams;
use super::time::TimeLimits;
use super::tt::TranspositionTable;
use super::{Observer, Request, SearchControl, MAX_PLY};
use crate::core::score::{mate_in, mated_in, Score, DRAW, INFINITE, PERPETUAL_WIN};
use crate::core::{Move, Square};
use crate::eval::{mobility_after_move, Evaluator, Mobility};
use crate::position::{Outcome, Position};
use crate::variant::Kind;
use std::sync::atomic::{AtomicI32, AtomicU64, Ordering::Relaxed};

/// How long a search with no clock may run before its first iteration finishes. In an
/// ordinary position depth 1 takes a few hundred nodes and well under a millisecond; a
/// crowded one (the all-kirin board of the second red team: dozens of pieces in contact,
/// every capture answered, tens of microseconds a node) may not finish it for minutes,
/// and there a node or depth limit must still end the search.
pub const FIRST_ITERATION_TIME_CAP: std::time::Duration = std::time::Duration::from_secs(1);

/// What all threads of one search share.
pub struct Shared<'a> {
    /// The hash table.
    pub tt: &'a TranspositionTable,
    /// Stop and ponder switches.
    pub control: &'a SearchControl,
    /// Nodes per thread (each thread adds its own count now and then).
    pub nodes: Vec<AtomicU64>,
    /// What the search is asked: limits, task, options.
    pub request: &'a Request,
    /// Time limits (applied by the main thread).
    pub time: TimeLimits,
    /// Number of lines searched (MultiPV).
    pub multipv: usize,
    /// Where the main thread reports.
    pub observer: &'a dyn Observer,
    /// The last line reported for each MultiPV index.
    pub reported: std::sync::Mutex<Vec<Option<super::Info>>>,
    /// The side to move at the root, and what a draw is worth to it (negative when it is
    /// ahead: see `SearchParams::contempt_pct`).
    pub root_draw: (crate::core::Color, Score),
    /// The depth each thread is searching now (0 before its first iteration): with
    /// `smp_depth_skip` a helper skips the depths others already search.
    pub searching: Vec<AtomicI32>,
    /// The deepest iteration shown so far (with `smp_depth_skip` every thread shows its
    /// iterations deeper than that; the lock keeps them in order).
    pub deepest_shown: std::sync::Mutex<i32>,
    /// The fastest forced win that the solver proved in an analysis (see `mate_plan.rs`): it
    /// stands as the first line over any line of the search that does not mate as fast.
    pub proven: std::sync::Mutex<Option<super::Info>>,
}

impl Shared<'_> {
    /// Passes `info` to the observer, unless it repeats the last mate line reported for its
    /// MultiPV index unchanged (once a mate is found, deeper iterations find the same line
    /// within microseconds and would flood the GUI). A first line that mates slower than a
    /// proven forced win (or does not mate) is replaced by the proven one. Returns the line
    /// as shown (the proven one where it stood in).
    pub fn report(&self, info: &super::Info) -> super::Info {
        // One lock around the choice and the output, so that lines reach the observer in
        // the order they were chosen (a proven line is never followed by an older one).
        let mut reported = self.reported.lock().unwrap_or_else(|e| e.into_inner());
        // A proven line stands at the depth of the line it replaces (a client that keeps
        // the deepest line keeps it).
        let proven = self.proven().map(|p| super::Info {
            depth: p.depth.max(info.depth),
            ..p
        });
        let info = match &proven {
            Some(proven) if info.multipv == 1 && proven.score > info.score => proven,
            _ => info,
        };
        let slot = info.multipv.saturating_sub(1);
        if reported.len() <= slot {
            reported.resize(slot + 1, None);
        }
        let unchanged = reported[slot].as_ref().is_some_and(|last| {
            last.score == info.score && last.bound == info.bound && last.pv == info.pv
        });
        // With MultiPV a line is never left out: lishogi's ceval starts an evaluation at
        // each first line and adds every other line to it, so a block must be whole.
        if crate::core::score::is_mate(info.score) && unchanged && self.multipv == 1 {
            return info.clone();
        }
        reported[slot] = Some(info.clone());
        self.observer.info(info);
        info.clone()
    }

    /// Reports `first` as the first line and, with MultiPV, the other lines last reported
    /// after it, renumbered and without the first line's move, so that the block is whole
    /// (the final answer of a search whose first line changed after the last block, a
    /// proof found during an iteration). A first line with a bound (a new first move that
    /// failed high when the search was stopped) stands alone: lishogi's ceval drops a bound
    /// first line but adds the lines after it to the evaluation it already shows, which
    /// would then hold stale and doubled rows; without them it shows the last whole block.
    pub fn report_block(&self, first: &super::Info) {
        let others: Vec<super::Info> = self
            .reported
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .flatten()
            .cloned()
            .collect();
        let shown = self.report(first);
        if self.multipv == 1 || shown.bound.is_some() {
            return;
        }
        let rows = others
            .into_iter()
            .filter(|row| row.pv.first() != shown.pv.first())
            .take(self.multipv - 1);
        for (k, row) in rows.enumerate() {
            self.report(&super::Info {
                multipv: k + 2,
                ..row
            });
        }
    }

    /// The solver's proven line, if it proved one.
    pub fn proven(&self) -> Option<super::Info> {
        self.proven
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Makes `info` the proven line and reports it, unless a line as fast is proven already.
    pub fn report_proven(&self, info: super::Info) {
        {
            let mut proven = self.proven.lock().unwrap_or_else(|e| e.into_inner());
            if proven.as_ref().is_some_and(|p| p.score >= info.score) {
                return;
            }
            *proven = Some(info.clone());
        }
        self.report_block(&info);
    }

    /// Stops the search once the hard time limit is reached (never while pondering).
    pub fn check_hard_limit(&self) {
        let control = self.control;
        if let Some(hard) = self.time.hard {
            if !control.is_pondering() && control.clock_elapsed() >= hard {
                control.stop();
            }
        }
    }

    /// Whether the last report of `info`'s line said the same (depth, score, bound, pv).
    pub fn repeats_last_report(&self, info: &super::Info) -> bool {
        let reported = self.reported.lock().unwrap_or_else(|e| e.into_inner());
        reported
            .get(info.multipv.saturating_sub(1))
            .and_then(Option::as_ref)
            .is_some_and(|last| {
                last.depth == info.depth
                    && last.score == info.score
                    && last.bound == info.bound
                    && last.pv == info.pv
            })
    }

    /// The first depth from `depth` on that helper `id` should search with
    /// `smp_depth_skip`: one no thread has finished and fewer than half of the other
    /// threads search now (never past `max_depth`).
    pub fn first_depth_to_search(&self, mut depth: i32, id: usize, max_depth: i32) -> i32 {
        let others = self.searching.len() - 1;
        let finished = *self.deepest_shown.lock().unwrap_or_else(|e| e.into_inner());
        while depth < max_depth {
            let busy = (self.searching.iter().enumerate())
                .filter(|&(i, d)| i != id && d.load(Relaxed) >= depth)
                .count();
            if depth > finished && 2 * busy < others {
                break;
            }
            depth += 1;
        }
        depth
    }

    /// Nodes of all threads so far.
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Relaxed)).sum()
    }
}

/// A root move with its latest score and line.
#[derive(Clone, Debug)]
pub struct RootMove {
    /// The move.
    pub mv: Move,
    /// Score in the current iteration (`-INFINITE` until searched).
    pub score: Score,
    /// Score in the last finished iteration.
    pub previous: Score,
    /// The principal variation starting with `mv`.
    pub pv: Vec<Move>,
    /// Deepest ply reached below it.
    pub seldepth: usize,
    /// Nodes this thread searched below it, over all iterations (how much the search had
    /// to look at it: time management's "best move effort").
    pub effort: u64,
    /// Its score in the current iteration failed high (a lower bound, not its value).
    pub fails_high: bool,
}

/// A finished result of one thread: the line it stands by, at the depth it reached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// Depth of the iteration the line comes from.
    pub depth: i32,
    /// Deepest ply reached below the first move.
    pub seldepth: usize,
    /// Score from the side to move's point of view.
    pub score: Score,
    /// `Some(Bound::Lower)` when the line's score is only a lower bound: a move of an
    /// unfinished iteration that failed high.
    pub bound: Option<super::Bound>,
    /// The line of a move that beat the last finished iteration's best in an iteration that
    /// was stopped before it finished (its own score is exact unless `bound` says not, but
    /// the moves not yet searched at that depth might be better).
    pub partial: bool,
    /// The principal variation (never empty).
    pub pv: Vec<Move>,
}

/// Per-ply record of the move that led to the node (for countermoves).
#[derive(Clone, Copy, Default)]
pub struct Frame {
    /// The move played at this ply (`Move::NULL` for a null move).
    pub mv: Option<Move>,
    /// The kind that moved (after promotion).
    pub kind: Kind,
    /// Static evaluation at the node.
    pub eval: Score,
}

/// A search thread.
pub struct SearchThread<'a> {
    /// Thread number; 0 is the main thread (time, reports).
    pub id: usize,
    /// The thread's own position.
    pub pos: Position,
    pub(super) ev: &'static Evaluator,
    pub(super) eval_cache: EvalCache,
    pub(super) shared: &'a Shared<'a>,
    pub(super) history: &'a mut History,
    pub(super) buffers: Vec<PickerBuffers>,
    pub(super) pv: Vec<Vec<Move>>,
    pub(super) frames: Vec<Frame>,
    /// The mobility of the position at each ply (`eval/mobility.rs`), kept move by move
    /// for the evaluation: entry 0 is the root's, counted once.
    mobility: Vec<Mobility>,
    pub(super) nodes: u64,
    /// The main thread stops here on its own count, so that a small node limit (the low
    /// strength levels) is kept exactly, not at the next 1024-node check (`u64::MAX`: none).
    /// Like every node limit, it waits for the first iteration to finish, so that a move
    /// always comes with a score.
    own_node_limit: u64,
    pub(super) seldepth: usize,
    pub(super) stopped: bool,
    /// The root moves, best first after each iteration.
    pub root_moves: Vec<RootMove>,
    /// Last fully searched depth.
    pub completed_depth: i32,
    /// Every MultiPV line of the last fully searched depth, best first (empty until one
    /// finished).
    pub completed_lines: Vec<Line>,
    /// Late-move reductions by depth and moves searched (`reduction_table`).
    pub(super) lmr: Vec<[i32; 64]>,
    /// The same, with `lmr_deep_divisor_hundredths`: what a deep iteration reduces by.
    pub(super) lmr_deep: Vec<[i32; 64]>,
    /// The search constants of this search.
    pub(super) params: SearchParams,
    /// The best move and score of the last finished iteration, and for how many
    /// iterations in a row that move has been best (the main thread's time management).
    pub(super) last_best: Option<(Move, Score)>,
    pub(super) stable_iterations: u32,
}

/// Late-move reductions by depth and moves searched, `base + ln(depth) * ln(moves) /
/// divisor` (both in hundredths), truncated to whole plies.
fn reduction_table(base_hundredths: i32, divisor_hundredths: i32) -> Vec<[i32; 64]> {
    let (base, divisor) = (
        base_hundredths as f64 / 100.0,
        divisor_hundredths as f64 / 100.0,
    );
    (0..64)
        .map(|d| {
            let mut row = [0; 64];
            for (m, r) in row.iter_mut().enumerate() {
                if d > 0 && m > 0 {
                    *r = (base + (d as f64).ln() * (m as f64).ln() / divisor) as i32;
                }
            }
            row
        })
        .collect()
}

impl<'a> SearchThread<'a> {
    /// A search thread for `pos` searching `root_moves`.
    pub fn new(
        id: usize,
        mut pos: Position,
        root_moves: &[Move],
        shared: &'a Shared<'a>,
        history: &'a mut History,
    ) -> SearchThread<'a> {
        let params = shared.request.options.params;
        let base = params.lmr_base_hundredths;
        let lmr = reduction_table(base, params.lmr_divisor_hundredths);
        let lmr_deep = match params.lmr_deep_divisor_hundredths {
            0 => lmr.clone(),
            deep_divisor => reduction_table(base, deep_divisor),
        };
        if params.follow_up_history > 0 {
            let spec = &pos.variant().spec;
            history.fit_follow_up(spec.files, spec.ranks);
        }
        let ev = super::evaluator(&pos, &params);
        // The position keeps the evaluation's per-square sum as it moves.
        pos.track_square_sums(ev.square_table());
        let mut mobility = vec![Mobility::default(); MAX_PLY + 2];
        mobility[0] = ev.mobility(&pos);
        SearchThread {
            id,
            pos,
            ev,
            eval_cache: EvalCache::default(),
            shared,
            history,
            buffers: (0..MAX_PLY + 2).map(|_| PickerBuffers::default()).collect(),
            pv: (0..MAX_PLY + 2)
                .map(|_| Vec::with_capacity(MAX_PLY))
                .collect(),
            frames: vec![Frame::default(); MAX_PLY + 2],
            mobility,
            nodes: 0,
            own_node_limit: match id {
                0 => shared.request.node_limit().unwrap_or(u64::MAX),
                _ => u64::MAX,
            },
            seldepth: 0,
            stopped: false,
            root_moves: root_moves
                .iter()
                .map(|&mv| RootMove {
                    mv,
                    score: -INFINITE,
                    previous: -INFINITE,
                    pv: vec![mv],
                    seldepth: 0,
                    effort: 0,
                    fails_high: false,
                })
                .collect(),
            completed_depth: 0,
            completed_lines: Vec::new(),
            lmr,
            lmr_deep,
            params,
            last_best: None,
            stable_iterations: 0,
        }
    }

    /// Counts a node; every 1024 nodes publishes the count and checks the limits.
    /// Returns true when the search must stop.
    #[inline]
    pub(super) fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.own_node_limit && self.completed_depth > 0 {
            self.shared.control.stop();
        }
        if self.nodes & 1023 == 0 {
            self.shared.nodes[self.id].store(self.nodes, Relaxed);
            if self.id == 0 {
                self.check_limits();
            }
        }
        if self.shared.control.is_stopped() {
            self.stopped = true;
        }
        self.stopped
    }

    /// Main thread: stop on the hard time limit, on the node limit once an iteration has
    /// finished, and on the first-iteration cap of a search that has no clock.
    pub(super) fn check_limits(&self) {
        if self.over_node_limit() || self.first_iteration_overdue() {
            self.shared.control.stop();
        }
        self.shared.check_hard_limit();
    }

    /// A node limit waits for the first iteration to finish, so that a move comes with a
    /// score.
    fn over_node_limit(&self) -> bool {
        self.shared
            .request
            .node_limit()
            .is_some_and(|max| self.completed_depth > 0 && self.shared.total_nodes() >= max)
    }

    /// A search bounded by nodes or depth alone whose first iteration has run for
    /// [`FIRST_ITERATION_TIME_CAP`] ends even so: an answer within a bounded time, always
    /// (the best root move found so far, unscored).
    fn first_iteration_overdue(&self) -> bool {
        let limits = &self.shared.request.limits;
        let control = self.shared.control;
        self.completed_depth == 0
            && limits.movetime.is_none()
            && limits.clock.is_none()
            && !limits.infinite
            && !control.is_pondering()
            && control.elapsed() >= FIRST_ITERATION_TIME_CAP
    }

    /// What every node does first (negamax and quiescence alike): clear its PV, count it,
    /// note the depth reached, and see whether the game is already over here. `Some(score)`
    /// ends the node (a stop reads as a draw; the score is thrown away).
    #[inline]
    pub(super) fn enter_node(&mut self, ply: usize) -> Option<Score> {
        self.pv[ply].clear();
        if self.tick() {
            return Some(DRAW);
        }
        self.seldepth = self.seldepth.max(ply);
        self.pos
            .board_outcome()
            .map(|outcome| self.outcome_score(outcome, ply))
    }

    /// A draw from the side to move's point of view (contempt: see `Shared::root_draw`).
    #[inline]
    pub(super) fn draw_score(&self) -> Score {
        let (root_side, value) = self.shared.root_draw;
        if self.pos.side_to_move() == root_side {
            value
        } else {
            -value
        }
    }

    /// The score of a repetition met in the search, whose first occurrence is at history
    /// index `earliest`: a draw, or with `perpetual_loss` on, lost for the side that
    /// checked (or attacked) with every move since while the other did not.
    pub(super) fn repetition_score(&mut self, earliest: usize) -> Score {
        if self.params.perpetual_loss > 0 {
            match self.pos.relentless_side(earliest) {
                Some(chaser) if chaser == self.pos.side_to_move() => return -PERPETUAL_WIN,
                Some(_) => return PERPETUAL_WIN,
                None => {}
            }
        }
        self.draw_score()
    }

    /// The score of a finished game at `ply` from the side to move's point of view.
    pub(super) fn outcome_score(&self, outcome: Outcome, ply: usize) -> Score {
        match outcome.winner {
            None => self.draw_score(),
            Some(w) if w == self.pos.side_to_move() => mate_in(ply),
            Some(_) => mated_in(ply),
        }
    }

    /// Whether the side to move can take the opponent's last royal now (a won game).
    #[inline]
    pub(super) fn can_take_last_royal(&self) -> bool {
        let them = self.pos.side_to_move().flip();
        if self.pos.is_kingless(them) {
            return false;
        }
        let royals = self.pos.royals(them);
        royals.count() == 1
            && royals
                .first()
                .is_some_and(|sq: Square| self.pos.is_attacked(sq, them.flip()))
    }

    /// Whether the side to move's only royal is attacked (a check that must be answered).
    #[inline]
    pub(super) fn in_check(&self) -> bool {
        let us = self.pos.side_to_move();
        let royals = self.pos.royals(us);
        royals.count() == 1
            && royals
                .first()
                .is_some_and(|sq| self.pos.is_attacked(sq, us.flip()))
    }

    /// The static evaluation of the current position, at `ply` (side to move's view),
    /// cached.
    #[inline]
    pub(super) fn static_eval(&mut self, ply: usize) -> Score {
        debug_assert_eq!(
            self.mobility[ply],
            self.ev.mobility(&self.pos),
            "kept mobility"
        );
        self.eval_cache
            .evaluate(self.ev, &self.pos, self.mobility[ply])
    }

    /// Plays `mv` at `ply` (`eval`: the node's static evaluation, for its frame) and starts
    /// loading the child's hash-table bucket and cached evaluation, which it reads next.
    #[inline]
    pub(super) fn play(&mut self, ply: usize, mv: Move, eval: Score) {
        let probe = self.ev.mobility_probe(&self.pos, mv);
        let probed_before = self.ev.probed_mobility(&self.pos, &probe);
        self.pos.make_move(mv);
        let probed_after = self.ev.probed_mobility(&self.pos, &probe);
        self.mobility[ply + 1] =
            mobility_after_move(self.mobility[ply], probed_before, probed_after);
        let key = self.pos.key();
        self.shared.tt.prefetch(key);
        self.eval_cache.prefetch(key);
        self.frames[ply] = Frame {
            mv: Some(mv),
            kind: self.pos.piece_on(mv.to()).kind(),
            eval,
        };
    }

    /// A null move at `ply`: the board, and so the mobility, stays.
    #[inline]
    pub(super) fn keep_mobility(&mut self, ply: usize) {
        self.mobility[ply + 1] = self.mobility[ply];
    }

    /// Copies the child's PV behind `mv` into this ply's PV.
    #[inline]
    pub(super) fn update_pv(&mut self, ply: usize, mv: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&tail[0]);
    }
}

impl SearchThread<'_> {
    /// Nodes this thread searched.
    pub fn nodes_searched(&self) -> u64 {
        self.nodes
    }

    /// The line this thread stands by when it ends: its last finished iteration's, unless
    /// the stopped iteration after it already found a better first move (a completed search
    /// of that move beat the old best), which is then reported as a lower bound one ply
    /// deeper. `None` when no iteration finished: nothing is proven, not even a score.
    pub fn final_line(&self) -> Option<Line> {
        let done = self.completed_lines.first()?;
        let front = &self.root_moves[0];
        if self.stopped && front.mv != done.pv[0] && front.score > -INFINITE {
            return Some(Line {
                depth: done.depth + 1,
                seldepth: front.seldepth,
                score: front.score,
                bound: front.fails_high.then_some(super::Bound::Lower),
                partial: true,
                pv: front.pv.clone(),
            });
        }
        Some(done.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::GenMode;
    use crate::search::{Bound, Info};
    use crate::variant::Variant;

    /// Keeps every line it is told.
    #[derive(Default)]
    struct Recorder(std::sync::Mutex<Vec<Info>>);

    impl Observer for Recorder {
        fn info(&self, info: &Info) {
            self.0.lock().unwrap().push(info.clone());
        }
    }

    #[test]
    fn a_final_first_line_with_a_bound_stands_alone_and_an_exact_one_brings_its_block() {
        let mut pos = Position::startpos(Variant::chu());
        let mut moves = Vec::new();
        pos.legal_moves(GenMode::Search, &mut moves);
        let (tt, control, request) = (
            TranspositionTable::new(1),
            SearchControl::new(false),
            Request::default(),
        );
        let observer = Recorder::default();
        let shared = Shared {
            tt: &tt,
            control: &control,
            nodes: vec![AtomicU64::new(0)],
            request: &request,
            time: TimeLimits {
                soft: None,
                hard: None,
                adjustable: false,
            },
            multipv: 3,
            observer: &observer,
            reported: Default::default(),
            root_draw: (pos.side_to_move(), DRAW),
            searching: vec![AtomicI32::new(0)],
            deepest_shown: Default::default(),
            proven: Default::default(),
        };
        let line = |multipv: usize, mv: Move, bound: Option<Bound>| Info {
            depth: 11,
            seldepth: 16,
            multipv,
            score: 20,
            bound,
            nodes: 1000,
            time: std::time::Duration::from_millis(100),
            hashfull: 0,
            pv: vec![mv],
        };
        for (k, mv) in moves[..3].iter().enumerate() {
            shared.report(&line(k + 1, *mv, None));
        }
        let first_moves = |from: usize| -> Vec<(usize, Move)> {
            observer.0.lock().unwrap()[from..]
                .iter()
                .map(|i| (i.multipv, i.pv[0]))
                .collect()
        };
        // A new exact first line: the block, without its move among the others.
        shared.report_block(&line(1, moves[1], None));
        assert_eq!(
            first_moves(3),
            [(1, moves[1]), (2, moves[0]), (3, moves[2])],
            "the rows last reported after it, renumbered"
        );
        // A new first move that failed high: its line alone.
        shared.report_block(&line(1, moves[3], Some(Bound::Lower)));
        assert_eq!(first_moves(6), [(1, moves[3])]);
    }
}
