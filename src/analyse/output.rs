//! The files of an analysed game: the annotated KIF and the report page, each created new
//! (`files.rs`), with the comments of `kif_comments.rs`.

use super::error::AnalyseError;
use super::files::{kif_file_name, write_new_file};
use super::input::GameJob;
use super::results::PlyResult;
use super::summary::SideSummary;
use super::{report, AnalysisSettings};
use crate::position::Position;
use crate::records::{game_to_kif, Game, GameResult};

/// How a game ended: the board's verdict where it ended on the board; else what the record
/// says (a resignation, a time loss); else unfinished (`*`).
pub(crate) fn game_result(job: &GameJob, end: &mut Position) -> GameResult {
    end.outcome()
        .map(|o| GameResult::won_by(o.winner))
        .or(job.game.result)
        .unwrap_or(GameResult::Unfinished)
}

/// Writes a game's HTML report (named like its KIF, `.html`; never over an earlier file).
pub(crate) fn write_game_report(
    dir: &std::path::Path,
    job: &GameJob,
    result: GameResult,
    ply_results: &[Option<PlyResult>],
    summary: &[SideSummary; 2],
    settings: &AnalysisSettings,
) -> Result<std::path::PathBuf, AnalyseError> {
    let page = report::render(&report::GameReport {
        id: &job.id,
        start: Position::from_sfen(job.game.variant, &job.game.start_sfen)?,
        moves: &job.game.moves,
        results: ply_results,
        names: (&job.game.players.sente, &job.game.players.gote),
        header: &job.game.tags,
        result,
        summary,
        thresholds: settings.thresholds,
        times_ms: &job.game.times_ms,
    })?;
    write_new_file(dir, &report::report_file_name(&job.id), &page)
}

/// Writes a game's annotated KIF (named by [`kif_file_name`], created by [`write_new_file`]).
pub(crate) fn write_game_kif(
    dir: &std::path::Path,
    job: &GameJob,
    result: GameResult,
    comments: Vec<String>,
) -> Result<std::path::PathBuf, AnalyseError> {
    let text = annotated_kif(job, result, comments)?;
    write_new_file(dir, &kif_file_name(&job.id), &text)
}

/// A game's annotated KIF: the record's, with the analysis's result and comments, and its
/// own header tags (or the analysis's name of itself).
pub(crate) fn annotated_kif(
    job: &GameJob,
    result: GameResult,
    comments: Vec<String>,
) -> Result<String, AnalyseError> {
    let own_tags = vec![(
        "棋戦".to_string(),
        format!("shishi analyse ({})", job.game.variant.name()),
    )];
    let game = Game {
        result: Some(result),
        comments,
        tags: if job.game.tags.is_empty() {
            own_tags
        } else {
            job.game.tags.clone()
        },
        ..job.game.clone()
    };
    game_to_kif(&game, "analysed by shishi").map_err(AnalyseError::AnnotatedKif)
}
