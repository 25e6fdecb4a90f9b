//! How a move of a game is judged: by the evaluation of the position after it, as lishogi
//! and lichess judge moves, against the best move's, each valued by a search of the
//! position after it, so that a move is never judged by a shallower look than its
//! alternative.
//!
//! For the move played from position `P`:
//! - its value is the search of the position after it (the next ply's evaluation, which
//!   the analysis makes anyway), or the game's end when it ends the game;
//! - when the search of `P` preferred another move, that move's value comes from a search
//!   of the position after it too, with the same budget;
//! - when the search of `P` chose the move played but the position after it is worth
//!   markedly less than `P` seemed, the best other move of `P` is found and valued the same
//!   way: the move is judged against it only if it does better than the move played.

use super::judgement::{judge, Judgement};
use super::search::{search, Analysis};
use super::AnalysisSettings;
use crate::core::score::{Score, MATE_BOUND};
use crate::core::Move;
use crate::position::{GenMode, Position};
use crate::search::Searcher;

/// A move's value from the mover's side, with the line after it.
#[derive(Clone, Debug, PartialEq)]
pub struct Valued {
    /// The move.
    pub mv: Move,
    /// Its value from the mover's side (mates counted in plies from before the move).
    pub score: Score,
    /// The move and the best line after it.
    pub line: Vec<Move>,
    /// The depth of the search after it (0 when the move ends the game).
    pub depth: i32,
}

/// The verdict on one move.
#[derive(Clone, Debug)]
pub struct PlyVerdict {
    /// The move played, valued.
    pub played: Valued,
    /// The best move found and its value (the move played when nothing was better).
    pub best: Valued,
    /// Winning chances given away, hundredths (0 when the best is the move played).
    pub chances_lost: i32,
    /// The judgement, if the move gave away enough.
    pub judgement: Option<Judgement>,
    /// The nodes of every search this verdict took, the search of `P` included.
    pub nodes: u64,
    /// The search of the position after the move played (the next ply's evaluation,
    /// reused by the next ply), `None` when the move ends the game.
    pub after: Option<Analysis>,
}

/// A score of the position after a move, from the side to move there, as the mover sees
/// it: negated, and a mate one ply further away.
pub fn from_parent(score: Score) -> Score {
    if score > MATE_BOUND {
        -score + 1
    } else if score < -MATE_BOUND {
        -score - 1
    } else {
        -score
    }
}

/// Values `mv` from `pos` by a search of the position after it (or the game's end); also
/// returns that search.
fn value_after(
    searcher: &mut Searcher,
    pos: &Position,
    mv: Move,
    settings: &AnalysisSettings,
) -> (Valued, Option<Analysis>, u64) {
    let mut after = pos.clone();
    after.make_move(mv);
    if let Some(outcome) = after.outcome() {
        let score = match outcome.winner {
            Some(w) if w == pos.side_to_move() => crate::core::score::mate_in(1),
            Some(_) => crate::core::score::mated_in(1),
            None => 0,
        };
        let valued = Valued {
            mv,
            score,
            line: vec![mv],
            depth: 0,
        };
        return (valued, None, 0);
    }
    let analysis = search(searcher, &after, settings, 1);
    let nodes = analysis.nodes;
    let (score, line, depth) = match analysis.lines.first() {
        Some(l) => (
            from_parent(l.score),
            std::iter::once(mv).chain(l.pv.iter().copied()).collect(),
            l.depth,
        ),
        // No iteration finished after it (a tiny budget): its static worth is unknown, and
        // the move is taken as even rather than made up.
        None => (0, vec![mv], 0),
    };
    let valued = Valued {
        mv,
        score,
        line,
        depth,
    };
    (valued, Some(analysis), nodes)
}

/// The best move of `pos` other than `excluded`, by a search of `pos` with the same budget.
fn best_other_move(
    searcher: &mut Searcher,
    pos: &Position,
    excluded: Move,
    settings: &AnalysisSettings,
) -> (Option<Move>, u64) {
    let mut moves = Vec::new();
    pos.clone().legal_moves(GenMode::Search, &mut moves);
    let excluded = pos.canonical(excluded);
    moves.retain(|&m| pos.canonical(m) != excluded);
    if moves.is_empty() {
        return (None, 0);
    }
    let mut restricted = settings.clone();
    restricted.limits.search_moves = moves;
    let a = search(searcher, pos, &restricted, 1);
    (a.lines.first().and_then(|l| l.pv.first().copied()), a.nodes)
}

/// Judges `played` from `pos`, given the search of `pos` (`before`, with at least one
/// line). See the module's doc.
pub fn judge_ply(
    searcher: &mut Searcher,
    pos: &Position,
    played: Move,
    before: &Analysis,
    settings: &AnalysisSettings,
) -> PlyVerdict {
    let mut nodes = before.nodes;
    let (played_value, after, n) = value_after(searcher, pos, played, settings);
    nodes += n;
    let first = &before.lines[0];
    let preferred = first.pv.first().copied();
    let chosen = preferred.is_some_and(|b| pos.canonical(b) == pos.canonical(played));
    let mut best = played_value.clone();
    if !chosen {
        if let Some(b) = preferred {
            let (valued, _, n) = value_after(searcher, pos, b, settings);
            nodes += n;
            if valued.score > best.score {
                best = valued;
            }
        }
    } else if judge(first.score, played_value.score, &settings.thresholds)
        .1
        .is_some()
    {
        // The search of `pos` chose this move, and the look after it found it worth much
        // less: was another move better, looked at as deeply?
        let (other, n) = best_other_move(searcher, pos, played, settings);
        nodes += n;
        if let Some(c) = other {
            let (valued, _, n) = value_after(searcher, pos, c, settings);
            nodes += n;
            if valued.score > best.score {
                best = valued;
            }
        }
    }
    let (chances_lost, judgement) = judge(best.score, played_value.score, &settings.thresholds);
    PlyVerdict {
        played: played_value,
        best,
        chances_lost,
        judgement,
        nodes,
        after,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::score::{mate_in, mated_in};

    #[test]
    fn a_score_after_a_move_is_the_movers_one_ply_further() {
        assert_eq!(from_parent(120), -120);
        assert_eq!(from_parent(mate_in(1)), mated_in(2));
        assert_eq!(from_parent(mated_in(2)), mate_in(3));
        assert_eq!(from_parent(0), 0);
    }
}
