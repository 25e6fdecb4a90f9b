//! The files of an analysed game: the annotated KIF and the report page, each created new
//! (`files.rs`), with the comments of `kif_comments.rs`.

use super::error::AnalyseError;
use super::files::{kif_file_name, write_new_file};
use super::input::GameJob;
use super::results::PlyResult;
use super::summary::SideSummary;
use super::{report, AnalysisSettings};
use crate::position::Position;
use crate::records::{to_kif_with_header, GameRecord, GameResult};

/// How a game ended: the board's verdict where it ended on the board; else what the record
/// says (a resignation, a time loss); else unfinished (`*`).
pub(crate) fn game_result(job: &GameJob, end: &mut Position) -> GameResult {
    end.outcome()
        .map(|o| GameResult::won_by(o.winner))
        .or(job.result)
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
        start: Position::from_sfen(job.variant, &job.sfen)?,
        moves: &job.moves,
        results: ply_results,
        names: (&job.names.0, &job.names.1),
        header: &job.header,
        result,
        summary,
        thresholds: settings.thresholds,
        times_ms: &job.times_ms,
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
    let GameJob {
        id,
        variant,
        sfen,
        moves,
        names,
        header,
        times_ms,
        ..
    } = job;
    // The input's move times are kept where it has one for every move.
    let times_ms: Vec<u64> = times_ms
        .iter()
        .copied()
        .collect::<Option<_>>()
        .unwrap_or_default();
    let record = GameRecord {
        game: 0,
        variant,
        initial_sfen: sfen.clone(),
        moves: moves.join(" "),
        result,
        reason: "analysed by shishi".into(),
        forfeit: false,
        sente: names.0.clone(),
        gote: names.1.clone(),
        times_ms: if times_ms.len() == moves.len() {
            times_ms
        } else {
            Vec::new()
        },
        comments,
        opening: 0,
        // No date of the run: the same analysis writes the same file, which a resumed run
        // recognises as its own (see `write_new_file`).
        date: String::new(),
    };
    let own_header = [(
        "棋戦".to_string(),
        format!("shishi analyse ({})", variant.name()),
    )];
    let header = if header.is_empty() {
        &own_header[..]
    } else {
        header
    };
    let text = to_kif_with_header(&record, header).map_err(AnalyseError::AnnotatedKif)?;
    write_new_file(dir, &kif_file_name(id), &text)
}
