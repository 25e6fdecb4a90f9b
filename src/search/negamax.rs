//! The principal-variation search below the root: hash cut-offs, the won-game shortcut
//! (taking the last royal), reverse futility, razoring and null-move pruning, late-move
//! reductions and pruning, futility and SEE pruning, and the history/killer/countermove
//! updates of a cut-off. The constants are `params.rs`'s; those off by default (futility,
//! SEE pruning, razoring, the "improving" terms) are on in the variants whose
//! `search_values` (in their spec) turn them on.

use super::movepick::{is_capture, MovePicker};
use super::see::see;
use super::thread::{Frame, SearchThread};
use super::tt::Bound;
use super::MAX_PLY;
use crate::core::score::{is_mate, mate_in, mated_in, Score, DRAW, INFINITE, MATE_BOUND};
use crate::core::Move;
use crate::variant::Kind;

/// What a node knows when its moves are searched.
#[derive(Clone, Copy)]
struct NodeFacts {
    depth: i32,
    beta: Score,
    ply: usize,
    pv_node: bool,
    in_check: bool,
    improving: bool,
    /// The static evaluation.
    eval: Score,
}

/// What a node's move loop found.
struct MovesSearched {
    best: Score,
    best_move: Option<Move>,
    /// Moves searched (none: no legal move, or all were pruned before the first).
    searched: usize,
}

