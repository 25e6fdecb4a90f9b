//! A proof-number mate solver (df-pn, depth-first proof-number search) for chu and sho under
//! our rules.
//!
//! The side to move at the root is the attacker. At its nodes (OR nodes) it needs one move
//! that wins; at the defender's nodes (AND nodes) every defence must lose. The attacker's
//! moves are, by default, those after which an enemy royal is attacked ("checks") or the
//! game is won at once; [`AttackerMoves::All`] tries every move. The defender tries every
//! legal move. A position is proven when the game ends in the attacker's favour
//! ([`Position::board_outcome`]: the last royal captured, the bare-king rule, and in sho a
//! defender without a legal move), and disproven when it ends otherwise, when the attacker has
//! no move left to try, when it repeats a position of the current line (a repetition never
//! wins for the attacker: fourfold repetition is a draw and perpetual checks lose), or when the
//! line reaches the ply limit. The move generator applies the rest of the rules (lion double
//! moves, igui, jitto, the lion-trading rules, promotions, the counter-strike square), and a
//! kingless side (a problem without the attacker's king) never loses by royal capture.
//!
//! Proof and disproof numbers (Allis) count the leaves that must still be proven or
//! disproven; df-pn (Nagai) expands the most-proving node depth-first under thresholds and
//! keeps the numbers in its own [`table`]. Graph-history interaction: a disproof that rests
//! on a repetition or on the ply limit belongs to the line it was found on, so it is never
//! stored in the table (the node keeps it for the expansion in progress only). A second pass
//! shortens a found proof: it solves again with the ply limit set below the proof's length
//! until no shorter proof is found, so that the line given has the attacker mating fastest
//! and, at each defence, the defender resisting longest.

pub mod table;

use crate::control::SearchControl;
use crate::core::{Bitboard, Color, Move, Square};
use crate::position::{GenMode, Position};
use std::time::{Duration, Instant};
use table::Table;

/// A proof or disproof number that means "never": the node is decided the other way.
pub const INFINITE: u32 = 1 << 30;

/// The longest line the solver follows, in plies.
pub const MAX_PLIES: usize = 120;

/// Proof number (`pn`: leaves still to prove) and disproof number (`dn`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, bytemuck::Zeroable)]
pub struct Numbers {
    /// 0: proven.
    pub pn: u32,
    /// 0: disproven.
    pub dn: u32,
}

impl Numbers {
    const PROVEN: Numbers = Numbers {
        pn: 0,
        dn: INFINITE,
    };
    const DISPROVEN: Numbers = Numbers {
        pn: INFINITE,
        dn: 0,
    };
    const UNKNOWN: Numbers = Numbers { pn: 1, dn: 1 };
}

/// Which attacker moves the solver tries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AttackerMoves {
    /// Moves that attack an enemy royal or win at once (the tsume convention).
    #[default]
    Checks,
    /// Every legal move.
    All,
}

/// The limits of one solve.
#[derive(Clone, Debug)]
pub struct MateLimits {
    /// Which attacker moves count.
    pub attacker_moves: AttackerMoves,
    /// The attacker's first moves to try (USI `go mate ... searchmoves`); empty: all.
    pub root_moves: Vec<Move>,
    /// Give up after this long (`None`: until stopped or decided).
    pub time: Option<Duration>,
    /// Give up after this many nodes.
    pub nodes: Option<u64>,
    /// The longest line, in plies (at most [`MAX_PLIES`]).
    pub max_plies: usize,
    /// After the first proof, look for shorter ones (the second pass); without it the
    /// first proof is the answer, at once (the analysis mate helper shows it first).
    pub shorten: bool,
}

impl Default for MateLimits {
    fn default() -> MateLimits {
        MateLimits {
            attacker_moves: AttackerMoves::Checks,
            root_moves: Vec::new(),
            time: None,
            nodes: None,
            max_plies: MAX_PLIES,
            shorten: true,
        }
    }
}

/// What the solver found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A forced win: the line, from the attacker's first move to the end of the game.
    Mate(Vec<Move>),
    /// No forced win with the attacker moves tried, within the ply limit.
    NoMate,
    /// Stopped or out of time or nodes before deciding.
    Unknown,
}

/// A solve's report, as the progress callback and the final answer see it.
#[derive(Clone, Debug)]
pub struct Progress {
    /// Nodes visited so far.
    pub nodes: u64,
    /// Time since the solve started.
    pub time: Duration,
    /// Table use, per mille.
    pub hashfull: u32,
}

