//! The df-pn search itself: the solver's state, its nodes' children and the expansion
//! under thresholds (reading a proof out of the table and shortening it: `proof_line.rs`).

use super::*;

/// The solver: its table and counters. Keep one and reuse it (the table is the memory).
pub struct Solver {
    pub(super) table: Table,
    pub(super) nodes: u64,
    pub(super) attacker: Color,
    pub(super) limits: MateLimits,
    pub(super) deadline: Option<Instant>,
    pub(super) start: Instant,
    pub(super) out_of_budget: bool,
    /// The node count at which the budget is looked at next.
    pub(super) next_check: u64,
    /// When the progress callback is called next.
    pub(super) next_report: Instant,
    /// Keys of the positions on the current line (repetition check).
    pub(super) line: Vec<u64>,
    /// Per ply, the moves of the node being expanded there (kept to save allocations).
    pub(super) moves: Vec<Vec<Move>>,
    /// Per ply, the children of the node being expanded there (kept likewise).
    pub(super) child_lists: Vec<Vec<Child>>,
    /// The children of one node whose numbers the table is asked for (see
    /// [`Solver::children_at`]).
    pub(super) to_look_up: Vec<(usize, u64)>,
}

/// How often (in nodes) the solver looks at the clock, the stop switch and its callback: at
/// 100,000-150,000 nodes a second, every half millisecond or so, because the game search
/// gives it budgets of a few milliseconds (1,024 nodes overran a 2 ms budget fourfold).
pub(super) const CHECK_EVERY: u64 = 64;

/// How often the progress callback is called.
pub(super) const PROGRESS_EVERY: Duration = Duration::from_secs(1);

impl Solver {
    /// A solver with a table of about `table_mb` megabytes.
    pub fn new(table_mb: usize) -> Solver {
        Solver::with_bytes(table_mb << 20)
    }

    /// A solver with a table of at most `bytes` (made at once: see [`Table::with_bytes`]).
    pub fn with_bytes(bytes: usize) -> Solver {
        Solver {
            table: Table::with_bytes(bytes),
            nodes: 0,
            attacker: Color::Sente,
            limits: MateLimits::default(),
            deadline: None,
            start: Instant::now(),
            out_of_budget: false,
            next_check: 0,
            next_report: Instant::now(),
            line: Vec::new(),
            moves: vec![Vec::new(); MAX_PLIES + 2],
            child_lists: vec![Vec::new(); MAX_PLIES + 2],
            to_look_up: Vec::new(),
        }
    }

    /// Looks for a forced win of the side to move in `pos`. `control` stops it from outside;
    /// `progress` hears from it about once a second.
    pub fn solve(
        &mut self,
        pos: &Position,
        limits: MateLimits,
        control: &SearchControl,
        progress: &mut dyn FnMut(&Progress),
    ) -> Solution {
        self.start = Instant::now();
        self.deadline = limits.time.map(|t| self.start + t);
        self.nodes = 0;
        self.next_check = 0;
        self.next_report = self.start + PROGRESS_EVERY;
        self.out_of_budget = false;
        self.attacker = pos.side_to_move();
        let max_plies = limits.max_plies.min(MAX_PLIES);
        self.limits = MateLimits {
            max_plies,
            ..limits
        };
        self.table.clear();
        let mut pos = pos.clone();
        let tick = &mut |solver: &Solver| progress(&solver.progress());
        let first = self.solve_root(&mut pos, control, tick);
        let verdict = match first.numbers {
            n if n.pn == 0 => Verdict::Mate(self.shortest_proof(&mut pos, control, tick)),
            n if n.dn == 0 && !first.line_only => Verdict::NoMate,
            // A disproof that rests on the ply limit says nothing about longer lines.
            n if n.dn == 0 && max_plies >= MAX_PLIES => Verdict::NoMate,
            _ => Verdict::Unknown,
        };
        let verdict = match verdict {
            Verdict::Mate(line) if line.is_empty() => Verdict::Unknown,
            v => v,
        };
        Solution {
            verdict,
            progress: self.progress(),
        }
    }

    pub(super) fn progress(&self) -> Progress {
        Progress {
            nodes: self.nodes,
            time: self.start.elapsed(),
            hashfull: self.table.hashfull(),
        }
    }

    /// The size of this solver's table in bytes.
    pub fn table_bytes(&self) -> usize {
        self.table.size_bytes()
    }

    pub(super) fn solve_root(
        &mut self,
        pos: &mut Position,
        control: &SearchControl,
        tick: &mut dyn FnMut(&Solver),
    ) -> NodeResult {
        self.line.clear();
        let thresholds = Numbers {
            pn: INFINITE,
            dn: INFINITE,
        };
        let mut result = self.expand(pos, thresholds, 0, control, tick);
        // The root is searched until decided or out of budget.
        while !self.out_of_budget && result.numbers.pn != 0 && result.numbers.dn != 0 {
            result = self.expand(pos, thresholds, 0, control, tick);
        }
        result
    }

