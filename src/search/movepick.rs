//! The staged move picker: hash move, good captures (by MVV-LVA, losing ones by SEE put
//! aside), killers, countermove, quiets by history, then the losing captures. Each stage
//! generates only when reached, so a cut-off on the hash move or a capture never pays for
//! generating quiets. A test checks that the picker yields exactly the moves of move
//! generation (search mode), each once.

use super::history::History;
use super::see::{captured_value, is_not_losing};
use crate::core::{Move, Square};
use crate::eval::Evaluator;
use crate::position::{Filter, GenMode, Position};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Stage {
    TtMove,
    GenerateCaptures,
    GoodCaptures,
    FirstKiller,
    SecondKiller,
    CounterMove,
    GenerateQuiets,
    Quiets,
    BadCaptures,
    Done,
}

/// Reusable buffers of a picker (one set per ply, so no allocation per node).
#[derive(Default)]
pub struct PickerBuffers {
    moves: Vec<Move>,
    /// The moves of the stage being picked and their scores (two arrays, so that the
    /// search for the best score runs over packed integers).
    scored: Vec<Move>,
    scores: Vec<i32>,
    bad: Vec<Move>,
}

impl PickerBuffers {
    fn clear_scored(&mut self) {
        self.scored.clear();
        self.scores.clear();
    }

    fn push_scored(&mut self, mv: Move, score: i32) {
        self.scored.push(mv);
        self.scores.push(score);
    }
}

/// Yields the moves of a node in a good order.
pub struct MovePicker {
    stage: Stage,
    tt_move: Option<Move>,
    killers: [Move; 2],
    counter: Move,
    captures_only: bool,
    /// The square the opponent's last move went to, and the percent of the follow-up
    /// history of the answers to it that quiet moves are ordered by (none: 0).
    answering: Option<(Square, i32)>,
    buffers: PickerBuffers,
    next: usize,
}

/// Whether `mv` captures anything in `pos`.
#[inline]
pub fn is_capture(pos: &Position, mv: Move) -> bool {
    (mv.to() != mv.from() && !pos.piece_on(mv.to()).is_empty())
        || mv.mid().is_some_and(|m| !pos.piece_on(m).is_empty())
}

impl MovePicker {
    /// A picker for a full-width node.
    pub fn new(
        buffers: PickerBuffers,
        tt_move: Option<Move>,
        killers: [Move; 2],
        counter: Move,
    ) -> MovePicker {
        MovePicker {
            stage: Stage::TtMove,
            tt_move,
            killers,
            counter,
            captures_only: false,
            answering: None,
            buffers,
            next: 0,
        }
    }

    /// Orders the quiet moves by `pct` percent of their follow-up history as answers to
    /// the opponent's move to `after` as well (`History::follow_up_score`).
    pub fn answering(mut self, after: Square, pct: i32) -> MovePicker {
        self.answering = (pct > 0).then_some((after, pct));
        self
    }

    /// A picker for quiescence: the hash move if it captures, then winning and even captures.
    pub fn captures(buffers: PickerBuffers, tt_move: Option<Move>) -> MovePicker {
        MovePicker {
            stage: Stage::TtMove,
            tt_move,
            killers: [Move::NULL; 2],
            counter: Move::NULL,
            captures_only: true,
            answering: None,
            buffers,
            next: 0,
        }
    }

    /// Gives the buffers back for reuse.
    pub fn into_buffers(self) -> PickerBuffers {
        self.buffers
    }

    fn already_tried(&self, mv: Move) -> bool {
        Some(mv) == self.tt_move
            || (self.stage > Stage::FirstKiller && mv == self.killers[0])
            || (self.stage > Stage::SecondKiller && mv == self.killers[1])
            || (self.stage > Stage::CounterMove && mv == self.counter)
    }

    /// Picks the best remaining scored move, the first of equals (selection sort, one
    /// step). The largest score first, then where it stands: two simple passes, which
    /// the compiler vectorises, rather than one that branches on every move (an all-node
    /// of chu picks from well over a hundred quiet moves).
    fn pick_best(&mut self) -> Option<Move> {
        let PickerBuffers { scored, scores, .. } = &mut self.buffers;
        let rest = scores.get(self.next..)?;
        let best_score = rest.iter().fold(i32::MIN, |a, &b| a.max(b));
        // `None` when no move is left (nothing to find in an empty rest).
        let best = self.next + rest.iter().position(|&s| s == best_score)?;
        scored.swap(self.next, best);
        scores.swap(self.next, best);
        self.next += 1;
        Some(scored[self.next - 1])
    }

