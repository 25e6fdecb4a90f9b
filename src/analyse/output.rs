//! What an analysis writes: the result lines (JSON) and reading them back for `--resume`,
//! the KIF comments, the annotated KIF and the report page, each file created new.

use super::error::{file_error, AnalyseError, ResultLineProblem};
use super::input::GameJob;
use super::judgement::Judgement;
use super::results::{MateResult, PlyResult, ResultLine};
use super::summary::SideSummary;
use super::{report, Settings};
use crate::core::score::{mate_plies, Score};
use crate::position::Position;
use crate::records::{to_kif_with_header, GameRecord, GameResult};
use crate::variant::Variant;
use serde_json::Value;
use std::collections::HashMap;
use std::io::Write;

/// A KIF comment with the mate note, if any, on a line of its own.
pub(crate) fn with_mate_note(comment: String, mate: Option<&MateResult>) -> String {
    match mate.and_then(MateResult::note) {
        Some(note) if comment.is_empty() => note,
        Some(note) => format!("{comment}\n{note}"),
        None => comment,
    }
}

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

/// FNV-1a: stable across Rust versions and machines, unlike the standard hasher.
pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
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
pub type Done = HashMap<ResultKey, ResultLine>;

/// The results an output file already holds, by key, for `--resume`.
///
/// Exact: a last line cut off by an interrupted run (no newline at its end) is dropped
/// from the file and redone; any other line that is not UTF-8, not JSON or has no `id` is
/// an error naming the file and line (nothing is analysed then, nothing is duplicated,
/// and the file is left as it was, its last line too). A missing file holds nothing; a
/// pipe or device is refused (it cannot be read back).
pub fn done_results(path: &std::path::Path) -> Result<Done, AnalyseError> {
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
fn read_result_lines(path: &std::path::Path, bytes: &[u8]) -> Result<Done, AnalyseError> {
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

/// The file name of a game's KIF: the id where it is a safe name; otherwise the id with
/// unsafe characters replaced and a hash of the whole id added, so that ids such as `a/b`
/// and `a?b` get names of their own (protocol-docs/analyse.md). A long id is cut to
/// [`FILE_STEM_MAX_BYTES`] before its hash, so that every name fits a file system's 255 bytes.
pub fn kif_file_name(id: &str) -> String {
    let safe: String = id
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' || c == '~' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if safe == id && !id.is_empty() && id.len() <= FILE_STEM_MAX_BYTES {
        return format!("{id}.kif");
    }
    let mut cut = FILE_STEM_MAX_BYTES.min(safe.len());
    while !safe.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{}-{:08x}.kif", &safe[..cut], fnv1a(id.as_bytes()) as u32)
}

/// The longest file name stem taken from an id, in bytes: with the hash, a `-N` for a
/// taken name and the extension, a name stays far below the 255 bytes file systems allow.
pub(crate) const FILE_STEM_MAX_BYTES: usize = 160;

/// Writes a game's file `name` (`NAME.kif`, `NAME.html`) in `dir`, never over another
/// file: each name is created new (so two workers, or a symbolic link left in the folder,
/// cannot make it write over or through anything). A name that is taken goes to the next,
/// `NAME-2.kif`, `NAME-3.kif`, ...; a taken name that holds exactly `content` already is
/// this file, written by an earlier run (`--resume`), and is left as it is. Returns the
/// file's path.
pub(crate) fn write_new_file(
    dir: &std::path::Path,
    name: &str,
    content: &str,
) -> Result<std::path::PathBuf, AnalyseError> {
    std::fs::create_dir_all(dir).map_err(file_error(dir))?;
    let (stem, extension) = name.rsplit_once('.').unwrap_or((name, ""));
    let holds_content = |path: &std::path::Path| {
        let is_plain_file = std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file());
        is_plain_file && std::fs::read(path).is_ok_and(|old| old == content.as_bytes())
    };
    match create_numbered(dir, stem, extension, holds_content) {
        Ok(NewFile::Created(path, mut file)) => {
            file.write_all(content.as_bytes())
                .map_err(file_error(&path))?;
            Ok(path)
        }
        Ok(NewFile::Ours(path)) => Ok(path),
        Err((path, e)) => Err(file_error(&path)(e)),
    }
}

/// A file [`create_numbered`] found a name for.
pub enum NewFile {
    /// Made new and empty, open for writing.
    Created(std::path::PathBuf, std::fs::File),
    /// A taken name that the caller's test claimed as its own file.
    Ours(std::path::PathBuf),
}

/// Makes a new file in `dir` named `STEM.EXTENSION`, or where that is taken `STEM-2.EXTENSION`,
/// `STEM-3.EXTENSION`, ...: each name is created new (never an existing file opened, never
/// through a symbolic link, never a name another process has just made). A taken name for
/// which `is_ours` says yes is returned as it is. The one home of "a free file name"; the
/// error names the path it happened at.
pub fn create_numbered(
    dir: &std::path::Path,
    stem: &str,
    extension: &str,
    is_ours: impl Fn(&std::path::Path) -> bool,
) -> Result<NewFile, (std::path::PathBuf, std::io::Error)> {
    let dot = if extension.is_empty() { "" } else { "." };
    let mut n = 1u64;
    loop {
        let path = match n {
            1 => dir.join(format!("{stem}{dot}{extension}")),
            _ => dir.join(format!("{stem}-{n}{dot}{extension}")),
        };
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
        {
            Ok(file) => return Ok(NewFile::Created(path, file)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                if is_ours(&path) {
                    return Ok(NewFile::Ours(path));
                }
            }
            Err(e) => return Err((path, e)),
        }
        n += 1;
    }
}

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
    settings: &Settings,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::score::{mate_in, mated_in};
    use crate::variant::Variant;

    #[test]
    fn a_free_name_is_made_new_and_numbered_and_a_claimed_one_kept() {
        let dir = std::env::temp_dir().join(format!("shishi-numbered-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let made =
            |stem: &str, ext: &str, ours: bool| match create_numbered(&dir, stem, ext, |_| ours) {
                Ok(NewFile::Created(path, _)) => {
                    format!("new {}", path.file_name().unwrap().to_string_lossy())
                }
                Ok(NewFile::Ours(path)) => {
                    format!("ours {}", path.file_name().unwrap().to_string_lossy())
                }
                Err((path, e)) => format!("error {}: {e}", path.display()),
            };
        assert_eq!(made("game", "kif", false), "new game.kif");
        assert_eq!(made("game", "kif", false), "new game-2.kif");
        assert_eq!(made("game", "kif", true), "ours game.kif");
        assert_eq!(made("notes", "", false), "new notes");
        assert_eq!(made("notes", "", false), "new notes-2");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn file_names_are_those_analyse_md_shows() {
        // protocol-docs/analyse.md's example (issue 55, case 12: it showed another hash).
        assert_eq!(kif_file_name("a/b"), "a_b-0468cf61.kif");
        assert_eq!(kif_file_name("game-1"), "game-1.kif");
    }

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