    pub(super) fn is_attacker(&self, pos: &Position) -> bool {
        pos.side_to_move() == self.attacker
    }

    /// Whether `pos` is sho's checkmate of the defender: the defender to move without a
    /// legal move (the board alone does not decide it; see [`Solver::decided`]).
    pub(super) fn defender_checkmated(&self, pos: &mut Position) -> bool {
        !self.is_attacker(pos) && !pos.has_legal_move()
    }

    /// Numbers of a position the game has decided, seen by the attacker.
    pub(super) fn decided(&self, pos: &Position) -> Option<Numbers> {
        pos.board_outcome().map(|o| {
            if o.winner == Some(self.attacker) {
                Numbers::PROVEN
            } else {
                Numbers::DISPROVEN
            }
        })
    }

    /// What is known of a position without expanding it, with the plies to the end: decided
    /// by the game, or decided next move because the side that just moved left its only
    /// royal where the side to move takes it (chu allows such moves: the defender's moves
    /// that ignore a check, the attacker's checks that leave its own king hanging). Without
    /// this, each of the many moves that ignore a check would count as an open leaf.
    pub(super) fn quick_look(&self, pos: &Position) -> Option<(Numbers, u16)> {
        let decided = self.decided(pos);
        self.quick_look_decided(pos, decided, decided.is_none() && mover_royal_hangs(pos))
    }

    /// [`Solver::quick_look`] with the board's verdict already known (`decided`) and, when it
    /// is none, whether the side that just moved left its only royal attacked
    /// (`royal_hangs`).
    pub(super) fn quick_look_decided(
        &self,
        pos: &Position,
        decided: Option<Numbers>,
        royal_hangs: bool,
    ) -> Option<(Numbers, u16)> {
        if let Some(numbers) = decided {
            return Some((numbers, 0));
        }
        let mover = pos.side_to_move().flip();
        royal_hangs.then(|| {
            if mover == self.attacker {
                (Numbers::DISPROVEN, 0)
            } else {
                (Numbers::PROVEN, 1)
            }
        })
    }

    /// Whether to give up (stopped, out of time or nodes); every [`CHECK_EVERY`] nodes it
    /// also calls the progress callback when a report is due.
    pub(super) fn out_of_budget(
        &mut self,
        control: &SearchControl,
        tick: &mut dyn FnMut(&Solver),
    ) -> bool {
        if !self.out_of_budget && self.nodes >= self.next_check {
            self.next_check = self.nodes + CHECK_EVERY;
            let now = Instant::now();
            self.out_of_budget = control.is_stopped()
                || self.deadline.is_some_and(|d| now >= d)
                || self.limits.nodes.is_some_and(|n| self.nodes >= n);
            if now >= self.next_report {
                self.next_report = now + PROGRESS_EVERY;
                tick(self);
            }
        }
        self.out_of_budget
    }

    /// The moves tried at `pos`: every legal move for the defender, the checks (or every
    /// move) for the attacker.
    pub(super) fn moves_at(&mut self, pos: &mut Position, ply: usize) -> Vec<Move> {
        let mut moves = std::mem::take(&mut self.moves[ply]);
        moves.clear();
        pos.legal_moves(GenMode::Search, &mut moves);
        if self.checks_only(pos) {
            let quiet = QuietTest::at(pos, no_end_by_quiet_move(pos));
            moves.retain(|&mv| {
                if quiet.surely_not_tried(pos, mv) {
                    return false;
                }
                pos.make_move(mv);
                let keep = self.is_tried(pos, self.decided(pos));
                pos.unmake_move();
                keep
            });
        }
        moves
    }

    /// Whether only some of the moves at `pos` are tried (the attacker's checks).
    pub(super) fn checks_only(&self, pos: &Position) -> bool {
        self.is_attacker(pos) && self.limits.attacker_moves == AttackerMoves::Checks
    }

    /// After an attacker's move, with checks only: whether the move is one to try (it ends
    /// the game, `decided` being the board's verdict on `after`, or it attacks an enemy
    /// royal).
    pub(super) fn is_tried(&self, after: &Position, decided: Option<Numbers>) -> bool {
        decided.is_some() || after.royal_attacked(self.attacker.flip())
    }

