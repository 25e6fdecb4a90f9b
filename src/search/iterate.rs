//! Iterative deepening at the root: aspiration windows around the last score, MultiPV
//! lines, and the main thread's reports and soft time limit.

use super::thread::{Line, SearchThread};
use super::time::{soft_scale, Settledness};
use super::{Bound, Info, MAX_PLY};
use crate::core::score::{is_mate, mate_plies, Score, INFINITE};
use std::sync::atomic::Ordering::Relaxed;

impl SearchThread<'_> {
    /// Searches deeper and deeper until a limit or a stop.
    pub fn iterative_deepening(&mut self) {
        let limits = &self.shared.request.limits;
        let max_depth = match limits.depth {
            Some(d) => d.clamp(1, MAX_PLY as i32 - 8),
            None => MAX_PLY as i32 - 8,
        };
        self.history.clear_killers();
        let spread = self.params.smp_depth_skip != 0;
        // Helpers start one ply deeper every other thread, so threads spread over depths
        // (never past the last depth: a helper that searched nothing would end the search);
        // with `smp_depth_skip`, at every iteration (`Shared::first_depth_to_search`).
        let mut depth = (1 + (self.id % 2) as i32).min(max_depth);
        while depth <= max_depth {
            if spread && self.id != 0 {
                depth = self.shared.first_depth_to_search(depth, self.id, max_depth);
            }
            self.shared.searching[self.id].store(depth, Relaxed);
            let lines = self.shared.multipv.min(self.root_moves.len()).max(1);
            for pv_index in 0..lines {
                self.seldepth = 0;
                self.search_line(depth, pv_index);
                if self.stopped {
                    break;
                }
                // Lines already found stay on top; this one is placed by its score.
                self.root_moves[pv_index..].sort_by_key(|r| -r.score);
                // One line: reported as it is found. MultiPV: the whole block when the
                // iteration's last line is found (as Stockfish prints it), so that a client
                // that gathers the lines of an evaluation (lishogi's ceval) never gets a
                // row twice or a row of another iteration.
                if pv_index + 1 == lines {
                    self.show_iteration(depth, lines);
                }
            }
            if self.stopped {
                break;
            }
            self.completed_depth = depth;
            let lines = self.shared.multipv.min(self.root_moves.len()).max(1);
            self.completed_lines = self.root_moves[..lines]
                .iter()
                .map(|r| Line {
                    depth,
                    seldepth: r.seldepth,
                    score: r.score,
                    bound: None,
                    partial: false,
                    pv: r.pv.clone(),
                })
                .collect();
            for r in &mut self.root_moves {
                r.previous = r.score;
            }
            if self.id == 0 && self.iteration_says_stop(depth) {
                break;
            }
            depth += 1;
        }
        // A helper that finished the last depth first ends a depth-limited search: its
        // result is as good as the main thread's would be (Lazy SMP time-to-depth).
        let control = self.shared.control;
        if !self.stopped && self.id != 0 && !limits.infinite && !control.is_pondering() {
            control.stop();
        }
    }

    /// Shows a finished iteration's lines: the main thread's; with `smp_depth_skip` any
    /// thread's that is deeper than every iteration shown before.
    fn show_iteration(&self, depth: i32, lines: usize) {
        // With threads spread over depths, the lock is held while the lines are shown, so
        // that a shallower iteration never follows a deeper one.
        let _in_order = if self.params.smp_depth_skip == 0 {
            if self.id != 0 {
                return;
            }
            None
        } else {
            let mut deepest = (self.shared.deepest_shown.lock()).unwrap_or_else(|e| e.into_inner());
            if depth <= *deepest {
                return;
            }
            *deepest = depth;
            Some(deepest)
        };
        for row in 0..lines {
            self.report(depth, row, None);
        }
    }

    /// After an iteration: stop for the soft time limit, or (in a search with limits) a
    /// mate either way that deeper iterations only confirm.
    fn iteration_says_stop(&mut self, depth: i32) -> bool {
        let settled = self.note_best_move();
        let control = self.shared.control;
        let best = self.root_moves[0].score;
        if control.is_pondering() {
            return false;
        }
        if !self.shared.request.limits.infinite
            && mate_plies(best).is_some_and(|p| depth >= p.abs() + self.params.proven_mate_margin)
        {
            return true;
        }
        let time = &self.shared.time;
        match time.soft {
            Some(soft) if time.adjustable && self.params.time_adjust > 0 => {
                control.clock_elapsed() >= soft.mul_f64(soft_scale(settled))
            }
            Some(soft) => control.clock_elapsed() >= soft,
            None => false,
        }
    }

    /// After a finished iteration: how settled its best move is (`time::soft_scale`):
    /// for how many iterations in a row it has been best, its share of the nodes, and how
    /// far the best score fell since the last iteration.
    fn note_best_move(&mut self) -> Settledness {
        let best = &self.root_moves[0];
        let (stable_iterations, score_drop) = match self.last_best {
            Some((mv, score)) => {
                let stable = if mv == best.mv {
                    self.stable_iterations + 1
                } else {
                    0
                };
                // A mate score's distance is no fall or rise of the position's value.
                let drop = if is_mate(score) || is_mate(best.score) {
                    0
                } else {
                    score - best.score
                };
                (stable, drop)
            }
            None => (0, 0),
        };
        let all: u64 = self.root_moves.iter().map(|r| r.effort).sum();
        let settled = Settledness {
            stable_iterations,
            best_move_effort: best.effort as f64 / all.max(1) as f64,
            score_drop,
        };
        self.stable_iterations = stable_iterations;
        self.last_best = Some((best.mv, best.score));
        settled
    }

    /// One MultiPV line at `depth`, with an aspiration window from the last iteration.
    fn search_line(&mut self, depth: i32, pv_index: usize) {
        let previous = self.root_moves[pv_index].previous;
        let mut window: Score = self.params.aspiration_window;
        let (mut alpha, mut beta) = if depth >= self.params.aspiration_min_depth
            && !is_mate(previous)
            && previous > -INFINITE
        {
            (previous - window, previous + window)
        } else {
            (-INFINITE, INFINITE)
        };
        loop {
            let score = self.root_search(depth, alpha, beta, pv_index);
            if self.stopped {
                return;
            }
            if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - window).max(-INFINITE);
                self.report_bound(depth, pv_index, Bound::Upper);
            } else if score >= beta {
                beta = (score + window).min(INFINITE);
                self.report_bound(depth, pv_index, Bound::Lower);
            } else {
                return;
            }
            window += window / 2;
            if window > self.params.aspiration_max {
                alpha = -INFINITE;
                beta = INFINITE;
            }
        }
    }

    /// Searches the root moves from `pv_index` on. The best one found is moved to
    /// `pv_index` at once, so an interrupted iteration still leaves the best move in front.
    /// Below full strength each move's score carries the level's root bias (`skill.rs`):
    /// its window is shifted by the bias, so that the bounds stay exact.
    fn root_search(&mut self, depth: i32, mut alpha: Score, beta: Score, pv_index: usize) -> Score {
        let mut best = -INFINITE;
        let (skill, root_key) = (self.shared.request.options.skill, self.pos.key());
        // The root's evaluation, against which its grandchildren tell whether they improve.
        let root_eval = self.static_eval(0);
        for i in pv_index..self.root_moves.len() {
            let mv = self.root_moves[i].mv;
            let nodes_before = self.nodes;
            let bias = skill.map_or(0, |s| s.bias(root_key, mv));
            let (alpha_seen, beta_seen) = ((alpha - bias).max(-INFINITE), beta - bias);
            let reduction = self.root_reduction(depth, i - pv_index, mv);
            self.play(0, mv, root_eval);
            let (a, b) = (alpha_seen, beta_seen);
            let searched = if i == pv_index {
                -self.negamax(depth - 1, -b, -a, 1, true)
            } else {
                let mut s = -self.negamax(depth - 1 - reduction, -a - 1, -a, 1, true);
                if s > a && reduction > 0 {
                    s = -self.negamax(depth - 1, -a - 1, -a, 1, true);
                }
                if s > a && s < b {
                    -self.negamax(depth - 1, -b, -a, 1, true)
                } else {
                    s
                }
            };
            let score = skill.map_or(searched, |s| s.biased(searched, bias));
            self.pos.unmake_move();
            self.root_moves[i].effort += self.nodes - nodes_before;
            if self.stopped {
                return best;
            }
            let root = &mut self.root_moves[i];
            if i == pv_index || score > alpha {
                root.score = score;
                root.fails_high = score >= beta;
                root.seldepth = self.seldepth;
                root.pv.clear();
                root.pv.push(mv);
                root.pv.extend_from_slice(&self.pv[1]);
                if score > best {
                    best = score;
                }
                if score > alpha {
                    alpha = score;
                    self.root_moves[pv_index..=i].rotate_right(1);
                }
                if score >= beta {
                    return score;
                }
            } else {
                root.score = -INFINITE;
            }
        }
        best
    }

    /// The late-move reduction of the root move `mv`, `searched` moves after the line's
    /// first (search constant `lmr_root`; 0 when it is off): that of a PV node below the
    /// root (`late_move_reduction`), the root counted as improving.
    fn root_reduction(&self, depth: i32, searched: usize, mv: crate::core::Move) -> i32 {
        let quiet = !mv.is_promotion() && !super::movepick::is_capture(&self.pos, mv);
        if self.params.lmr_root == 0 || !self.is_reducible(depth, searched, quiet, self.in_check())
        {
            return 0;
        }
        let (us, kind) = (self.pos.side_to_move(), self.pos.piece_on(mv.from()).kind());
        let history = self.history.score(us, kind, mv.to());
        self.late_move_reduction(depth, searched, true, true, history)
    }

    fn info(&self, depth: i32, pv_index: usize, bound: Option<Bound>) -> Info {
        let control = self.shared.control;
        let root = &self.root_moves[pv_index];
        Info {
            depth,
            seldepth: root.seldepth.max(self.seldepth),
            multipv: pv_index + 1,
            score: root.score,
            bound,
            nodes: self.shared.total_nodes() + self.nodes
                - self.shared.nodes[self.id].load(Relaxed),
            time: control.elapsed(),
            hashfull: self.shared.tt.hashfull(),
            pv: root.pv.clone(),
        }
    }

    fn report(&self, depth: i32, pv_index: usize, bound: Option<Bound>) {
        self.shared.report(&self.info(depth, pv_index, bound));
    }

    /// Aspiration failures are reported only in a search that a person watches and ends
    /// (`go infinite`, pondering), for the first line, once it has run a while (GUIs
    /// otherwise flood with them). A search that ends by itself (depth, nodes, time) prints
    /// only exact lines, so that its deepest line is its answer (shoginet keeps the deepest
    /// line and does not read the bound), and MultiPV lines never get a row that a client
    /// gathering a block would count twice.
    fn report_bound(&self, depth: i32, pv_index: usize, bound: Bound) {
        let shared = &self.shared;
        let watched = shared.request.limits.infinite || shared.control.is_pondering();
        let deeper_than_shown = || {
            self.params.smp_depth_skip == 0
                || depth > *(shared.deepest_shown.lock()).unwrap_or_else(|e| e.into_inner())
        };
        if self.id == 0
            && watched
            && shared.multipv == 1
            && shared.control.elapsed().as_millis() > 1000
            && deeper_than_shown()
        {
            self.report(depth, pv_index, Some(bound));
        }
    }
}
