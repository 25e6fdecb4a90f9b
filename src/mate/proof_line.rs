//! Proofs read out of the solver's table and made shorter: the line a proof stands on
//! (the attacker's fastest proving moves against the defender's longest resistance), and
//! the second pass that solves again below a found proof's length until no shorter one is
//! found.

use super::*;

/// The second pass's node budget: this many times the nodes of the first proof ...
const SHORTENING_FACTOR: u64 = 4;

/// ... and at least this many.
const SHORTENING_MIN_NODES: u64 = 200_000;

/// How many overwritten proofs [`Solver::proof_line`] proves again before giving up.
const MAX_PROOFS_REDONE: u32 = 16;

impl Solver {
    /// After a first proof from `pos`: its line, made shorter while shorter proofs are found
    /// and the second pass's own budget lasts (the proof in hand stands): a few times the
    /// nodes of the first proof, so that a found mate is answered, also under `go mate
    /// infinite`. Empty if the line cannot be read out of the table.
    pub(super) fn shortest_proof(
        &mut self,
        pos: &mut Position,
        control: &SearchControl,
        tick: &mut dyn FnMut(&Solver),
    ) -> Vec<Move> {
        let mut best = self.proof_line(pos, control);
        let extra = (self.nodes * SHORTENING_FACTOR).max(SHORTENING_MIN_NODES);
        let end = self.nodes.saturating_add(extra);
        self.limits.nodes = Some(self.limits.nodes.map_or(end, |n| n.min(end)));
        while self.limits.shorten && best.len() > 2 && !self.out_of_budget {
            self.limits.max_plies = best.len() - 2;
            self.table.clear();
            let shorter = self.solve_root(pos, control, tick);
            if shorter.numbers.pn != 0 {
                break;
            }
            let line = self.proof_line(pos, control);
            if line.is_empty() || line.len() >= best.len() {
                break;
            }
            best = line;
        }
        best
    }

    /// The proven line from `pos` (proven at the last solve): the attacker's proving moves
    /// and the defender's longest resistance, read from the table. Empty if a link is
    /// missing (overwritten) and cannot be proven again within the budget.
    pub(super) fn proof_line(&mut self, pos: &mut Position, control: &SearchControl) -> Vec<Move> {
        let mut line = Vec::new();
        let mut made = 0;
        let mut proofs_redone = 0;
        while self.decided(pos).is_none() && line.len() < MAX_PLIES {
            let or_node = self.is_attacker(pos);
            let moves = self.moves_at(pos, 0);
            if moves.is_empty() && !or_node {
                // Sho's checkmate: the defender has no legal move.
                break;
            }
            let mut pick: Option<(Move, u16)> = None;
            for &mv in &moves {
                pos.make_move(mv);
                // A checkmate at the ply limit of a shortening pass is proven in the tree
                // but not stored in the table (`look_after`): it is told here again.
                let known = self
                    .quick_look(pos)
                    .or_else(|| self.table.get(pos.key()).map(|e| (e.numbers, e.length)))
                    .or_else(|| {
                        self.defender_checkmated(pos)
                            .then_some((Numbers::PROVEN, 0))
                    });
                pos.unmake_move();
                let Some((numbers, length)) = known else {
                    continue;
                };
                if numbers.pn != 0 {
                    continue;
                }
                let better = match pick {
                    None => true,
                    Some((_, l)) if or_node => length < l,
                    Some((_, l)) => length > l,
                };
                if better {
                    pick = Some((mv, length));
                }
            }
            self.moves[0] = moves;
            let Some((mv, _)) = pick else {
                // A link whose proof was overwritten: prove it again from here.
                let mut ignore = |_: &Solver| {};
                proofs_redone += 1;
                if proofs_redone <= MAX_PROOFS_REDONE && !self.out_of_budget(control, &mut ignore) {
                    let saved = self.limits.max_plies;
                    self.limits.max_plies = saved.saturating_sub(line.len());
                    self.line.clear();
                    let r = self.expand(
                        pos,
                        Numbers {
                            pn: INFINITE,
                            dn: INFINITE,
                        },
                        0,
                        control,
                        &mut ignore,
                    );
                    self.limits.max_plies = saved;
                    if r.numbers.pn == 0 {
                        continue;
                    }
                }
                line.clear();
                break;
            };
            line.push(mv);
            pos.make_move(mv);
            made += 1;
        }
        for _ in 0..made {
            pos.unmake_move();
        }
        line
    }
}