    /// The children of `pos` with what is known of each before expanding it: one make and
    /// unmake per legal move, the attacker's moves that are not tried left out on the way.
    /// The list is `child_lists[ply]`'s, to be given back there when the node is done.
    pub(super) fn children_at(&mut self, pos: &mut Position, ply: usize) -> Vec<Child> {
        let mut moves = std::mem::take(&mut self.moves[ply]);
        let checks_only = self.checks_only(pos);
        let quiet_cannot_end = no_end_by_quiet_move(pos);
        let quiet = checks_only.then(|| QuietTest::at(pos, quiet_cannot_end));
        let own_royal = MoverRoyal::at(pos, quiet_cannot_end);
        let or_node = self.is_attacker(pos);
        let evasions_only = !or_node && own_royal.hanging_moves_known();
        generate_moves(
            pos,
            quiet.as_ref(),
            quiet_cannot_end,
            evasions_only,
            &own_royal,
            &mut moves,
        );
        let mut children = std::mem::take(&mut self.child_lists[ply]);
        children.clear();
        // Children whose numbers the table may know: (index in `children`, key).
        let mut to_look_up = std::mem::take(&mut self.to_look_up);
        to_look_up.clear();
        let mut hanging_child_kept = false;
        for &mv in &moves {
            if ply == 0
                && !self.limits.root_moves.is_empty()
                && !self.limits.root_moves.contains(&mv)
            {
                continue;
            }
            // A plain step of the royal itself is told before it is made too.
            let royal_step_hangs = own_royal.royal_step_hangs(pos, mv);
            if own_royal.surely_hanging(pos, mv) || royal_step_hangs == Some(true) {
                // The mover's only royal is taken next. An attacker's move is then disproven
                // (the quick look after making it would find so), which changes nothing at
                // its node: a disproven child neither lowers the node's proof number nor
                // adds to its disproof number, and a node left without children is disproven
                // all the same. A defender's move is proven in one ply, which adds nothing to
                // the node's proof number nor lowers its disproof number: one such child
                // stands for all of them (its length of one counts toward the node's), so
                // that the many moves that ignore a check do not lengthen every pass over
                // the children. The tree is the same, node for node.
                if !or_node && !hanging_child_kept {
                    children.push(self.decided_child(mv, ply, Numbers::PROVEN, 1));
                    hanging_child_kept = true;
                }
                continue;
            }
            if quiet.as_ref().is_some_and(|q| q.surely_not_tried(pos, mv)) {
                continue;
            }
            // A plain move cannot end the game here: the board's verdict is not asked.
            let cannot_end = quiet_cannot_end && is_plain(pos, mv);
            pos.make_move(mv);
            let decided = if cannot_end { None } else { self.decided(pos) };
            let tried = match &quiet {
                // An attacker's move is tried if it ends the game or attacks a royal.
                Some(quiet) => decided.is_some() || quiet.attacks_royal_after(pos, mv),
                None => true,
            };
            if tried {
                let royal_hangs = decided.is_none()
                    && royal_step_hangs.unwrap_or_else(|| own_royal.attacked_after(pos, mv));
                let (child, table_key) = self.look_after(pos, mv, ply, decided, royal_hangs);
                if let Some(key) = table_key {
                    to_look_up.push((children.len(), key));
                }
                children.push(child);
            }
            pos.unmake_move();
        }
        if evasions_only && !hanging_child_kept {
            // The one child that stands for the hanging moves, which were not generated.
            if let Some(mv) = own_royal.first_hanging_move(pos) {
                children.push(self.decided_child(mv, ply, Numbers::PROVEN, 1));
            }
        }
        self.moves[ply] = moves;
        // The table is asked for every child at once, after the moves: these reads do not
        // depend on each other, so the processor overlaps their cache misses (asked as
        // each child was made, one miss at a time, they took a third of the solver's time).
        for &(index, key) in &to_look_up {
            self.take_from_table(&mut children[index], key, ply);
        }
        self.to_look_up = to_look_up;
        children
    }

    /// What is known of `pos`, reached by `mv` at `ply + 1`, before expanding it (`decided`:
    /// the board's verdict on it; `royal_hangs`: see [`Solver::quick_look_decided`]), but
    /// for what the table knows: with the key to ask the table for when it may know more
    /// ([`Solver::take_from_table`]).
    pub(super) fn look_after(
        &self,
        pos: &mut Position,
        mv: Move,
        ply: usize,
        decided: Option<Numbers>,
        royal_hangs: bool,
    ) -> (Child, Option<u64>) {
        if let Some((numbers, length)) = self.quick_look_decided(pos, decided, royal_hangs) {
            return (self.decided_child(mv, ply, numbers, length), None);
        }
        let key = pos.key();
        let mut child = Child {
            mv,
            numbers: Numbers::UNKNOWN,
            length: 0,
            line_only: false,
        };
        if self.line.contains(&key) {
            child.numbers = Numbers::DISPROVEN;
            child.line_only = true;
        } else if ply + 1 >= self.limits.max_plies {
            // At the limit: only a defender without a legal move (sho's checkmate) has lost
            // in time; anything else would need a move past the limit.
            if self.defender_checkmated(pos) {
                child.numbers = Numbers::PROVEN;
            } else {
                child.numbers = Numbers::DISPROVEN;
                child.line_only = true;
            }
        } else {
            return (child, Some(key));
        }
        (child, None)
    }