/// The answer of [`Solver::solve`].
#[derive(Clone, Debug)]
pub struct Solution {
    /// Mate, no mate, or unknown.
    pub verdict: Verdict,
    /// Nodes and time spent.
    pub progress: Progress,
}

/// One child of a node during its expansion.
#[derive(Clone, Copy, Debug)]
struct Child {
    mv: Move,
    numbers: Numbers,
    /// Plies to the end of the proof, when proven.
    length: u16,
    /// A disproof that holds only on this line (repetition, ply limit).
    line_only: bool,
}

/// What an expansion returns to its parent.
#[derive(Clone, Copy, Debug)]
struct NodeResult {
    numbers: Numbers,
    length: u16,
    line_only: bool,
}

/// The solver: its table and counters. Keep one and reuse it (the table is the memory).
pub struct Solver {
    table: Table,
    nodes: u64,
    attacker: Color,
    limits: MateLimits,
    deadline: Option<Instant>,
    start: Instant,
    out_of_budget: bool,
    /// The node count at which the budget is looked at next.
    next_check: u64,
    /// When the progress callback is called next.
    next_report: Instant,
    /// Keys of the positions on the current line (repetition check).
    line: Vec<u64>,
    /// Per ply, the moves of the node being expanded there (kept to save allocations).
    moves: Vec<Vec<Move>>,
    /// Per ply, the children of the node being expanded there (kept likewise).
    child_lists: Vec<Vec<Child>>,
    /// The children of one node whose numbers the table is asked for (see
    /// [`Solver::children_at`]).
    to_look_up: Vec<(usize, u64)>,
}

