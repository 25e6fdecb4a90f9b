//! Reading back what an analysis wrote before (`--resume`): the result lines of an output
//! file by the key of what they analysed.

use super::error::{file_error, AnalyseError, ResultLineProblem};
use super::files::fnv1a;
use super::judgement::Judgement;
use super::results::ResultLine;
use serde_json::Value;
use std::collections::HashMap;

/// The key of an earlier result, by which `--resume` finds it: what was analysed, not only
/// where it stood in a record, so that two records with one id (two match runs both
/// numbering from 1 into one output, `a/game.kif` and `b/game.kif`) never take each
/// other's results.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ResultKey {
    /// A position.
    Position {
        /// The record's id.
        id: String,
        /// The position analysed (SFEN).
        sfen: String,
    },
    /// A ply of a game.
    Ply {
        /// The record's id.
        id: String,
        /// The ply (1 = the first move).
        ply: u64,
        /// The position before the move (SFEN).
        sfen: String,
        /// The move played (USI).
        played: String,
    },
    /// A game's summary line.
    Summary {
        /// The record's id.
        id: String,
        /// The game's fingerprint ([`game_fingerprint`]).
        game: String,
    },
}

/// A game's fingerprint for its summary line: a hash of its variant, start and moves.
pub(crate) fn game_fingerprint(variant: &str, sfen: &str, moves: &[String]) -> String {
    let text = format!("{variant} {sfen} {}", moves.join(" "));
    format!("{:016x}", fnv1a(text.as_bytes()))
}

/// The key of a result line read back.
pub(crate) fn key_of_line(line: &ResultLine) -> ResultKey {
    match line {
        ResultLine::Summary(s) => ResultKey::Summary {
            id: s.id.clone(),
            game: s.game.clone(),
        },
        ResultLine::Ply(p) => ResultKey::Ply {
            id: p.id.clone(),
            ply: p.ply,
            sfen: p.sfen.clone(),
            played: p.played.clone(),
        },
        ResultLine::Position(p) => ResultKey::Position {
            id: p.id.clone(),
            sfen: p.sfen.clone(),
        },
    }
}

/// The earlier results of a run, by what they analysed (`--resume`).
pub type EarlierResults = HashMap<ResultKey, ResultLine>;

/// The results an output file already holds, by key, for `--resume`.
///
/// Exact: a last line cut off by an interrupted run (no newline at its end) is dropped
/// from the file and redone; any other line that is not UTF-8, not JSON or has no `id` is
/// an error naming the file and line (nothing is analysed then, nothing is duplicated,
/// and the file is left as it was, its last line too). A missing file holds nothing; a
/// pipe or device is refused (it cannot be read back).
pub fn done_results(path: &std::path::Path) -> Result<EarlierResults, AnalyseError> {
    match std::fs::metadata(path) {
        Ok(meta) if !meta.is_file() => {
            return Err(AnalyseError::NotAFile {
                path: path.to_path_buf(),
            })
        }
        _ => {}
    }
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(HashMap::new()),
        Err(e) => return Err(file_error(path)(e)),
    };
    let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let (lines, unfinished) = bytes.split_at(complete);
    // Every finished line is checked before anything is written: a file that is not a
    // results file is refused whole and left as it was.
    let done = read_result_lines(path, lines)?;
    if !unfinished.is_empty() {
        // A killed run leaves the start of a result line; anything else is not ours.
        if !unfinished.starts_with(b"{") {
            return Err(AnalyseError::ResultLine {
                path: path.to_path_buf(),
                line: lines.split(|&b| b == b'\n').count(),
                problem: ResultLineProblem::NotJson,
            });
        }
        log::warn!(
            "{}: dropping an unfinished last line ({} bytes); it is analysed again",
            path.display(),
            unfinished.len()
        );
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(file_error(path))?;
        file.set_len(complete as u64).map_err(file_error(path))?;
    }
    Ok(done)
}

/// The result lines of `bytes` (whole lines of `path`), by key; the first line that is
/// not a result line is an error naming it.
fn read_result_lines(path: &std::path::Path, bytes: &[u8]) -> Result<EarlierResults, AnalyseError> {
    let mut done = HashMap::new();
    for (n, line) in bytes.split(|&b| b == b'\n').enumerate() {
        let at = |problem| AnalyseError::ResultLine {
            path: path.to_path_buf(),
            line: n + 1,
            problem,
        };
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let text = std::str::from_utf8(line).map_err(|_| at(ResultLineProblem::NotText))?;
        let value: Value =
            serde_json::from_str(text).map_err(|_| at(ResultLineProblem::NotJson))?;
        if let Some(judgement) = value.get("judgement").filter(|j| !j.is_null()) {
            if judgement.as_str().and_then(Judgement::parse).is_none() {
                return Err(at(ResultLineProblem::UnknownJudgement(
                    judgement.to_string(),
                )));
            }
        }
        let line = ResultLine::from_json(value).map_err(|e| at(ResultLineProblem::Field(e)))?;
        done.insert(key_of_line(&line), line);
    }
    Ok(done)
}
