//! A game's review in one go, for a page (the USI `review` command): the analysis that
//! `shishi analyse` makes of a game, with its settings' defaults, ply by ply, stoppable,
//! and what a page shows of each ply (the move in KIF, the evaluation from sente's side,
//! the mark and its words, the best line) and of the game (each side's figures, the
//! critical moments, the annotated KIF). Nothing here judges: the plies are analysed by
//! the same code as the command line's, so a page's review and `shishi analyse` on the
//! same game and limits give the same results.

use super::input::GameJob;
use super::judgement::{chance_points, Judgement};
use super::output::annotated_kif;
use super::progress::RunSummary;
use super::report::{eval_text, ply_view, EvalData, PlyView};
use super::results::{PlyResult, ResultLine, SummaryLine};
use super::summary::critical_moments;
use super::{analyse_plies, game_end, stopped, summary_line, AnalyseError, AnalysisSettings};
use super::{EarlierResults, GameEnd, Run};
use crate::core::Square;
use crate::position::Position;
use crate::records::{Game, GameResult};
use crate::search::Searcher;
use serde::Serialize;
use std::sync::Mutex;

/// One ply reviewed, as a page shows it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReviewedPly {
    /// The result line, as `shishi analyse` writes it.
    pub line: PlyResult,
    /// The move in KIF notation, after its mover's mark (☗, ☖).
    kif: String,
    /// `sente` or `gote`.
    mover: &'static str,
    /// The evaluation after the move, from sente's side: winning chances (-1 to 1) and text.
    eval: Option<EvalData>,
    /// The mark, if the move gave away enough.
    judgement: Option<Mark>,
    /// Points of winning chance (0-100%) the move gave away against the best move.
    chances_down: i64,
    /// The best line in KIF notation, for a judged move.
    best: Option<String>,
}

/// A move's judgement as a page writes it: lishogi's glyph and words.
#[derive(Serialize)]
pub struct Mark {
    /// `inaccuracy`, `mistake` or `blunder` (also the page's style class).
    name: &'static str,
    /// `?!`, `?` or `??`.
    glyph: &'static str,
    /// `Inaccuracy`, `Mistake` or `Blunder`.
    words: &'static str,
    /// 疑問手, 悪手 or 大悪手.
    kanji: &'static str,
}

impl Mark {
    fn of(j: Judgement) -> Mark {
        Mark {
            name: j.name(),
            glyph: j.glyph(),
            words: j.words(),
            kanji: j.kanji(),
        }
    }
}

/// The review's end: the game's figures and critical moments.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReviewSummary {
    /// The summary line, as `shishi analyse` writes it (each side's figures).
    pub line: SummaryLine,
    /// The critical moments' plies (1 = the first move), worst first.
    pub critical: Vec<usize>,
    /// The plies analysed.
    pub analysed: usize,
    /// The game's plies.
    pub plies: usize,
    /// Whether the review was stopped before the game's end.
    pub stopped: bool,
    /// How the game ended (the board's verdict, else the record's, else `*`).
    pub result: GameResult,
}

/// The whole review: the summary and the annotated KIF.
pub struct ReviewEnd {
    /// The figures and critical moments.
    pub summary: ReviewSummary,
    /// The game as KIF, each analysed move's comment after it.
    pub kif: String,
}

/// Reviews `game` with `settings` (see [`AnalysisSettings::review`]), giving each ply to
/// `on_ply` as it is analysed; ends early, with the plies analysed so far, when the
/// settings' task is stopped.
pub fn review(
    game: &Game,
    settings: &AnalysisSettings,
    on_ply: &(dyn Fn(&ReviewedPly) + Sync),
) -> Result<ReviewEnd, AnalyseError> {
    let job = GameJob {
        id: "review".to_string(),
        game: game.clone(),
    };
    let mut searcher = Searcher::try_new(settings.hash_mb)?;
    // The plies come in order from the first: the page's view of each is made on a
    // replay of the game (the square of the move before names a `仝` move).
    let replay: Mutex<(Position, Option<Square>)> =
        Mutex::new((Position::from_sfen(game.variant, &game.start_sfen)?, None));
    let emit = |line: &ResultLine| {
        let ResultLine::Ply(result) = line else {
            return;
        };
        let mut replay = replay.lock().unwrap_or_else(|e| e.into_inner());
        let (pos, last_to) = &mut *replay;
        let Ok(played) = pos.parse_usi_path(&result.played) else {
            return;
        };
        let view = ply_view(pos, played, Some(result), *last_to, None);
        on_ply(&reviewed_ply(&view, result));
        *last_to = Some(played.to());
        pos.make_move(played);
    };
    let finished = Mutex::new(RunSummary::default());
    let run = Run {
        settings,
        done: &EarlierResults::default(),
        emit: &emit,
        finished: &finished,
    };
    let (plies, mut end) = analyse_plies(&mut searcher, &job, &run)?;
    let analysed = plies.iter().flatten().count();
    let GameEnd {
        summary,
        result,
        comments,
        results,
    } = game_end(&job, &mut end, plies);
    Ok(ReviewEnd {
        summary: ReviewSummary {
            line: summary_line(&job, &summary),
            critical: critical_moments(results.iter().map(|r| r.as_ref()?.judged_loss()))
                .iter()
                .map(|i| i + 1)
                .collect(),
            analysed,
            plies: game.moves.len(),
            stopped: stopped(settings),
            result,
        },
        kif: annotated_kif(&job, result, comments)?,
    })
}

/// What a page shows of a ply: the analysis's `result`, and the report's `view` of it.
fn reviewed_ply(view: &PlyView, result: &PlyResult) -> ReviewedPly {
    ReviewedPly {
        line: result.clone(),
        kif: format!("{}{}", view.mover.mark(), view.kif),
        mover: view.mover.name(),
        eval: view.eval.map(eval_text),
        judgement: view.judgement.map(Mark::of),
        chances_down: chance_points(view.chances_lost),
        best: view.best.as_ref().map(|b| b.text.clone()),
    }
}