    /// `child`, reached at `ply + 1`, with the numbers the table keeps for `key`, if any: a
    /// stored proof counts only if it fits within the ply limit.
    pub(super) fn take_from_table(&self, child: &mut Child, key: u64, ply: usize) {
        if let Some(e) = self.table.get(key) {
            if e.numbers.pn != 0 || ply + 1 + e.length as usize <= self.limits.max_plies {
                child.numbers = e.numbers;
                child.length = e.length;
            }
        }
    }

    /// The child reached by `mv` at `ply + 1` when the game decides it within `length`
    /// plies: `numbers` as they are, unless the win would end past the ply limit (no win
    /// within it).
    pub(super) fn decided_child(
        &self,
        mv: Move,
        ply: usize,
        numbers: Numbers,
        length: u16,
    ) -> Child {
        if numbers.pn == 0 && ply + 1 + length as usize > self.limits.max_plies {
            return Child {
                mv,
                numbers: Numbers::DISPROVEN,
                length: 0,
                line_only: true,
            };
        }
        Child {
            mv,
            numbers,
            length,
            line_only: false,
        }
    }

    /// df-pn's multiple iterative deepening at one node: expands its most-proving child
    /// until the node's numbers reach a threshold, a child is decided for the node, or the
    /// budget runs out.
    pub(super) fn expand(
        &mut self,
        pos: &mut Position,
        thresholds: Numbers,
        ply: usize,
        control: &SearchControl,
        tick: &mut dyn FnMut(&Solver),
    ) -> NodeResult {
        self.nodes += 1;
        let key = pos.key();
        // Below the root a node is expanded only when its first look left it open.
        if let Some(numbers) = (ply == 0).then(|| self.decided(pos)).flatten() {
            return NodeResult {
                numbers,
                length: 0,
                line_only: false,
            };
        }
        let or_node = self.is_attacker(pos);
        let mut children = self.children_at(pos, ply);
        if children.is_empty() {
            // The attacker has nothing to try; a defender without a legal move has lost.
            let numbers = if or_node {
                Numbers::DISPROVEN
            } else {
                Numbers::PROVEN
            };
            self.table.put(key, numbers, 0, Move::NULL);
            self.child_lists[ply] = children;
            return NodeResult {
                numbers,
                length: 0,
                line_only: false,
            };
        }
        self.line.push(key);
        let result = loop {
            let node = summarise(&children, or_node);
            if node.numbers.pn >= thresholds.pn
                || node.numbers.dn >= thresholds.dn
                || self.out_of_budget(control, tick)
            {
                break node;
            }
            let (best, second) = most_proving(&children, or_node);
            let child = children[best];
            let child_thresholds = if or_node {
                Numbers {
                    pn: thresholds.pn.min(epsilon_threshold(second)),
                    dn: add(thresholds.dn - node.numbers.dn, child.numbers.dn),
                }
            } else {
                Numbers {
                    pn: add(thresholds.pn - node.numbers.pn, child.numbers.pn),
                    dn: thresholds.dn.min(epsilon_threshold(second)),
                }
            };
            pos.make_move(child.mv);
            let r = self.expand(pos, child_thresholds, ply + 1, control, tick);
            pos.unmake_move();
            children[best] = Child {
                mv: child.mv,
                numbers: r.numbers,
                length: r.length,
                line_only: r.line_only,
            };
        };
        self.line.pop();
        let best_move = if result.numbers.pn == 0 && or_node {
            proving_child(&children).map_or(Move::NULL, |c| c.mv)
        } else {
            Move::NULL
        };
        self.child_lists[ply] = children;
        if !(result.numbers.dn == 0 && result.line_only) {
            self.table
                .put(key, result.numbers, result.length, best_move);
        }
        result
    }
}

/// The moves of a node's children into `moves`: the attacker's quiet moves that surely
/// cannot check (`quiet`, when no quiet move can end the game) and the checked defender's
/// quiet moves that surely leave its royal hanging (`evasions_only`) are not generated.
fn generate_moves(
    pos: &mut Position,
    quiet: Option<&QuietTest>,
    quiet_cannot_end: bool,
    evasions_only: bool,
    own_royal: &MoverRoyal,
    moves: &mut Vec<Move>,
) {
    match quiet {
        Some(quiet) if quiet_cannot_end => {
            pos.legal_moves_with_quiet_targets(|pos, from| quiet.quiet_targets(pos, from), moves)
        }
        _ if evasions_only => pos
            .legal_moves_with_quiet_targets(|pos, from| own_royal.quiet_targets(pos, from), moves),
        _ => pos.legal_moves(GenMode::Search, moves),
    }
}