/// How often (in nodes) the solver looks at the clock, the stop switch and its callback: at
/// 100,000-150,000 nodes a second, every half millisecond or so, because the game search
/// gives it budgets of a few milliseconds (1,024 nodes overran a 2 ms budget fourfold).
const CHECK_EVERY: u64 = 64;
/// The second pass's node budget: this many times the nodes of the first proof ...
const SHORTENING_FACTOR: u64 = 4;
/// ... and at least this many.
const SHORTENING_MIN_NODES: u64 = 200_000;
/// How many overwritten proofs [`Solver::proof_line`] proves again before giving up.
const MAX_PROOFS_REDONE: u32 = 16;
/// How often the progress callback is called.
const PROGRESS_EVERY: Duration = Duration::from_secs(1);

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
            n if n.pn == 0 => {
                // Second pass: look for shorter proofs until none is found or its own budget
                // runs out (the proof in hand stands): a few times the nodes of the first
                // proof, so that a found mate is answered, also under `go mate infinite`.
                let mut best = self.proof_line(&mut pos, control);
                let extra = (self.nodes * SHORTENING_FACTOR).max(SHORTENING_MIN_NODES);
                let end = self.nodes.saturating_add(extra);
                self.limits.nodes = Some(self.limits.nodes.map_or(end, |n| n.min(end)));
                while self.limits.shorten && best.len() > 2 && !self.out_of_budget {
                    self.limits.max_plies = best.len() - 2;
                    self.table.clear();
                    let shorter = self.solve_root(&mut pos, control, tick);
                    if shorter.numbers.pn != 0 {
                        break;
                    }
                    let line = self.proof_line(&mut pos, control);
                    if line.is_empty() || line.len() >= best.len() {
                        break;
                    }
                    best = line;
                }
                Verdict::Mate(best)
            }
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

    fn progress(&self) -> Progress {
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

    fn solve_root(
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

    fn is_attacker(&self, pos: &Position) -> bool {
        pos.side_to_move() == self.attacker
    }

    /// Whether `pos` is sho's checkmate of the defender: the defender to move without a
    /// legal move (the board alone does not decide it; see [`Solver::decided`]).
    fn defender_checkmated(&self, pos: &mut Position) -> bool {
        !self.is_attacker(pos) && !pos.has_legal_move()
    }

    /// Numbers of a position the game has decided, seen by the attacker.
    fn decided(&self, pos: &Position) -> Option<Numbers> {
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
    fn quick_look(&self, pos: &Position) -> Option<(Numbers, u16)> {
        let decided = self.decided(pos);
        self.quick_look_decided(pos, decided, decided.is_none() && mover_royal_hangs(pos))
    }

    /// [`Solver::quick_look`] with the board's verdict already known (`decided`) and, when it
    /// is none, whether the side that just moved left its only royal attacked
    /// (`royal_hangs`).
    fn quick_look_decided(
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
    fn out_of_budget(&mut self, control: &SearchControl, tick: &mut dyn FnMut(&Solver)) -> bool {
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
    fn moves_at(&mut self, pos: &mut Position, ply: usize) -> Vec<Move> {
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
    fn checks_only(&self, pos: &Position) -> bool {
        self.is_attacker(pos) && self.limits.attacker_moves == AttackerMoves::Checks
    }

    /// After an attacker's move, with checks only: whether the move is one to try (it ends
    /// the game, `decided` being the board's verdict on `after`, or it attacks an enemy
    /// royal).
    fn is_tried(&self, after: &Position, decided: Option<Numbers>) -> bool {
        decided.is_some() || after.royal_attacked(self.attacker.flip())
    }

    /// The children of `pos` with what is known of each before expanding it: one make and
    /// unmake per legal move, the attacker's moves that are not tried left out on the way.
    /// The list is `child_lists[ply]`'s, to be given back there when the node is done.
    fn children_at(&mut self, pos: &mut Position, ply: usize) -> Vec<Child> {
        let mut moves = std::mem::take(&mut self.moves[ply]);
        let checks_only = self.checks_only(pos);
        let quiet_cannot_end = no_end_by_quiet_move(pos);
        let quiet = checks_only.then(|| QuietTest::at(pos, quiet_cannot_end));
        let own_royal = MoverRoyal::at(pos, quiet_cannot_end);
        let or_node = self.is_attacker(pos);
        // The attacker's quiet moves that surely cannot check, and the checked defender's
        // quiet moves that surely leave its royal hanging, are not even generated.
        let evasions_only = !or_node && own_royal.hanging_moves_known();
        match &quiet {
            Some(quiet) if quiet_cannot_end => pos.legal_moves_with_quiet_targets(
                |pos, from| quiet.quiet_targets(pos, from),
                &mut moves,
            ),
            _ if evasions_only => pos.legal_moves_with_quiet_targets(
                |pos, from| own_royal.quiet_targets(pos, from),
                &mut moves,
            ),
            _ => pos.legal_moves(GenMode::Search, &mut moves),
        }
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
    fn look_after(
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
    fn take_from_table(&self, child: &mut Child, key: u64, ply: usize) {
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
    fn decided_child(&self, mv: Move, ply: usize, numbers: Numbers, length: u16) -> Child {
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
    fn expand(
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

    /// The proven line from `pos` (proven at the last solve): the attacker's proving moves
    /// and the defender's longest resistance, read from the table. Empty if a link is
    /// missing (overwritten) and cannot be proven again within the budget.
    fn proof_line(&mut self, pos: &mut Position, control: &SearchControl) -> Vec<Move> {
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

/// Whether no plain move at `pos` (no capture, no lion double move) can end the game by
/// the board (`Position::board_outcome`): no royal is captured without a capture, and
/// while both sides keep three live pieces or more the bare-king and kings-alone rules
/// cannot apply after one plain move (it kills at most the piece it moves, on the last
/// ranks; a promotion only adds).
fn no_end_by_quiet_move(pos: &Position) -> bool {
    Color::ALL.iter().all(|&c| pos.live_piece_count(c) >= 3)
}

/// Whether `mv` is a plain move at `pos`: no capture and no lion double move.
fn is_plain(pos: &Position, mv: Move) -> bool {
    !mv.is_double() && pos.piece_on(mv.to()).is_empty()
}

/// Whether the side that just moved in `pos` has one royal and left it attacked (the other
/// side takes it next move; chu allows such moves).
fn mover_royal_hangs(pos: &Position) -> bool {
    let mover = pos.side_to_move().flip();
    pos.royals(mover).count() == 1 && pos.royal_attacked(mover)
}

/// The mover's only royal at one node, and what attacks it, to tell after each move whether
/// the move left it attacked ([`mover_royal_hangs`]) without the full test, and before
/// making it when the move surely does. Such a move loses the royal next move (in chu a
/// move may ignore a check), and most of a checked defender's moves are such. Making each
/// of them to find that out cost as much as the attacker's checks, and the full test after
/// the others a tenth of the solver's time. Both answers are exact, so the solver's tree is
/// the same, node for node.
struct MoverRoyal {
    /// The mover's only royal, when it has one.
    royal: Option<Square>,
    /// The attackers of that royal, each with the squares that would block it (none for a
    /// leap or a step).
    checkers: Vec<(Square, Bitboard)>,
    /// The squares that block every attacker (every square when there is none).
    blocking_all: Bitboard,
    /// See [`no_end_by_quiet_move`].
    no_end_by_quiet_move: bool,
}

impl MoverRoyal {
    /// The test at `pos`, for the side to move (`no_end_by_quiet_move`: that function's
    /// answer at `pos`).
    fn at(pos: &Position, no_end_by_quiet_move: bool) -> MoverRoyal {
        let mover = pos.side_to_move();
        let royals = pos.royals(mover);
        let royal = (royals.count() == 1)
            .then(|| royals.iter().next())
            .flatten();
        let checkers = royal.map_or(Vec::new(), |r| pos.attackers_with_lines(r, mover.flip()));
        let blocking_all = checkers
            .iter()
            .fold(!Bitboard::EMPTY, |squares, &(_, between)| squares & between);
        MoverRoyal {
            royal,
            checkers,
            blocking_all,
            no_end_by_quiet_move,
        }
    }

    /// Whether `mv` (legal at `pos`) surely leaves the royal attacked and ends nothing: a
    /// plain move (no capture, no promotion, not a lion's double move) of another piece
    /// than the royal, to a square that blocks not every attacker.
    fn surely_hanging(&self, pos: &Position, mv: Move) -> bool {
        let Some(royal) = self.royal else {
            return false;
        };
        self.no_end_by_quiet_move
            && is_plain(pos, mv)
            && !mv.is_promotion()
            && mv.from() != royal
            && !self.blocking_all.contains(mv.to())
    }

    /// For a plain move of the royal itself (no capture, no double move, no promotion),
    /// where a plain move cannot end the game: whether it leaves the royal attacked, told
    /// before making it (`None` for any other move). After the move the royal's square is
    /// attacked exactly when its destination is now, with the square it leaves seen as
    /// empty; a hanging move is then taken as [`MoverRoyal::surely_hanging`] ones are,
    /// without a make, and the others need no test after the make.
    fn royal_step_hangs(&self, pos: &Position, mv: Move) -> Option<bool> {
        let royal = self.royal?;
        if mv.from() != royal
            || !self.no_end_by_quiet_move
            || !is_plain(pos, mv)
            || mv.is_promotion()
        {
            return None;
        }
        let enemy = pos.side_to_move().flip();
        Some(pos.is_attacked_through(mv.to(), enemy, Bitboard::from_square(royal)))
    }

    /// Whether the moves [`MoverRoyal::surely_hanging`] finds are known by their squares
    /// alone: the royal is attacked, and a plain move cannot end the game.
    fn hanging_moves_known(&self) -> bool {
        self.royal.is_some() && self.no_end_by_quiet_move && !self.checkers.is_empty()
    }

    /// With [`MoverRoyal::hanging_moves_known`]: where a quiet single move of the piece on
    /// `from` (at `pos`) may land and not surely hang the royal. Every square for the royal
    /// itself, and for a piece that may promote on the move (a promotion is never surely
    /// hanging) from inside the promotion zone; else the squares that block every attacker,
    /// and the zone for a piece that may promote by entering it.
    fn quiet_targets(&self, pos: &Position, from: Square) -> Bitboard {
        let everywhere = !Bitboard::EMPTY;
        if Some(from) == self.royal {
            return everywhere;
        }
        let piece = pos.piece_on(from);
        if pos.variant().promotion[piece.kind() as usize].is_none() {
            return self.blocking_all;
        }
        let zone = pos.variant().tables.zone[piece.color().index()];
        if zone.contains(from) {
            everywhere
        } else {
            self.blocking_all | zone
        }
    }

    /// A move at `pos` that [`MoverRoyal::surely_hanging`] finds, if there is one (none
    /// where the rules forbid leaving a lone royal attacked: sho). Such a move is a plain
    /// single move, so the moves of the side's pieces as perft lists them hold it.
    fn first_hanging_move(&self, pos: &Position) -> Option<Move> {
        if pos.variant().spec.rules.lone_royal_check {
            return None;
        }
        let mut moves = Vec::new();
        let mut pass_listed = true;
        for from in pos.occupied(pos.side_to_move()) {
            if Some(from) == self.royal {
                continue;
            }
            moves.clear();
            pos.pseudo_piece_moves(from, &mut moves, &mut pass_listed);
            if let Some(&mv) = moves.iter().find(|&&mv| self.surely_hanging(pos, mv)) {
                return Some(mv);
            }
        }
        None
    }

    /// After `mv`, made on `after`: whether the mover has one royal and it is attacked, as
    /// [`mover_royal_hangs`] says. A move of one step or leap by another piece than the
    /// royal takes away at most the attacker it captures, and the piece it puts down only
    /// blocks slides: the royal is attacked after it when an attacker of before is neither
    /// captured nor blocked by the square it lands on, or along the line through the
    /// square it left. A promotion may make a royal (sho's prince), so it takes the full
    /// test, as do a lion's double moves (three squares change) and the royal's own moves.
    fn attacked_after(&self, after: &Position, mv: Move) -> bool {
        if mv.is_double() || mv.is_promotion() {
            return mover_royal_hangs(after);
        }
        let Some(royal) = self.royal else {
            // No royal, or two or more: a move that neither promotes nor captures a royal
            // of its own side (none can) leaves the count as it was.
            return false;
        };
        if mv.from() == royal {
            return mover_royal_hangs(after);
        }
        let (from, to) = (mv.from(), mv.to());
        let mover = after.side_to_move().flip();
        self.checkers
            .iter()
            .any(|&(checker, between)| checker != to && !between.contains(to))
            || after.is_attacked_along(royal, mover.flip(), from)
    }
}

/// Which of the attacker's moves at one node are surely not tried with checks only, told
/// before making them: a quiet move that cannot attack an enemy royal nor end the game.
/// Making and unmaking each move to ask its royal-attack test cost most of the solver's
/// time, and most moves fail it; this test is exact (it passes on only what the full test
/// would reject), so the solver's tree is the same, node for node.
struct QuietTest {
    /// The defender's royals.
    royals: Bitboard,
    /// See [`no_end_by_quiet_move`].
    no_end_by_quiet_move: bool,
    /// Whether no defender's royal is attacked before the attacker moves (then a plain
    /// move can attack one only from where it lands or through where it left).
    royals_safe_before: bool,
}

impl QuietTest {
    /// The test at `pos`, the attacker to move (`no_end_by_quiet_move`: that function's
    /// answer at `pos`).
    fn at(pos: &Position, no_end_by_quiet_move: bool) -> QuietTest {
        let attacker = pos.side_to_move();
        let defender = attacker.flip();
        QuietTest {
            royals: pos.royals(defender),
            no_end_by_quiet_move,
            royals_safe_before: !pos.royal_attacked(defender),
        }
    }

    /// After the attacker's move `mv`, made on `after`: whether a defender's royal is
    /// attacked. A move of one step or leap changes two squares, and the piece it puts down
    /// only blocks slides (a capture takes away a defender's piece, which attacks nothing of
    /// its own side), so when no royal was attacked before, an attack can come only from
    /// the moved piece or along the line through the square it left: those two lines and
    /// its leaps are asked instead of every line (the full test took a fifth of the
    /// solver's time). A lion's double move changes three squares: the full test.
    fn attacks_royal_after(&self, after: &Position, mv: Move) -> bool {
        let attacker = after.side_to_move().flip();
        if mv.is_double() || !self.royals_safe_before {
            return after.royal_attacked(attacker.flip());
        }
        let (from, to) = (mv.from(), mv.to());
        // A royal captured by the move is no longer there to attack.
        self.royals
            .iter()
            .filter(|&royal| royal != to)
            .any(|royal| {
                after.leaps_to(to, royal)
                    || after.is_attacked_along(royal, attacker, to)
                    || after.is_attacked_along(royal, attacker, from)
            })
    }

    /// Where a quiet single move of the piece on `from` may land and be tried: every square
    /// when `from` is on a line to a royal (leaving it may uncover one), else the squares
    /// from which the piece, or its promotion, could attack a royal on an empty board. The
    /// quiet moves elsewhere are those [`QuietTest::surely_not_tried`] leaves out, so
    /// leaving them out of the generation changes nothing.
    fn quiet_targets(&self, pos: &Position, from: Square) -> Bitboard {
        if self.royals.iter().any(|royal| from.is_aligned_with(royal)) {
            return !Bitboard::EMPTY;
        }
        let piece = pos.piece_on(from);
        let (kind, color) = (piece.kind(), piece.color());
        let promoted = pos.variant().promotion[kind as usize];
        let tables = &pos.variant().tables;
        let mut targets = Bitboard::EMPTY;
        for royal in self.royals {
            targets |= tables.attack_origins(kind, color, royal);
            if let Some(promoted) = promoted {
                targets |= tables.attack_origins(promoted, color, royal);
            }
        }
        targets
    }

    /// Whether `mv` (legal at `pos`) surely neither attacks a defender's royal nor ends the
    /// game: not a lion's double move, not a capture, its piece (promoted, if it promotes)
    /// cannot reach a royal from where it lands even on an empty board, and the square it
    /// leaves is on no line to a royal (so it opens no slide onto one).
    fn surely_not_tried(&self, pos: &Position, mv: Move) -> bool {
        if !self.no_end_by_quiet_move || !is_plain(pos, mv) {
            return false;
        }
        let (from, to) = (mv.from(), mv.to());
        let piece = pos.piece_on(from);
        let kind = match mv.is_promotion() {
            true => match pos.variant().promotion[piece.kind() as usize] {
                Some(promoted) => promoted,
                None => return false,
            },
            false => piece.kind(),
        };
        self.royals.iter().all(|royal| {
            !from.is_aligned_with(royal) && !pos.could_attack(kind, piece.color(), to, royal)
        })
    }
}

/// The node's numbers from its children's: at an attacker node the easiest proof and all
/// disproofs together, at a defender node the other way round.
fn summarise(children: &[Child], or_node: bool) -> NodeResult {
    let (mut min, mut sum) = (INFINITE, 0u32);
    let mut length: Option<u16> = None;
    let mut line_only = false;
    for c in children {
        let (this, other) = if or_node {
            (c.numbers.pn, c.numbers.dn)
        } else {
            (c.numbers.dn, c.numbers.pn)
        };
        min = min.min(this);
        sum = add(sum, other);
        if c.numbers.pn == 0 {
            length = Some(match length {
                None => c.length,
                Some(l) if or_node => l.min(c.length),
                Some(l) => l.max(c.length),
            });
        }
        if c.numbers.dn == 0 && c.line_only {
            line_only = true;
        }
    }
    let numbers = if or_node {
        Numbers { pn: min, dn: sum }
    } else {
        Numbers { pn: sum, dn: min }
    };
    NodeResult {
        numbers,
        length: length.map_or(0, |l| l.saturating_add(1)),
        line_only,
    }
}

/// The child to expand (smallest proof number at an attacker node, smallest disproof number
/// at a defender node) and the second smallest value.
fn most_proving(children: &[Child], or_node: bool) -> (usize, u32) {
    let value = |c: &Child| if or_node { c.numbers.pn } else { c.numbers.dn };
    let mut best = 0;
    let mut second = INFINITE;
    for (i, c) in children.iter().enumerate().skip(1) {
        let v = value(c);
        if v < value(&children[best]) {
            second = value(&children[best]);
            best = i;
        } else if v < second {
            second = v;
        }
    }
    (best, second)
}

/// The proven child with the shortest proof (attacker node).
fn proving_child(children: &[Child]) -> Option<&Child> {
    children
        .iter()
        .filter(|c| c.numbers.pn == 0)
        .min_by_key(|c| c.length)
}

/// The threshold for the most-proving child: a little above the second best value (the
/// "1 + epsilon trick" of Pawlewicz and Lew), so that the search does not switch back and
/// forth between two nearly equal children, re-expanding both at every switch.
fn epsilon_threshold(second: u32) -> u32 {
    add(second, 1 + second / 4)
}

/// Proof-number addition: saturates just below [`INFINITE`] unless a term is infinite.
fn add(a: u32, b: u32) -> u32 {
    if a >= INFINITE || b >= INFINITE {
        INFINITE
    } else {
        (a + b).min(INFINITE - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Calls `visit` at every position of `games` random games a variant (chu and sho), each
    /// at most `plies` long, from the start position, with the random moves seeded by `seed`.
    fn along_random_games(
        seed: u64,
        games: usize,
        plies: usize,
        mut visit: impl FnMut(&mut Position),
    ) {
        let mut rng = crate::core::rng::Rng::new(seed);
        for variant in crate::variant::Variant::all() {
            for _ in 0..games {
                let mut pos = Position::startpos(variant);
                for _ in 0..plies {
                    visit(&mut pos);
                    match pos.outcome().is_none().then(|| pos.random_move(&mut rng)) {
                        Some(Some(mv)) => pos.make_move(mv),
                        _ => break,
                    }
                }
            }
        }
    }

    /// Whether `small` is in `big`, in the same order.
    fn in_order(small: &[Move], big: &[Move]) -> bool {
        let mut rest = big.iter();
        small.iter().all(|mv| rest.any(|m| m == mv))
    }

    fn child(pn: u32, dn: u32, length: u16, line_only: bool) -> Child {
        Child {
            mv: Move::NULL,
            numbers: Numbers { pn, dn },
            length,
            line_only,
        }
    }

    /// The two-line test after a plain move must say what the full test says, in every
    /// position of random games of both variants, for every move of the side to move.
    #[test]
    fn the_attackers_targeted_generation_keeps_every_move_that_may_be_tried_in_order() {
        let (mut positions, mut left_out) = (0, 0);
        along_random_games(29, 12, 160, |pos| {
            let quiet = QuietTest::at(pos, true);
            let (mut all, mut targeted) = (Vec::new(), Vec::new());
            pos.legal_moves(GenMode::Search, &mut all);
            pos.legal_moves_with_quiet_targets(
                |pos, from| quiet.quiet_targets(pos, from),
                &mut targeted,
            );
            let tried: Vec<Move> = all
                .iter()
                .copied()
                .filter(|&mv| !quiet.surely_not_tried(pos, mv))
                .collect();
            // `tried` within `targeted` within `all`, each in the order of `all`.
            assert!(in_order(&tried, &targeted), "{}", pos.to_sfen());
            assert!(in_order(&targeted, &all), "{}", pos.to_sfen());
            let mut everything = Vec::new();
            pos.legal_moves_with_quiet_targets(|_, _| !Bitboard::EMPTY, &mut everything);
            assert_eq!(everything, all);
            positions += 1;
            left_out += all.len() - targeted.len();
        });
        assert!(
            positions > 1_000 && left_out > 20 * positions,
            "{positions} {left_out}"
        );
    }

    #[test]
    fn the_checked_defenders_targeted_generation_keeps_every_move_but_the_surely_hanging() {
        let (mut checked, mut left_out) = (0, 0);
        along_random_games(30, 40, 200, |pos| {
            let own_royal = MoverRoyal::at(pos, no_end_by_quiet_move(pos));
            if !own_royal.hanging_moves_known() {
                return;
            }
            let (mut all, mut targeted) = (Vec::new(), Vec::new());
            pos.legal_moves(GenMode::Search, &mut all);
            pos.legal_moves_with_quiet_targets(
                |pos, from| own_royal.quiet_targets(pos, from),
                &mut targeted,
            );
            let (hanging, kept): (Vec<Move>, Vec<Move>) = all
                .iter()
                .partition(|&&mv| own_royal.surely_hanging(pos, mv));
            assert!(in_order(&kept, &targeted), "{}", pos.to_sfen());
            assert!(in_order(&targeted, &all), "{}", pos.to_sfen());
            let first = own_royal.first_hanging_move(pos);
            assert_eq!(first.is_some(), !hanging.is_empty(), "{}", pos.to_sfen());
            assert!(first.is_none_or(|mv| own_royal.surely_hanging(pos, mv)));
            checked += 1;
            left_out += all.len() - targeted.len();
        });
        assert!(
            checked > 200 && left_out > 20 * checked,
            "{checked} {left_out}"
        );
    }

    #[test]
    fn the_movers_royal_test_agrees_with_the_full_test_after_every_move() {
        use crate::variant::Variant;
        let (mut compared, mut hanging, mut hanging_told_before) = (0, 0, 0);
        let (mut royal_steps, mut royal_steps_hanging) = (0, 0);
        let mut compare_moves = |pos: &mut Position| {
            let own_royal = MoverRoyal::at(pos, no_end_by_quiet_move(pos));
            let mut moves = Vec::new();
            pos.legal_moves(GenMode::Search, &mut moves);
            for mv in moves {
                let told_before = own_royal.surely_hanging(pos, mv);
                let royal_step_hangs = own_royal.royal_step_hangs(pos, mv);
                pos.make_move(mv);
                let hangs = mover_royal_hangs(pos);
                let context = || format!("{} after {mv:?}", pos.to_sfen());
                assert_eq!(own_royal.attacked_after(pos, mv), hangs, "{}", context());
                assert!(
                    !told_before || (hangs && pos.board_outcome().is_none()),
                    "{}",
                    context()
                );
                if let Some(step_hangs) = royal_step_hangs {
                    assert_eq!(step_hangs, hangs, "{}", context());
                    assert!(pos.board_outcome().is_none(), "{}", context());
                    royal_steps += 1;
                    royal_steps_hanging += usize::from(step_hangs);
                }
                compared += 1;
                hanging += usize::from(hangs);
                hanging_told_before += usize::from(told_before);
                pos.unmake_move();
            }
        };
        // A lone king in check from a rook, with a silver that can block or uncover.
        let mut checked = Position::from_sfen(
            Variant::chu(),
            "6k5/12/12/12/12/12/6S5/12/12/12/6R5/5K6 w - 1",
        )
        .unwrap();
        compare_moves(&mut checked);
        along_random_games(28, 12, 160, compare_moves);
        assert!(
            compared > 50_000 && hanging > 500 && hanging_told_before > 100,
            "{compared} {hanging} {hanging_told_before}"
        );
        assert!(
            royal_steps > 1_000 && royal_steps_hanging > 50,
            "{royal_steps} {royal_steps_hanging}"
        );
    }

    #[test]
    fn the_royal_attack_after_a_move_agrees_with_the_full_test() {
        use crate::variant::Variant;
        let mut compared = 0;
        let mut discovered = 0;
        let mut compare_moves = |pos: &mut Position| {
            let quiet = QuietTest::at(pos, true);
            let defender = pos.side_to_move().flip();
            let mut moves = Vec::new();
            pos.legal_moves(GenMode::Search, &mut moves);
            for mv in moves {
                pos.make_move(mv);
                let attacked = pos.royal_attacked(defender);
                assert_eq!(
                    quiet.attacks_royal_after(pos, mv),
                    attacked,
                    "{} after {mv:?}",
                    pos.to_sfen()
                );
                let royal = pos.royals(defender).iter().next();
                if attacked && royal.is_some_and(|r| !pos.leaps_to(mv.to(), r)) {
                    discovered += usize::from(!pos.is_attacked_along(
                        royal.unwrap(),
                        defender.flip(),
                        mv.to(),
                    ));
                }
                compared += 1;
                pos.unmake_move();
            }
        };
        // A silver in front of its rook, on the file of the enemy king: most of its moves
        // uncover the rook's attack.
        let mut uncovering =
            Position::from_sfen(Variant::sho(), "4k4/9/9/9/4S4/9/9/4R4/4K4 b - 1").unwrap();
        compare_moves(&mut uncovering);
        along_random_games(27, 12, 160, compare_moves);
        assert!(
            compared > 50_000 && discovered >= 3,
            "{compared} {discovered}"
        );
    }

    #[test]
    fn an_attacker_node_takes_the_easiest_proof_and_sums_the_disproofs() {
        let children = [
            child(3, 2, 0, false),
            child(1, 5, 0, false),
            child(4, 1, 0, false),
        ];
        let node = summarise(&children, true);
        assert_eq!(node.numbers, Numbers { pn: 1, dn: 8 });
        assert_eq!(most_proving(&children, true), (1, 3));
        // One proven child proves it, with the shortest proof among the proven.
        let children = [
            child(0, INFINITE, 6, false),
            child(0, INFINITE, 2, false),
            child(2, 2, 0, false),
        ];
        let node = summarise(&children, true);
        assert_eq!(node.numbers, Numbers::PROVEN);
        assert_eq!(node.length, 3);
        assert_eq!(proving_child(&children).map(|c| c.length), Some(2));
        // All disproven: disproven, and only on this line if one of them was.
        let children = [child(INFINITE, 0, 0, false), child(INFINITE, 0, 0, true)];
        let node = summarise(&children, true);
        assert_eq!(node.numbers, Numbers::DISPROVEN);
        assert!(node.line_only);
    }

    #[test]
    fn a_defender_node_needs_every_child_proven_and_takes_the_longest() {
        let children = [child(2, 3, 0, false), child(5, 1, 0, false)];
        let node = summarise(&children, false);
        assert_eq!(node.numbers, Numbers { pn: 7, dn: 1 });
        assert_eq!(most_proving(&children, false), (1, 3));
        let children = [child(0, INFINITE, 4, false), child(0, INFINITE, 0, false)];
        let node = summarise(&children, false);
        assert_eq!(node.numbers, Numbers::PROVEN);
        assert_eq!(node.length, 5);
        // One disproven defence disproves it.
        let children = [child(0, INFINITE, 4, false), child(INFINITE, 0, 0, false)];
        assert_eq!(summarise(&children, false).numbers.dn, 0);
    }

    #[test]
    fn proof_numbers_saturate_below_infinity_unless_a_term_is_infinite() {
        assert_eq!(add(2, 3), 5);
        assert_eq!(add(INFINITE - 1, 5), INFINITE - 1);
        assert_eq!(add(INFINITE, 0), INFINITE);
        assert_eq!(add(0, INFINITE), INFINITE);
    }
}
