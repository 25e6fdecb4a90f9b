//! Quiescence search: captures only (winning and even ones by SEE, lion double captures and
//! capture-promotions included) until the position is quiet, with stand-pat. Taking the
//! last royal is found first; when the side to move's only royal is attacked there is no
//! stand-pat (it could be taken next move) and every move is tried, a few plies deep.

use super::movepick::MovePicker;
use super::see::captured_value;
use super::thread::SearchThread;
use super::tt::Bound;
use super::MAX_PLY;
use crate::core::score::{mate_in, mated_in, Score, DRAW, INFINITE};
use crate::core::Move;
use std::cell::Cell;

impl SearchThread<'_> {
    /// Quiescence search at `ply`.
    pub(super) fn qsearch(&mut self, alpha: Score, beta: Score, ply: usize) -> Score {
        self.qsearch_inner(alpha, beta, ply, 0)
    }

    fn qsearch_inner(&mut self, mut alpha: Score, beta: Score, ply: usize, qply: usize) -> Score {
        // Bookkeeping, and the game may be over here.
        if let Some(score) = self.enter_node(ply) {
            return score;
        }
        if self.can_take_last_royal() {
            return mate_in(ply + 1);
        }
        if ply >= MAX_PLY - 2 {
            return self.static_eval(ply);
        }
        let entry = self.shared.tt.probe(self.pos.key(), ply);
        if let Some(e) = entry {
            if e.cuts(alpha, beta) && beta - alpha == 1 {
                return e.score;
            }
        }
        let threatened = qply < self.params.qs_check_plies as usize && self.in_check();
        let stand_pat = self.static_eval(ply);
        let mut best = -INFINITE;
        if !threatened {
            if stand_pat >= beta {
                return stand_pat;
            }
            best = stand_pat;
            alpha = alpha.max(stand_pat);
        }
        let buffers = std::mem::take(&mut self.buffers[ply]);
        let tt_move = entry.and_then(|e| e.mv);
        let mut picker = if threatened {
            MovePicker::new(buffers, tt_move, [Move::NULL; 2], Move::NULL)
        } else {
            MovePicker::captures(buffers, tt_move)
        };
        let original_alpha = alpha;
        let mut best_move = None;
        let mut any = false;
        let last_to = ply
            .checked_sub(1)
            .and_then(|p| self.frames[p].mv)
            .map(|m| m.to());
        let (ev, params) = (self.ev, self.params);
        // The most that a capture left out by delta pruning could have lifted the score to
        // (kept only while `qs_delta_bound` uses it).
        let delta_ceiling = Cell::new(-INFINITE);
        while let Some(mv) = picker.next_kept(&mut self.pos, ev, self.history, |pos, mv| {
            // Quiet positions are reached by captures only: from some depth on only
            // recaptures, and never a capture that cannot lift the score to alpha.
            if threatened {
                return true;
            }
            if qply >= params.qs_recapture_only_plies as usize && Some(mv.to()) != last_to {
                return false;
            }
            if mv.is_promotion() {
                return true;
            }
            let optimistic = stand_pat + captured_value(pos, ev, mv) + params.qs_delta_margin;
            if params.qs_delta_bound != 0 && optimistic < alpha {
                delta_ceiling.set(delta_ceiling.get().max(optimistic));
            }
            optimistic >= alpha
        }) {
            any = true;
            self.play(ply, mv, stand_pat);
            let score = -self.qsearch_inner(-beta, -alpha, ply + 1, qply + 1);
            self.pos.unmake_move();
            if self.stopped {
                self.buffers[ply] = picker.into_buffers();
                return DRAW;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(mv);
                    self.update_pv(ply, mv);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.buffers[ply] = picker.into_buffers();
        if threatened && !any {
            return mated_in(ply);
        }
        if params.qs_delta_bound != 0 {
            // What was left out was below alpha when it was left out, so this keeps a fail
            // low a fail low, at a bound that is true.
            best = best.max(delta_ceiling.get());
        }
        let bound = Bound::of(best, original_alpha, beta);
        debug_assert!(best > -INFINITE || threatened);
        self.shared
            .tt
            .store(self.pos.key(), best_move, best, 0, bound, ply);
        best
    }
}