    /// A killer or countermove is tried only if it is a legal quiet move here.
    fn usable_quiet(&self, pos: &mut Position, mv: Move) -> bool {
        mv != Move::NULL && Some(mv) != self.tt_move && !is_capture(pos, mv) && pos.is_legal(mv)
    }

    /// Whether the move given last is a capture the picker already found not losing by
    /// SEE (the good-capture stage), so that a caller need not weigh its exchange again.
    pub fn last_is_not_losing_capture(&self) -> bool {
        self.stage == Stage::GoodCaptures
    }

    /// The next move, or `None` when all were given.
    pub fn next(&mut self, pos: &mut Position, ev: &Evaluator, history: &History) -> Option<Move> {
        self.next_kept(pos, ev, history, |_, _| true)
    }

    /// The next move that `keep` accepts, or `None` when all were given. A capture that
    /// `keep` refuses is dropped before its static exchange evaluation: quiescence refuses
    /// most captures by cheap tests, and SEE is the dearest part of picking them.
    pub fn next_kept(
        &mut self,
        pos: &mut Position,
        ev: &Evaluator,
        history: &History,
        keep: impl Fn(&Position, Move) -> bool,
    ) -> Option<Move> {
        loop {
            let mv = self.next_candidate(pos, ev, history, &keep)?;
            if keep(pos, mv) {
                return Some(mv);
            }
        }
    }

    /// The captures, scored by victim and attacker (most valuable victim, least valuable
    /// attacker) and promotion, the hash move left out.
    fn generate_captures(&mut self, pos: &mut Position, ev: &Evaluator) {
        pos.generate(GenMode::Search, Filter::Captures, &mut self.buffers.moves);
        self.buffers.clear_scored();
        self.buffers.bad.clear();
        for i in 0..self.buffers.moves.len() {
            let mv = self.buffers.moves[i];
            if Some(mv) == self.tt_move {
                continue;
            }
            let victim = captured_value(pos, ev, mv);
            let attacker = ev.value(pos.piece_on(mv.from()).kind());
            let promotion = if mv.is_promotion() { 50 } else { 0 };
            self.buffers
                .push_scored(mv, victim * 16 - attacker / 8 + promotion);
        }
        self.next = 0;
    }

    /// The quiet moves, scored by history and promotion, those tried already left out.
    fn generate_quiets(&mut self, pos: &mut Position, history: &History) {
        pos.generate(GenMode::Search, Filter::Quiets, &mut self.buffers.moves);
        self.buffers.clear_scored();
        let us = pos.side_to_move();
        for i in 0..self.buffers.moves.len() {
            let mv = self.buffers.moves[i];
            if self.already_tried(mv) {
                continue;
            }
            let kind = pos.piece_on(mv.from()).kind();
            let promotion = if mv.is_promotion() { 8_000 } else { 0 };
            let follow_up = self.answering.map_or(0, |(after, pct)| {
                history.follow_up_score(us, after, kind, mv.to()) * pct / 100
            });
            self.buffers
                .push_scored(mv, history.score(us, kind, mv.to()) + follow_up + promotion);
        }
        self.next = 0;
    }

    /// At a killer or countermove stage: moves on to the next stage and gives the stage's
    /// move if it is a usable quiet move not given before (`None`: none to give here).
    fn next_special_quiet(&mut self, pos: &mut Position) -> Option<Move> {
        let [first, second] = self.killers;
        let (mv, given_before, next_stage) = match self.stage {
            Stage::FirstKiller => (first, false, Stage::SecondKiller),
            Stage::SecondKiller => (second, second == first, Stage::CounterMove),
            _ => {
                let counter = self.counter;
                (
                    counter,
                    counter == first || counter == second,
                    Stage::GenerateQuiets,
                )
            }
        };
        self.stage = next_stage;
        (!given_before && self.usable_quiet(pos, mv)).then_some(mv)
    }

