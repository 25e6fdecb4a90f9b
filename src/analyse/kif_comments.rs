//! The words of an analysis beside a move: the KIF comment of a ply (the evaluation from
//! sente's view, the mark and the best line in KIF notation, a mate note). The annotated
//! KIF and the report page both take them from here.

use super::judgement::Judgement;
use super::results::{MateResult, PlyResult};
use crate::core::score::{mate_plies, Score};
use crate::position::Position;
use crate::variant::Variant;

/// A KIF comment with the mate note, if any, on a line of its own.
pub(crate) fn with_mate_note(comment: String, mate: Option<&MateResult>) -> String {
    match mate.and_then(MateResult::note) {
        Some(note) if comment.is_empty() => note,
        Some(note) => format!("{comment}\n{note}"),
        None => comment,
    }
}

/// The KIF comment of an analysed ply (`pos` before the move, `last_to` the square of the
/// move before it): the evaluation after the move from sente's point of view, labelled as
/// such (a mate as `N手詰` for the side that mates), and for a judged move the judgement
/// and the best line in the KIF notation of the moves, with its evaluation.
pub(crate) fn ply_comment(
    pos: &Position,
    last_to: Option<crate::core::Square>,
    played: Score,
    best: Option<(&[crate::core::Move], Score)>,
    verdict: Option<Judgement>,
) -> String {
    let mover = pos.side_to_move();
    let mut out = format!("評価値 {}（先手から見て）", after_move_view(played, mover));
    if let (Some((line, score)), Some(v)) = (best, verdict) {
        let shown = &line[..line.len().min(BEST_LINE_MOVES)];
        out += &format!(
            "\n{} ({}): 最善 {} {}",
            v.kanji(),
            v.name(),
            crate::records::kif_line_marked(pos, shown, last_to),
            sente_view(score, mover)
        );
    }
    out
}

/// How many moves of the best line a KIF comment shows.
pub(crate) const BEST_LINE_MOVES: usize = 6;

/// The evaluation after a move, as sente sees it, from the move's score for `mover`
/// (mates counted from before the move): `+1.28`, a mate counted from the position after
/// the move (`先手の1手詰` when sente takes the king next), or the game's end when the move
/// ends it (`先手の勝ち`).
pub fn after_move_view(played: Score, mover: crate::core::Color) -> String {
    use crate::core::Color::Sente;
    let name = |c| if c == Sente { "先手" } else { "後手" };
    match mate_plies(played) {
        Some(p) => {
            let winner = if p > 0 { mover } else { mover.flip() };
            match p.abs() - 1 {
                0 => format!("{}の勝ち", name(winner)),
                left => format!("{}の{left}手詰", name(winner)),
            }
        }
        None => sente_view(played, mover),
    }
}

/// A score of `mover`'s as sente sees it: `+1.28` (centipawns / 100), or `先手の7手詰`.
pub(crate) fn sente_view(score: Score, mover: crate::core::Color) -> String {
    use crate::core::Color::Sente;
    let name = |c| if c == Sente { "先手" } else { "後手" };
    match mate_plies(score) {
        Some(p) if p > 0 => format!("{}の{p}手詰", name(mover)),
        Some(p) => format!("{}の{}手詰", name(mover.flip()), -p),
        None => {
            let cp = if mover == Sente { score } else { -score };
            format!("{:+.2}", f64::from(cp) / 100.0)
        }
    }
}

/// The KIF comment of a ply analysed by an earlier run (from its result line: the
/// position, the scores, the best line), as the run that analysed it wrote it (`last_to`:
/// the square of the move before).
pub(crate) fn comment_from_result(
    result: &PlyResult,
    variant: &'static Variant,
    last_to: Option<crate::core::Square>,
) -> Option<String> {
    let pos = Position::from_sfen(variant, &result.sfen).ok()?;
    let played = result.played_score?.score();
    let mut line = Vec::new();
    let mut after = pos.clone();
    for text in result.pv.as_deref().unwrap_or("").split_whitespace() {
        let Ok(mv) = after.parse_usi_path(text) else {
            break;
        };
        line.push(mv);
        after.make_move(mv);
    }
    let best = result.best_score.map(|score| (&line[..], score.score()));
    Some(with_mate_note(
        ply_comment(&pos, last_to, played, best, result.judgement),
        result.mate.as_ref(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::score::{mate_in, mated_in};
    use crate::variant::Variant;

    #[test]
    fn kif_comments_say_whose_view_and_show_the_best_line_in_kif() {
        use crate::core::Color::{Gote, Sente};
        // Issue 25: scores flipped sign every ply with no word of whose view they were,
        // and the best move was USI inside Japanese notation.
        assert_eq!(sente_view(128, Sente), "+1.28");
        assert_eq!(sente_view(128, Gote), "-1.28");
        assert_eq!(sente_view(mate_in(7), Gote), "後手の7手詰");
        assert_eq!(sente_view(mated_in(4), Gote), "先手の4手詰");
        // Issue 49: after a move, a mate is counted from the position the move left, and a
        // move that ends the game says so (not 先手の2手詰 when the king falls next move,
        // nor 1手詰 after the last capture).
        assert_eq!(after_move_view(mated_in(2), Gote), "先手の1手詰");
        assert_eq!(after_move_view(mate_in(1), Sente), "先手の勝ち");
        assert_eq!(after_move_view(mate_in(7), Gote), "後手の6手詰");
        assert_eq!(after_move_view(-35, Gote), "+0.35");
        let pos = Position::startpos(Variant::chu());
        let line: Vec<_> = ["7i7h", "7d7e", "7j7i6h"]
            .iter()
            .scan(pos.clone(), |p, m| {
                let mv = p.parse_usi_path(m).ok()?;
                p.make_move(mv);
                Some(mv)
            })
            .collect();
        let comment = ply_comment(
            &pos,
            None,
            -250,
            Some((&line, 40)),
            Some(Judgement::Blunder),
        );
        assert_eq!(
            comment,
            "評価値 -2.50（先手から見て）\n大悪手 (blunder): 最善 ☗7八歩兵 （←7九）  \
☖7五歩兵 （←7四）  ☗一歩目 7九獅子 （←7十） 二歩目 6八獅子 （←7九） +0.40"
        );
    }
}