impl SearchThread<'_> {
    /// Negamax with alpha-beta at `ply >= 1`. `allow_null`: the previous move was not a null move.
    pub(super) fn negamax(
        &mut self,
        depth: i32,
        mut alpha: Score,
        mut beta: Score,
        ply: usize,
        allow_null: bool,
    ) -> Score {
        let pv_node = beta - alpha > 1;
        match self.node_start(ply, alpha, beta) {
            Ok((a, b)) => (alpha, beta) = (a, b),
            Err(score) => return score,
        }
        // Check extension (asked here only when it is on: the nodes at depth 0 would pay
        // for the test for nothing).
        let mut depth = depth;
        let asked_in_check = (self.params.check_extension > 0).then(|| self.in_check());
        if asked_in_check == Some(true) {
            depth += self.params.check_extension;
        }
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply);
        }

        let key = self.pos.key();
        let entry = self.shared.tt.probe(key, ply);
        let tt_move = entry.and_then(|e| e.mv);
        if let Some(e) = entry {
            if !pv_node && e.depth >= depth && e.cuts(alpha, beta) {
                return e.score;
            }
        }
        let iir = tt_move.is_none()
            && self.params.iir_min_depth > 0
            && depth >= self.params.iir_min_depth
            && self.completed_depth >= self.params.iir_from_iteration;
        if iir && self.params.iir_after_pruning == 0 {
            depth -= 1;
        }

        let in_check = asked_in_check.unwrap_or_else(|| self.in_check());
        let eval = self.static_eval(ply);
        self.frames[ply].eval = eval;
        // Improving: better than at our previous move (never while in check).
        let improving = !in_check && ply >= 2 && eval > self.frames[ply - 2].eval;

        if !pv_node && !in_check && !is_mate(beta) {
            if let Some(score) = self.prune_before_moves(depth, beta, ply, eval, allow_null) {
                return score;
            }
        }
        if iir && self.params.iir_after_pruning != 0 {
            depth -= 1;
        }

        let node = NodeFacts {
            depth,
            beta,
            ply,
            pv_node,
            in_check,
            improving,
            eval,
        };
        let original_alpha = alpha;
        let Some(MovesSearched {
            best,
            best_move,
            searched,
        }) = self.search_moves(&node, alpha, tt_move)
        else {
            return DRAW;
        };
        if searched == 0 {
            // The picker gave nothing (pruning starts only after several moves): no legal
            // move, which loses in chu and sho alike.
            return mated_in(ply);
        }
        let bound = Bound::of(best, original_alpha, beta);
        self.shared
            .tt
            .store(self.pos.key(), best_move, best, depth, bound, ply);
        best
    }

    /// A node's move loop: each move the picker gives, pruned, reduced or searched, until
    /// one cuts off; `None` when the search was stopped meanwhile.
    fn search_moves(
        &mut self,
        node: &NodeFacts,
        mut alpha: Score,
        tt_move: Option<Move>,
    ) -> Option<MovesSearched> {
        let NodeFacts {
            depth,
            beta,
            ply,
            pv_node,
            in_check,
            improving,
            ..
        } = *node;
        let counter = self.counter_move(ply);
        let buffers = std::mem::take(&mut self.buffers[ply]);
        let mut picker = MovePicker::new(buffers, tt_move, self.history.killers(ply), counter);
        if let Some(after) = self.previous_move(ply).map(|(mv, _)| mv.to()) {
            picker = picker.answering(after, self.params.follow_up_history);
        }
        let mut best = -INFINITE;
        let mut best_move = None;
        let mut searched = 0usize;
        let mut quiets_tried: Vec<(Move, u8)> = Vec::new();
        let late_move_count = self.late_move_count(depth, improving);
        let futile = self.is_futile(node, alpha);

        while let Some(mv) = picker.next(&mut self.pos, self.ev, self.history) {
            let capture = is_capture(&self.pos, mv);
            let quiet = !capture && !mv.is_promotion();
            // Pruning starts only once a move has kept the side from being mated.
            if best > -MATE_BOUND {
                let late = !pv_node && searched >= late_move_count;
                let losing_exchange_possible = !picker.last_is_not_losing_capture();
                let prune = MovePruning {
                    depth,
                    in_check,
                    quiet,
                    late,
                    futile,
                    losing_exchange_possible,
                };
                if self.move_is_pruned(mv, &prune) {
                    continue;
                }
            }
            let kind_before = self.pos.piece_on(mv.from()).kind();
            let score = self.search_move(node, mv, kind_before, quiet, alpha, searched);
            if self.stopped {
                self.buffers[ply] = picker.into_buffers();
                return None;
            }
            searched += 1;
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(mv);
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, mv);
                    }
                    if score >= beta {
                        if quiet {
                            self.reward_quiet(ply, mv, kind_before, depth, &quiets_tried);
                        }
                        break;
                    }
                }
            }
            if quiet {
                quiets_tried.push((mv, kind_before));
            }
        }
        self.buffers[ply] = picker.into_buffers();
        Some(MovesSearched {
            best,
            best_move,
            searched,
        })
    }

    /// The opponent's move that led to the node at `ply` and the kind that made it (after
    /// promotion); `None` at the root or after a null move.
    fn previous_move(&self, ply: usize) -> Option<(Move, crate::variant::Kind)> {
        match ply.checked_sub(1).map(|p| self.frames[p]) {
            Some(Frame {
                mv: Some(prev),
                kind,
                ..
            }) => Some((prev, kind)),
            _ => None,
        }
    }

    /// The move that answered the previous move best elsewhere (the counter-move
    /// heuristic), or `Move::NULL` at the root or after a null move.
    fn counter_move(&self, ply: usize) -> Move {
        let us = self.pos.side_to_move();
        self.previous_move(ply).map_or(Move::NULL, |(prev, kind)| {
            self.history.counter(us.flip(), kind, prev.to())
        })
    }

    /// After how many moves a non-PV node's quiet moves are late (late-move pruning):
    /// more at a greater depth, fewer when the position is not improving.
    fn late_move_count(&self, depth: i32, improving: bool) -> usize {
        let p = &self.params;
        let count = p.lmp_base + p.lmp_factor * depth * depth;
        (if improving {
            count
        } else {
            count * p.lmp_not_improving_pct / 100
        }) as usize
    }

    /// Futility: the static evaluation is so far below alpha that a quiet move will not
    /// lift it there.
    fn is_futile(&self, node: &NodeFacts, alpha: Score) -> bool {
        let p = &self.params;
        !node.in_check
            && node.depth <= p.futility_max_depth
            && node.eval + p.futility_base + p.futility_per_depth * node.depth <= alpha
    }

    /// The score of `mv` (a move of a `kind_before` piece), the node's move number
    /// `searched` (from 0): the first at full window, a later one with a null window and a
    /// reduction first (`search_late_move`).
    fn search_move(
        &mut self,
        node: &NodeFacts,
        mv: Move,
        kind_before: Kind,
        quiet: bool,
        alpha: Score,
        searched: usize,
    ) -> Score {
        let NodeFacts {
            depth,
            beta,
            ply,
            pv_node,
            in_check,
            improving,
            eval,
        } = *node;
        let us = self.pos.side_to_move();
        self.play(ply, mv, eval);
        let new_depth = depth - 1;
        let score = if searched == 0 {
            -self.negamax(new_depth, -beta, -alpha, ply + 1, true)
        } else {
            let reduction = if self.is_reducible(depth, searched, quiet, in_check) {
                let history = self.history.score(us, kind_before, mv.to());
                self.late_move_reduction(depth, searched, pv_node, improving, history)
            } else {
                0
            };
            self.search_late_move(new_depth, reduction, alpha, beta, ply)
        };
        self.pos.unmake_move();
        score
    }

    /// What a node settles before any search: the game's end by the rules (a repetition,
    /// the move limit, a taken royal), the ply limit, mate-distance pruning, and taking the
    /// last royal. `Err(score)` when that settles the node, else the window narrowed by the
    /// mate distances.
    fn node_start(
        &mut self,
        ply: usize,
        alpha: Score,
        beta: Score,
    ) -> Result<(Score, Score), Score> {
        // Bookkeeping, and the game may be over here.
        if let Some(score) = self.enter_node(ply) {
            return Err(score);
        }
        let (occurrences, earliest) = self.pos.repetitions();
        if occurrences >= 2 {
            return Err(self.repetition_score(earliest));
        }
        let limit = self.pos.variant().spec.rules.move_limit_plies;
        if limit > 0 && self.pos.quiet_plies() >= limit {
            return Err(self.draw_score());
        }
        if ply >= MAX_PLY - 2 {
            return Err(self.static_eval(ply));
        }
        // Mate distance pruning.
        let alpha = alpha.max(mated_in(ply));
        let beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return Err(alpha);
        }
        // Taking the last royal wins at once: found before anything else.
        if self.can_take_last_royal() {
            return Err(mate_in(ply + 1));
        }
        Ok((alpha, beta))
    }

    /// Reverse futility, razoring and null-move pruning, before any move is tried at a node
    /// that is neither a PV node nor in check: a score to return when the node is cut off.
    fn prune_before_moves(
        &mut self,
        depth: i32,
        beta: Score,
        ply: usize,
        eval: Score,
        allow_null: bool,
    ) -> Option<Score> {
        // Reverse futility: far above beta with little depth left.
        if depth <= self.params.reverse_futility_depth
            && eval - self.params.reverse_futility_margin * depth >= beta
        {
            return Some(eval);
        }
        if let Some(score) = self.razor(depth, beta, ply, eval) {
            return Some(score);
        }
        // Null move: if passing still beats beta, a real move will too.
        let us = self.pos.side_to_move();
        let v = self.pos.variant();
        let has_pieces = !(self.pos.occupied(us)
            & !self.pos.pieces_in(us, v.weak_mask | v.royal_mask))
        .is_empty();
        if !(allow_null && depth >= self.params.null_move_min_depth && eval >= beta && has_pieces) {
            return None;
        }
        let eval_bonus = match self.params.null_move_eval_divisor {
            0 => 0,
            divisor => ((eval - beta) / divisor).min(3),
        };
        let r = self.params.null_move_base_reduction
            + depth / self.params.null_move_depth_divisor
            + eval_bonus;
        self.pos.make_null();
        self.keep_mobility(ply);
        self.frames[ply + 1] = Frame {
            mv: None,
            ..Frame::default()
        };
        let score = -self.negamax(depth - 1 - r, -beta, -beta + 1, ply + 1, false);
        self.pos.unmake_null();
        if self.stopped {
            return Some(DRAW);
        }
        (score >= beta).then_some(if score > MATE_BOUND { beta } else { score })
    }

    /// Razoring: with little depth left and the static evaluation so far below beta that
    /// no quiet move is likely to lift it there, the captures alone (the quiescence
    /// search) decide; their score is returned when it stays below beta.
    fn razor(&mut self, depth: i32, beta: Score, ply: usize, eval: Score) -> Option<Score> {
        let p = &self.params;
        if depth > p.razor_max_depth
            || eval + p.razor_base + p.razor_per_depth2 * depth * depth >= beta
        {
            return None;
        }
        let score = self.qsearch(beta - 1, beta, ply);
        (score < beta).then_some(score)
    }

    /// Whether `mv` is skipped without being searched (asked once a move has kept the side
    /// from being mated): late-move pruning of quiet moves far down the list, futility of
    /// quiet moves, and SEE pruning of moves that lose material in their exchange.
    fn move_is_pruned(&self, mv: Move, p: &MovePruning) -> bool {
        // Late-move pruning: at low depth, quiet moves far down the list are skipped.
        if !p.in_check && p.quiet && p.late && p.depth <= self.params.lmp_max_depth {
            return true;
        }
        if p.quiet && p.futile {
            return true;
        }
        // SEE pruning: at low depth, a move that loses material in its exchange (the picker
        // already weighed its good captures: they lose nothing).
        if !p.in_check && p.depth <= self.params.see_prune_max_depth && p.losing_exchange_possible {
            let threshold = if p.quiet {
                -self.params.see_quiet_factor * p.depth * p.depth
            } else {
                -self.params.see_capture_factor * p.depth
            };
            return see(&self.pos, self.ev, mv) < threshold;
        }
        false
    }

    /// Whether a move `searched` moves into the list (from 0) may be reduced: a quiet move
    /// late enough, deep enough, not out of a threat to the royal.
    pub(super) fn is_reducible(
        &self,
        depth: i32,
        searched: usize,
        quiet: bool,
        in_check: bool,
    ) -> bool {
        depth >= self.params.lmr_min_depth
            && searched >= self.params.lmr_min_moves as usize
            && quiet
            && !in_check
    }

    /// The late-move reduction of a quiet move, `searched` moves into the list: the table's
    /// (the deep table's once `lmr_deep_from_iteration` iterations are done),
    /// one less at a PV node, more when not improving, less for a move with good history.
    pub(super) fn late_move_reduction(
        &self,
        depth: i32,
        searched: usize,
        pv_node: bool,
        improving: bool,
        history: i32,
    ) -> i32 {
        let deep = self.completed_depth >= self.params.lmr_deep_from_iteration;
        let table = if deep { &self.lmr_deep } else { &self.lmr };
        let mut r = table[(depth as usize).min(63)][searched.min(63)] - pv_node as i32;
        if !improving {
            r += self.params.lmr_not_improving;
        }
        if self.params.lmr_history_divisor > 0 {
            r -= history / self.params.lmr_history_divisor;
        }
        r.clamp(0, depth - 2)
    }

    /// A move after the first (the move made): a zero-window search, reduced by
    /// `reduction`, then again at full depth if it beat alpha reduced, then with the full
    /// window if it landed inside it (at a PV node with `pv_research_at_beta`: if it beat
    /// alpha).
    fn search_late_move(
        &mut self,
        new_depth: i32,
        reduction: i32,
        alpha: Score,
        beta: Score,
        ply: usize,
    ) -> Score {
        let mut s = -self.negamax(new_depth - reduction, -alpha - 1, -alpha, ply + 1, true);
        if s > alpha && reduction > 0 {
            s = -self.negamax(new_depth, -alpha - 1, -alpha, ply + 1, true);
        }
        let pv_node = beta - alpha > 1;
        if s > alpha && (s < beta || (pv_node && self.params.pv_research_at_beta != 0)) {
            s = -self.negamax(new_depth, -beta, -alpha, ply + 1, true);
        }
        s
    }

    /// A quiet move cut off: killer, countermove, history bonus (and a malus for the quiet
    /// moves tried before it).
    fn reward_quiet(
        &mut self,
        ply: usize,
        mv: Move,
        kind: crate::variant::Kind,
        depth: i32,
        tried: &[(Move, u8)],
    ) {
        let us = self.pos.side_to_move();
        let bonus =
            (depth * depth * self.params.history_bonus_factor).min(self.params.history_bonus_max);
        self.history.add_killer(ply, mv);
        self.history.update(us, kind, mv.to(), bonus);
        for &(other, k) in tried {
            self.history.update(us, k, other.to(), -bonus);
        }
        if let Some((prev, prev_kind)) = self.previous_move(ply) {
            self.history
                .set_counter(us.flip(), prev_kind, prev.to(), mv);
            if self.params.follow_up_history > 0 {
                let after = prev.to();
                self.history
                    .update_follow_up(us, after, kind, mv.to(), bonus);
                for &(other, k) in tried {
                    self.history
                        .update_follow_up(us, after, k, other.to(), -bonus);
                }
            }
        }
    }
}

/// What [`SearchThread::move_is_pruned`] needs of the node and the move.
struct MovePruning {
    depth: i32,
    in_check: bool,
    quiet: bool,
    /// Far enough down the list for late-move pruning (never at a PV node).
    late: bool,
    /// The static evaluation so far below alpha that no quiet move lifts it there.
    futile: bool,
    /// The move may lose material in its exchange (not a capture the picker saw winning).
    losing_exchange_possible: bool,
}