    /// The next move in order; `keep` is asked only before SEE (see [`MovePicker::next_kept`]).
    fn next_candidate(
        &mut self,
        pos: &mut Position,
        ev: &Evaluator,
        history: &History,
        keep: &impl Fn(&Position, Move) -> bool,
    ) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::GenerateCaptures;
                    if let Some(mv) = self.tt_move {
                        if (!self.captures_only || is_capture(pos, mv)) && pos.is_legal(mv) {
                            return Some(mv);
                        }
                        self.tt_move = None;
                    }
                }
                Stage::GenerateCaptures => {
                    self.generate_captures(pos, ev);
                    self.stage = Stage::GoodCaptures;
                }
                Stage::GoodCaptures => match self.pick_best() {
                    Some(mv) => {
                        if !keep(pos, mv) {
                            // Not searched here, so neither good nor bad: dropped.
                            continue;
                        }
                        if is_not_losing(pos, ev, mv) {
                            return Some(mv);
                        }
                        self.buffers.bad.push(mv);
                    }
                    None => {
                        self.stage = if self.captures_only {
                            Stage::Done
                        } else {
                            Stage::FirstKiller
                        };
                    }
                },
                Stage::FirstKiller | Stage::SecondKiller | Stage::CounterMove => {
                    if let Some(mv) = self.next_special_quiet(pos) {
                        return Some(mv);
                    }
                }
                Stage::GenerateQuiets => {
                    self.generate_quiets(pos, history);
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => match self.pick_best() {
                    Some(mv) => return Some(mv),
                    None => {
                        self.next = 0;
                        self.stage = Stage::BadCaptures;
                    }
                },
                Stage::BadCaptures => {
                    if self.next < self.buffers.bad.len() {
                        self.next += 1;
                        return Some(self.buffers.bad[self.next - 1]);
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng::Rng;
    use crate::variant::Variant;

    /// Perft through the picker (with random hash moves and killers from elsewhere in the
    /// tree) must equal perft through plain generation.
    fn picker_perft(
        pos: &mut Position,
        depth: u32,
        ev: &Evaluator,
        history: &History,
        rng: &mut Rng,
        seen: &mut Vec<Move>,
    ) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut generated = Vec::new();
        pos.legal_moves(GenMode::Search, &mut generated);
        let random = |rng: &mut Rng, seen: &Vec<Move>| {
            if seen.is_empty() {
                Move::NULL
            } else {
                seen[rng.below(seen.len())]
            }
        };
        let tt = if rng.below(2) == 0 {
            generated.first().copied()
        } else {
            Some(random(rng, seen))
        };
        let killers = [random(rng, seen), random(rng, seen)];
        let counter = random(rng, seen);
        let mut picker = MovePicker::new(
            PickerBuffers::default(),
            tt.filter(|m| *m != Move::NULL),
            killers,
            counter,
        );
        let mut picked = Vec::new();
        while let Some(mv) = picker.next(pos, ev, history) {
            picked.push(mv);
        }
        let mut a = picked.clone();
        a.sort();
        generated.sort();
        assert_eq!(a, generated, "{}", pos.to_sfen());
        seen.extend(picked.iter().copied());
        if seen.len() > 4000 {
            seen.drain(..2000);
        }
        let mut nodes = 0;
        for mv in picked {
            pos.make_move(mv);
            nodes += picker_perft(pos, depth - 1, ev, history, rng, seen);
            pos.unmake_move();
        }
        nodes
    }

    fn search_perft(pos: &mut Position, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut moves = Vec::new();
        pos.legal_moves(GenMode::Search, &mut moves);
        moves
            .iter()
            .map(|&mv| {
                pos.make_move(mv);
                let n = search_perft(pos, depth - 1);
                pos.unmake_move();
                n
            })
            .sum()
    }

    #[test]
    fn movepicker_perft_equals_movegen_perft() {
        let mut rng = Rng::new(3);
        for (variant, sfen, moves, depth) in [
            (
                Variant::chu(),
                "startpos",
                "8i8h 5d5e 7j8i 6c5d 8i8g 5d6e 8g7f 6e6f",
                3,
            ),
            (
                Variant::chu(),
                "11k/12/12/12/1n3ps5/2P1g1p5/3+D2+H2+h2/8+dP2/7p1GS1/12/12/K11 b - 1",
                "",
                3,
            ),
            (Variant::sho(), "startpos", "7g7f 3c3d 8h2b+ 3a2b", 3),
        ] {
            let mut pos = Position::from_sfen(variant, sfen).unwrap();
            pos.play_usi_moves(moves.split_whitespace()).unwrap();
            let ev = Evaluator::for_variant(variant);
            let history = History::new(64);
            let expected = search_perft(&mut pos.clone(), depth);
            let got = picker_perft(&mut pos, depth, ev, &history, &mut rng, &mut Vec::new());
            assert_eq!(got, expected, "{sfen}");
        }
    }
}
