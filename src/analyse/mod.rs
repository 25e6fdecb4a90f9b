//! `shishi analyse`: batch analysis of positions and games, on all cores.
//!
//! Positions are independent, so rayon runs them across `workers` threads, each search with
//! a small table of its own, cleared before every search so that results do not depend on
//! the order of work (one thread and a node limit give the same output every run). A game
//! is analysed ply by ply; each move is compared with the best move and judged (inaccuracy,
//! mistake, blunder). Output is JSON lines, written as results come; `--resume` skips what
//! the output file already holds. Games can also be written as annotated KIF files.

pub mod input;
pub mod report;
pub mod summary;
pub mod verdict;

use crate::core::score::{mate_plies, Score};
use crate::mate::Verdict;
use crate::position::Position;
use crate::records::{to_kif_with_header, GameRecord, GameResult};
use crate::search::{
    Info, Limits, Observer, Request, SearchControl, SearchOptions, Searcher, Task,
};
use crate::variant::Variant;
use input::Job;
use rayon::prelude::*;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::io::Write;
use std::sync::Mutex;

/// Judgement thresholds: the winning chances a move gives away against the best move, in
/// hundredths of the scale from -1 (lost) to +1 (won) of [`winning_chances`] (lichess judges
/// moves this way, with 10, 20 and 30; lishogi's analysis descends from lichess's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thresholds {
    /// At least this is an inaccuracy.
    pub inaccuracy: i32,
    /// At least this is a mistake.
    pub mistake: i32,
    /// At least this is a blunder.
    pub blunder: i32,
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds {
            inaccuracy: 10,
            mistake: 20,
            blunder: 30,
        }
    }
}

/// What a move is judged to be, by the winning chances it gave away ([`Thresholds`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Judgement {
    /// `?!`
    Inaccuracy,
    /// `?`
    Mistake,
    /// `??`
    Blunder,
}

impl Judgement {
    /// The name in result lines and the report: `inaccuracy`, `mistake`, `blunder`.
    pub fn name(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "inaccuracy",
            Judgement::Mistake => "mistake",
            Judgement::Blunder => "blunder",
        }
    }

    /// A name read back (`--resume`); `None` for anything else.
    pub fn parse(name: &str) -> Option<Judgement> {
        [
            Judgement::Inaccuracy,
            Judgement::Mistake,
            Judgement::Blunder,
        ]
        .into_iter()
        .find(|j| j.name() == name)
    }

    /// The mark after a move: `?!`, `?`, `??`.
    pub fn glyph(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "?!",
            Judgement::Mistake => "?",
            Judgement::Blunder => "??",
        }
    }

    /// The words lishogi's analysis uses (疑問手, 悪手, 大悪手).
    pub fn kanji(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "疑問手",
            Judgement::Mistake => "悪手",
            Judgement::Blunder => "大悪手",
        }
    }
}

/// The slope of [`winning_chances`] per centipawn: lichess's, fitted to its players' games
/// (lishogi's own constant was not checked here). At 300 cp the chances are 0.50, at
/// 1000 cp 0.95: a position ten pawns up is won, and losing a pawn there changes little.
/// Not yet fitted to chu games (Shishi's centipawns are its own).
const WINNING_CHANCES_PER_CP: f64 = 0.003_682_08;

/// The chances that a score gives the side it belongs to, from -1 (lost) to +1 (won): a
/// logistic curve of the centipawns, and exactly +1 or -1 for a mate, so that a mate
/// outranks every centipawn score.
pub fn winning_chances(score: Score) -> f64 {
    match mate_plies(score) {
        Some(p) if p > 0 => 1.0,
        Some(_) => -1.0,
        None => {
            let cp = f64::from(score.clamp(-CHANCES_CEILING_CP, CHANCES_CEILING_CP));
            2.0 / (1.0 + (-WINNING_CHANCES_PER_CP * cp).exp()) - 1.0
        }
    }
}

/// Centipawn scores count at most this much in [`winning_chances`] (as on lichess): beyond
/// ten pawns the game is decided, and a mate stays above every such score.
const CHANCES_CEILING_CP: Score = 1000;

/// The winning chances a move gave away (`best` and `played` from the mover's side), in
/// hundredths (0 for a move as good as the best), and its judgement. A move that keeps a
/// forced win is never judged, however much faster the best move mates.
fn judge(best: Score, played: Score, t: &Thresholds) -> (i32, Option<Judgement>) {
    if keeps_forced_win(played) {
        return (0, None);
    }
    let lost = ((winning_chances(best) - winning_chances(played)) * 100.0)
        .max(0.0)
        .round() as i32;
    (lost, judgement(lost, t))
}

/// Whether the played move's score (the mover's side) is a forced win: such a move is as
/// good as any for judgements and accuracy, however much faster the best move mates.
fn keeps_forced_win(played: Score) -> bool {
    mate_plies(played).is_some_and(|p| p > 0)
}

/// How to analyse.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Search limits of every position (depth, nodes or movetime).
    pub limits: Limits,
    /// Lines per position.
    pub multipv: usize,
    /// Positions analysed at once.
    pub workers: usize,
    /// Search threads per position.
    pub threads: usize,
    /// Hash per search, MB.
    pub hash_mb: usize,
    /// In games, start at this ply (1 = the first move).
    pub from_ply: usize,
    /// Judgement thresholds.
    pub thresholds: Thresholds,
    /// Where to write annotated KIF files (games only).
    pub kif_dir: Option<std::path::PathBuf>,
    /// Write each analysed game as an HTML report in this folder.
    pub report_dir: Option<std::path::PathBuf>,
    /// Show a progress bar on stderr.
    pub progress: bool,
    /// Time for the mate solver in each position (`--mate`); `None`: no mate solving.
    pub mate: Option<std::time::Duration>,
}

struct Lines(Mutex<Vec<Info>>);

impl Observer for Lines {
    fn info(&self, info: &Info) {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(info.clone());
    }
}

/// A score as JSON: `{"cp": 35}` or `{"mate": 5}` (plies, from the side to move).
pub fn score_json(score: Score) -> Value {
    match mate_plies(score) {
        Some(p) => json!({ "mate": p }),
        None => json!({ "cp": score }),
    }
}

/// A score as centipawns for comparisons, mates counted as large values.
fn as_cp(score: Score) -> i32 {
    match mate_plies(score) {
        Some(p) if p > 0 => 10_000 - p,
        Some(p) => -10_000 - p,
        None => score,
    }
}

/// The result of one search: the best lines.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The last complete report of each line, best first.
    pub lines: Vec<Info>,
    /// The nodes searched.
    pub nodes: u64,
}

fn search(
    searcher: &mut Searcher,
    pos: &Position,
    settings: &Settings,
    multipv: usize,
) -> Analysis {
    searcher.clear();
    let lines = Lines(Mutex::new(Vec::new()));
    // Analysis wants the position's own scores: a draw is 0, without the contempt of play.
    let request = Request {
        limits: settings.limits.clone(),
        task: Task::Analyse,
        options: SearchOptions {
            threads: settings.threads,
            multipv,
            ..SearchOptions::for_variant(pos.variant())
        },
    };
    let result = crate::session::worker::search_guarded(
        searcher,
        pos,
        &request,
        &SearchControl::new(false),
        &lines,
    );
    let infos = lines.0.into_inner().unwrap_or_else(|e| e.into_inner());
    // The last complete report of each line.
    let mut best: Vec<Info> = Vec::new();
    for k in 1..=multipv {
        if let Some(info) = infos
            .iter()
            .rev()
            .find(|i| i.multipv == k && i.bound.is_none())
        {
            best.push(info.clone());
        }
    }
    if best.is_empty() {
        // Without a finished iteration there is no score to report (a move alone is no
        // analysis).
        if let (Some(mv), Some(score)) = (result.best, result.score) {
            best.push(Info {
                depth: result.depth,
                seldepth: 0,
                multipv: 1,
                score,
                bound: result.bound,
                nodes: result.nodes,
                time: Default::default(),
                hashfull: 0,
                pv: vec![mv],
            });
        }
    }
    Analysis {
        lines: best,
        nodes: result.nodes,
    }
}

/// The mate solver's verdict on `pos` (`--mate`): `{"result": "mate", "plies": N, "line":
/// "..."}` for a forced win of the side to move, `{"result": "nomate"}` when no checking
/// sequence wins, `{"result": "unknown"}` when undecided in `time`.
fn prove(searcher: &mut Searcher, pos: &Position, time: std::time::Duration) -> Value {
    let request = Request {
        limits: Limits {
            mate: true,
            movetime: Some(time),
            ..Limits::default()
        },
        task: Task::ProveMate(crate::mate::AttackerMoves::Checks),
        ..Request::default()
    };
    let result = crate::session::worker::search_guarded(
        searcher,
        pos,
        &request,
        &SearchControl::new(false),
        &crate::search::Silent,
    );
    match result.mate {
        Some(Verdict::Mate(line)) => {
            json!({ "result": "mate", "plies": line.len(), "line": pv_text(pos, &line) })
        }
        Some(Verdict::NoMate) => json!({ "result": "nomate" }),
        _ => json!({ "result": "unknown" }),
    }
}

/// A result line with the solver's verdict added as `"mate"` (only when `--mate` asked).
fn with_mate_field(mut result: Value, mate: Option<Value>) -> Value {
    if let (Some(mate), Some(fields)) = (mate, result.as_object_mut()) {
        fields.insert("mate".into(), mate);
    }
    result
}

/// The KIF note of a proven mate: `mate in N plies: LINE`.
fn mate_note(mate: Option<&Value>) -> Option<String> {
    let mate = mate?;
    (mate.get("result")?.as_str()? == "mate").then(|| {
        format!(
            "mate in {} plies: {}",
            mate.get("plies").and_then(Value::as_u64).unwrap_or(0),
            mate.get("line").and_then(Value::as_str).unwrap_or("")
        )
    })
}

/// A KIF comment with the mate note, if any, on a line of its own.
fn with_mate_note(comment: String, mate: Option<&Value>) -> String {
    match mate_note(mate) {
        Some(note) if comment.is_empty() => note,
        Some(note) => format!("{comment}\n{note}"),
        None => comment,
    }
}

fn pv_text(pos: &Position, pv: &[crate::core::Move]) -> String {
    let mut p = pos.clone();
    let mut out = Vec::new();
    for &mv in pv {
        if !p.is_legal(mv) {
            break;
        }
        out.push(p.move_to_usi(mv));
        p.make_move(mv);
    }
    out.join(" ")
}

/// The judgement of a move that gave away `loss` (hundredths of winning chances).
fn judgement(loss: i32, t: &Thresholds) -> Option<Judgement> {
    if loss >= t.blunder {
        Some(Judgement::Blunder)
    } else if loss >= t.mistake {
        Some(Judgement::Mistake)
    } else if loss >= t.inaccuracy {
        Some(Judgement::Inaccuracy)
    } else {
        None
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
fn game_fingerprint(variant: &str, sfen: &str, moves: &[String]) -> String {
    let text = format!("{variant} {sfen} {}", moves.join(" "));
    format!("{:016x}", fnv1a(text.as_bytes()))
}

/// FNV-1a: stable across Rust versions and machines, unlike the standard hasher.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The key of a result line read back, `None` when a field it needs is missing.
fn key_of_line(value: &Value) -> Option<ResultKey> {
    let text = |name: &str| value.get(name).and_then(Value::as_str).map(String::from);
    let id = text("id")?;
    if value.get("summary").is_some() {
        let game = text("game").unwrap_or_default();
        return Some(ResultKey::Summary { id, game });
    }
    let sfen = text("sfen")?;
    match value.get("ply").and_then(Value::as_u64) {
        Some(ply) => Some(ResultKey::Ply {
            id,
            ply,
            sfen,
            played: text("played")?,
        }),
        None => Some(ResultKey::Position { id, sfen }),
    }
}

/// The earlier results of a run, by what they analysed (`--resume`).
pub type Done = HashMap<ResultKey, Value>;

/// The results an output file already holds, by key, for `--resume`.
///
/// Exact: a last line cut off by an interrupted run (no newline at its end) is dropped
/// from the file and redone; any other line that is not UTF-8, not JSON or has no `id` is
/// an error naming the file and line (nothing is analysed then, nothing is duplicated). A
/// missing file holds nothing.
pub fn done_results(path: &std::path::Path) -> Result<Done, String> {
    let mut bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(HashMap::new()),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    if complete < bytes.len() {
        log::warn!(
            "{}: dropping an unfinished last line ({} bytes); it is analysed again",
            path.display(),
            bytes.len() - complete
        );
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        file.set_len(complete as u64)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        bytes.truncate(complete);
    }
    let mut done = HashMap::new();
    for (n, line) in bytes.split(|&b| b == b'\n').enumerate() {
        let at = |what: &str| {
            format!(
                "{}:{}: {what}; fix or remove that line",
                path.display(),
                n + 1
            )
        };
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let text = std::str::from_utf8(line).map_err(|_| at("not UTF-8"))?;
        let value: Value = serde_json::from_str(text).map_err(|_| at("not a result line"))?;
        let key = key_of_line(&value)
            .ok_or_else(|| at("a result line without its id, position or move"))?;
        if let Some(judgement) = value.get("judgement").filter(|j| !j.is_null()) {
            if judgement.as_str().and_then(Judgement::parse).is_none() {
                return Err(at(&format!(
                    "the judgement {judgement} is none of Shishi's"
                )));
            }
        }
        done.insert(key, value);
    }
    Ok(done)
}

/// A score written by [`score_json`], read back.
fn score_from_json(value: &Value) -> Option<Score> {
    if let Some(cp) = value.get("cp").and_then(Value::as_i64) {
        return Some(cp as Score);
    }
    let plies = value.get("mate").and_then(Value::as_i64)?;
    Some(if plies > 0 {
        crate::core::score::mate_in(plies as usize)
    } else {
        crate::core::score::mated_in((-plies) as usize)
    })
}

/// The KIF comment of an analysed ply (`pos` before the move, `last_to` the square of the
/// move before it): the evaluation after the move from sente's point of view, labelled as
/// such (a mate as `N手詰` for the side that mates), and for a judged move the judgement
/// and the best line in the KIF notation of the moves, with its evaluation.
fn ply_comment(
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
            crate::records::kif_line(pos, shown, last_to),
            sente_view(score, mover)
        );
    }
    out
}

/// How many moves of the best line a KIF comment shows.
const BEST_LINE_MOVES: usize = 6;

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
fn sente_view(score: Score, mover: crate::core::Color) -> String {
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
fn comment_from_result(
    result: &Value,
    variant: &'static Variant,
    last_to: Option<crate::core::Square>,
) -> Option<String> {
    let pos = Position::from_sfen(variant, result.get("sfen")?.as_str()?).ok()?;
    let played = score_from_json(result.get("playedScore")?)?;
    let best_score = result.get("bestScore").and_then(score_from_json);
    let mut line = Vec::new();
    let mut after = pos.clone();
    let pv = result.get("pv").and_then(Value::as_str).unwrap_or("");
    for text in pv.split_whitespace() {
        let Ok(mv) = after.parse_usi_path(text) else {
            break;
        };
        line.push(mv);
        after.make_move(mv);
    }
    let verdict = result
        .get("judgement")
        .and_then(Value::as_str)
        .and_then(Judgement::parse);
    let best = best_score.map(|score| (&line[..], score));
    Some(with_mate_note(
        ply_comment(&pos, last_to, played, best, verdict),
        result.get("mate"),
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
const FILE_STEM_MAX_BYTES: usize = 160;

/// Writes a game's file `name` (`NAME.kif`, `NAME.html`) in `dir`, never over another
/// file: each name is created new (so two workers, or a symbolic link left in the folder,
/// cannot make it write over or through anything). A name that is taken goes to the next,
/// `NAME-2.kif`, `NAME-3.kif`, ...; a taken name that holds exactly `content` already is
/// this file, written by an earlier run (`--resume`), and is left as it is. Returns the
/// file's path.
fn write_new_file(
    dir: &std::path::Path,
    name: &str,
    content: &str,
) -> Result<std::path::PathBuf, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let (stem, extension) = name.rsplit_once('.').unwrap_or((name, ""));
    for n in 1.. {
        let path = if n == 1 {
            dir.join(name)
        } else {
            dir.join(format!("{stem}-{n}.{extension}"))
        };
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
        {
            Ok(mut file) => {
                file.write_all(content.as_bytes())
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                return Ok(path);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                let is_plain_file = std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_file());
                if is_plain_file && std::fs::read(&path).is_ok_and(|old| old == content.as_bytes())
                {
                    return Ok(path);
                }
            }
            Err(e) => return Err(format!("{}: {e}", path.display())),
        }
    }
    unreachable!("some number is free")
}

/// Analyses `jobs`, writing one JSON line per position or ply to `out`; `done` holds the
/// results of an earlier run (`--resume`), which are not searched again. Returns what the
/// run did (the searches, each game's summary, the files written), or an error before any
/// work when a searcher cannot be had.
pub fn run(
    jobs: &[Job],
    settings: &Settings,
    out: &Mutex<Box<dyn Write + Send>>,
    done: &Done,
) -> Result<Outcome, String> {
    // The table size is the user's: check once that it can be had at all.
    drop(Searcher::try_new(settings.hash_mb).map_err(|e| e.to_string())?);
    let total: usize = jobs
        .iter()
        .map(|job| match job {
            Job::Position { .. } => {
                usize::from(position_key(job).is_ok_and(|k| !done.contains_key(&k)))
            }
            Job::Game { .. } => ply_keys(job)
                .unwrap_or_default()
                .iter()
                .skip(settings.from_ply.max(1) - 1)
                .filter(|k| !done.contains_key(k))
                .count(),
        })
        .sum();
    let bar = progress_bar(settings.progress, total);
    let lines = ProgressLines::new(
        settings.progress && bar.is_hidden(),
        total,
        PROGRESS_LINE_EVERY,
    );
    let emit = |value: Value| {
        let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(w, "{value}");
        let _ = w.flush();
        // A game's summary line is no position.
        if value.get("summary").is_none() {
            bar.inc(1);
            if let Some(line) = lines.one_more() {
                eprintln!("{line}");
            }
        }
    };
    let finished = Mutex::new(Outcome::default());
    let shared = Run {
        settings,
        done,
        emit: &emit,
        finished: &finished,
    };
    let work = |job: &Job| {
        let Ok(mut searcher) = Searcher::try_new(settings.hash_mb) else {
            log::error!("{}: no memory for the hash table; skipped", job.id());
            return;
        };
        let result = match job {
            Job::Position { .. } => analyse_position(&mut searcher, job, &shared),
            Job::Game { .. } => analyse_game(&mut searcher, job, &shared),
        };
        if let Err(e) = result {
            log::error!("{}: {e}; skipped", job.id());
        }
    };
    match rayon::ThreadPoolBuilder::new()
        .num_threads(settings.workers.max(1))
        .build()
    {
        Ok(pool) => pool.install(|| jobs.par_iter().for_each(work)),
        Err(_) => jobs.iter().for_each(work),
    }
    bar.finish_and_clear();
    let mut outcome = finished.into_inner().unwrap_or_else(|e| e.into_inner());
    outcome.searches = total;
    Ok(outcome)
}

/// Progress for a log or a pipe (stderr not a terminal, where the bar does not draw): a
/// line every [`PROGRESS_LINE_EVERY`], positions done of all, the rate and the time left.
struct ProgressLines {
    show: bool,
    total: usize,
    every: std::time::Duration,
    start: std::time::Instant,
    state: Mutex<(usize, std::time::Instant)>,
}

/// How often a progress line goes to stderr when it is not a terminal.
const PROGRESS_LINE_EVERY: std::time::Duration = std::time::Duration::from_secs(10);

impl ProgressLines {
    fn new(show: bool, total: usize, every: std::time::Duration) -> ProgressLines {
        let now = std::time::Instant::now();
        ProgressLines {
            show,
            total,
            every,
            start: now,
            state: Mutex::new((0, now)),
        }
    }

    /// Counts a position done; the progress line when one is due.
    fn one_more(&self) -> Option<String> {
        if !self.show {
            return None;
        }
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        state.0 += 1;
        if state.1.elapsed() < self.every || state.0 >= self.total {
            return None;
        }
        state.1 = std::time::Instant::now();
        let secs = self.start.elapsed().as_secs_f64();
        let rate = state.0 as f64 / secs.max(1e-3);
        let left = (self.total - state.0) as f64 / rate.max(1e-9);
        Some(format!(
            "analysed {} of {} positions ({rate:.1}/s), about {}:{:02} left",
            state.0,
            self.total,
            left as u64 / 60,
            left as u64 % 60
        ))
    }
}

fn progress_bar(show: bool, total: usize) -> indicatif::ProgressBar {
    if !show {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::with_draw_target(
        Some(total as u64),
        indicatif::ProgressDrawTarget::stderr(),
    );
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{elapsed_precise} [{bar:40}] {pos}/{len} positions, {per_sec}, ETA {eta}",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

/// The position a job starts from.
fn start_position(variant: &str, sfen: &str) -> Result<Position, String> {
    let variant = Variant::by_name(variant).ok_or_else(|| format!("unknown variant {variant}"))?;
    Position::from_sfen(variant, sfen).map_err(|e| e.to_string())
}

/// The key of a position job's result.
fn position_key(job: &Job) -> Result<ResultKey, String> {
    let Job::Position {
        id,
        variant,
        sfen,
        moves,
    } = job
    else {
        unreachable!("called for positions only");
    };
    let mut pos = start_position(variant, sfen)?;
    pos.play_usi_moves(moves.iter().map(String::as_str))
        .map_err(|e| e.to_string())?;
    Ok(ResultKey::Position {
        id: id.clone(),
        sfen: pos.to_sfen(),
    })
}

/// The keys of a game job's plies' results, in order.
fn ply_keys(job: &Job) -> Result<Vec<ResultKey>, String> {
    let Job::Game {
        id,
        variant,
        sfen,
        moves,
        ..
    } = job
    else {
        unreachable!("called for games only");
    };
    let mut pos = start_position(variant, sfen)?;
    let mut keys = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        keys.push(ResultKey::Ply {
            id: id.clone(),
            ply: i as u64 + 1,
            sfen: pos.to_sfen(),
            played: text.clone(),
        });
        let mv = pos.parse_usi_path(text).map_err(|e| e.to_string())?;
        pos.make_move(mv);
    }
    Ok(keys)
}

/// What every job of a run shares: the settings, the earlier results, the writer.
struct Run<'a> {
    settings: &'a Settings,
    done: &'a Done,
    emit: &'a (dyn Fn(Value) + Sync),
    /// What the run has finished, for its closing words.
    finished: &'a Mutex<Outcome>,
}

/// What a run did, for the person who started it: each game's summary, the files it wrote.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// The searches run (positions and plies analysed now, not taken from `--resume`).
    pub searches: usize,
    /// Each analysed game: its id, the players, and each side's figures (sente, gote).
    pub games: Vec<GameSummary>,
    /// The annotated KIF files and report pages written (or found as written), in order.
    pub files: Vec<std::path::PathBuf>,
}

/// One game's summary line, as the closing table shows it.
#[derive(Clone, Debug)]
pub struct GameSummary {
    /// The record's id.
    pub id: String,
    /// Sente's and gote's names.
    pub names: (String, String),
    /// Sente's and gote's figures.
    pub sides: [summary::SideSummary; 2],
}

impl Outcome {
    /// The games' summaries as a table for a terminal, one row per side.
    pub fn table(&self) -> String {
        let mut games = self.games.clone();
        games.sort_by(|a, b| a.id.cmp(&b.id));
        let mut out = format!(
            "{:<24} {:<18} {:>5} {:>6} {:>8} {:>8} {:>8} {:>8}\n",
            "game", "side", "moves", "?! ", "? ", "?? ", "avg loss", "accuracy"
        );
        for g in &games {
            for (i, (mark, name)) in [("☗", &g.names.0), ("☖", &g.names.1)].iter().enumerate() {
                let f = &g.sides[i];
                let (moves, inaccuracies, mistakes, blunders) =
                    (f.moves, f.inaccuracies, f.mistakes, f.blunders);
                let (loss, accuracy) = (f.average_cp_loss, f.accuracy);
                let id: String = if i == 0 {
                    g.id.chars().take(24).collect()
                } else {
                    String::new()
                };
                let side: String = format!("{mark} {name}").chars().take(18).collect();
                out += &format!(
                    "{id:<24} {side:<18} {moves:>5} {inaccuracies:>6} {mistakes:>8} {blunders:>8} {loss:>8.1} {accuracy:>7.1}%\n"
                );
            }
        }
        out
    }
}

fn analyse_position(searcher: &mut Searcher, job: &Job, run: &Run) -> Result<(), String> {
    let (settings, done, emit) = (run.settings, run.done, run.emit);
    let Job::Position {
        id,
        variant,
        sfen,
        moves,
    } = job
    else {
        unreachable!("called for positions only");
    };
    let mut pos = start_position(variant, sfen)?;
    pos.play_usi_moves(moves.iter().map(String::as_str))
        .map_err(|e| e.to_string())?;
    if done.contains_key(&position_key(job)?) {
        return Ok(());
    }
    let a = search(searcher, &pos, settings, settings.multipv);
    let lines: Vec<Value> = a
        .lines
        .iter()
        .map(|l| {
            json!({
                "move": l.pv.first().map(|&m| pos.move_to_usi(m)),
                "score": score_json(l.score),
                "depth": l.depth,
                "pv": pv_text(&pos, &l.pv),
            })
        })
        .collect();
    let best = a.lines.first();
    let mate = settings.mate.map(|t| prove(searcher, &pos, t));
    emit(with_mate_field(
        json!({
        "id": id,
        "sfen": pos.to_sfen(),
        "bestmove": best.and_then(|l| l.pv.first()).map(|&m| pos.move_to_usi(m)),
        "score": best.map(|l| score_json(l.score)),
        "depth": best.map(|l| l.depth),
        "nodes": a.nodes,
        "pv": best.map(|l| pv_text(&pos, &l.pv)),
        "multipv": lines,
        }),
        mate,
    ));
    Ok(())
}

fn analyse_game(searcher: &mut Searcher, job: &Job, run: &Run) -> Result<(), String> {
    let (settings, done, emit) = (run.settings, run.done, run.emit);
    let Job::Game {
        id,
        variant,
        sfen,
        moves,
        names,
        ..
    } = job
    else {
        unreachable!("called for games only");
    };
    let mut pos = start_position(variant, sfen)?;
    let mut comments = vec![String::new(); moves.len()];
    let mut last_to = None;
    let mut judged: Vec<summary::JudgedMove> = Vec::new();
    // Each ply's result line, fresh or from an earlier run, for the report.
    let mut ply_results: Vec<Option<Value>> = vec![None; moves.len()];
    // The search of the next position, made by the last ply's verdict.
    let mut next_before: Option<Analysis> = None;
    for (i, text) in moves.iter().enumerate() {
        let ply = i + 1;
        let played = pos.parse_usi_path(text).map_err(|e| e.to_string())?;
        if ply >= settings.from_ply.max(1) {
            let key = ResultKey::Ply {
                id: id.clone(),
                ply: ply as u64,
                sfen: pos.to_sfen(),
                played: text.clone(),
            };
            if let Some(earlier) = done.get(&key) {
                next_before = None;
                ply_results[i] = Some(earlier.clone());
                comments[i] =
                    comment_from_result(earlier, pos.variant(), last_to).unwrap_or_default();
                let score = |field| earlier.get(field).and_then(score_from_json);
                if let (Some(best), Some(played)) = (score("bestScore"), score("playedScore")) {
                    let verdict = earlier
                        .get("judgement")
                        .and_then(Value::as_str)
                        .and_then(Judgement::parse);
                    judged.push(summary::JudgedMove {
                        mover: pos.side_to_move(),
                        best,
                        played,
                        judgement: verdict,
                    });
                }
            } else {
                // The search of this position: the last ply's look after its move, if the
                // last ply was analysed here.
                let a = match next_before.take() {
                    Some(a) => a,
                    None => search(searcher, &pos, settings, settings.multipv),
                };
                if a.lines.is_empty() {
                    // No iteration finished (a very small budget): no score is known, and
                    // none is made up.
                    emit(json!({
                        "id": id, "ply": ply, "sfen": pos.to_sfen(), "played": text,
                        "playedScore": null, "bestmove": null, "bestScore": null,
                        "loss": null, "judgement": null, "depth": 0, "nodes": a.nodes,
                        "pv": null,
                    }));
                    last_to = Some(played.to());
                    pos.make_move(played);
                    continue;
                }
                let v = verdict::judge_ply(searcher, &pos, played, &a, settings);
                let (best_score, played_score) = (v.best.score, v.played.score);
                let loss = (as_cp(best_score) - as_cp(played_score)).max(0);
                judged.push(summary::JudgedMove {
                    mover: pos.side_to_move(),
                    best: best_score,
                    played: played_score,
                    judgement: v.judgement,
                });
                let mate = settings.mate.map(|t| prove(searcher, &pos, t));
                comments[i] = with_mate_note(
                    ply_comment(
                        &pos,
                        last_to,
                        played_score,
                        Some((&v.best.line[..], best_score)),
                        v.judgement,
                    ),
                    mate.as_ref(),
                );
                let result = with_mate_field(
                    json!({
                    "id": id,
                    "ply": ply,
                    "sfen": pos.to_sfen(),
                    "played": text,
                    "playedScore": score_json(played_score),
                    "bestmove": pos.move_to_usi(v.best.mv),
                    "bestScore": score_json(best_score),
                    "loss": loss,
                    "chancesLost": v.chances_lost,
                    "judgement": v.judgement.map(Judgement::name),
                    "depth": a.lines[0].depth,
                    "nodes": v.nodes,
                    "pv": pv_text(&pos, &v.best.line),
                    }),
                    mate,
                );
                ply_results[i] = Some(result.clone());
                emit(result);
                // Multipv asks for several lines of each position: the look after the move
                // has one, so it stands for the next position only with one line.
                if settings.multipv == 1 {
                    next_before = v.after;
                }
            }
        }
        last_to = Some(played.to());
        pos.make_move(played);
    }
    let summary = summary::summarise(&judged);
    let summary_json = json!({ "sente": summary[0].json(), "gote": summary[1].json() });
    // The game's summary line (once: a resumed run that finds it keeps it).
    let game = game_fingerprint(variant, sfen, moves);
    let key = ResultKey::Summary {
        id: id.clone(),
        game: game.clone(),
    };
    if !done.contains_key(&key) {
        emit(json!({ "id": id, "game": game, "summary": summary_json }));
    }
    log::debug!(
        "{id}: {}",
        ["sente", "gote"]
            .iter()
            .zip(&summary)
            .map(|(side, s)| {
                let j = s.json();
                format!(
                    "{side} {} inaccuracies, {} mistakes, {} blunders, average loss {} cp, accuracy {}%",
                    s.inaccuracies, s.mistakes, s.blunders, j["averageCpLoss"], j["accuracy"]
                )
            })
            .collect::<Vec<_>>()
            .join("; ")
    );
    let result = game_result(job, &mut pos);
    let mut files = Vec::new();
    if let Some(dir) = &settings.kif_dir {
        files.push(write_game_kif(dir, job, result, comments, names)?);
    }
    if let Some(dir) = &settings.report_dir {
        files.push(write_game_report(
            dir,
            job,
            result,
            &ply_results,
            &summary_json,
            settings,
        )?);
    }
    let mut finished = run.finished.lock().unwrap_or_else(|e| e.into_inner());
    finished.games.push(GameSummary {
        id: id.clone(),
        names: names.clone(),
        sides: summary,
    });
    finished.files.extend(files);
    Ok(())
}

/// How a game ended: the board's verdict where it ended on the board; else what the record
/// says (a resignation, a time loss); else unfinished (`*`).
fn game_result(job: &Job, end: &mut Position) -> GameResult {
    let Job::Game { result, .. } = job else {
        unreachable!("called for games only");
    };
    end.outcome()
        .map(|o| GameResult::won_by(o.winner))
        .or(*result)
        .unwrap_or(GameResult::Unfinished)
}

/// Writes a game's HTML report (named like its KIF, `.html`; never over an earlier file).
fn write_game_report(
    dir: &std::path::Path,
    job: &Job,
    result: GameResult,
    ply_results: &[Option<Value>],
    summary: &Value,
    settings: &Settings,
) -> Result<std::path::PathBuf, String> {
    let Job::Game {
        id,
        variant,
        sfen,
        moves,
        names,
        header,
        ..
    } = job
    else {
        unreachable!("called for games only");
    };
    let page = report::render(&report::GameReport {
        id,
        start: start_position(variant, sfen)?,
        moves,
        results: ply_results,
        names: (&names.0, &names.1),
        header,
        result,
        summary,
        thresholds: settings.thresholds,
    })?;
    write_new_file(dir, &report::report_file_name(id), &page)
}

/// Writes a game's annotated KIF (see [`free_path`] for its name).
fn write_game_kif(
    dir: &std::path::Path,
    job: &Job,
    result: GameResult,
    comments: Vec<String>,
    names: &(String, String),
) -> Result<std::path::PathBuf, String> {
    let Job::Game {
        id,
        variant,
        sfen,
        moves,
        header,
        ..
    } = job
    else {
        unreachable!("called for games only");
    };
    let record = GameRecord {
        game: 0,
        variant: Variant::by_name(variant).ok_or("unknown variant")?,
        initial_sfen: sfen.clone(),
        moves: moves.join(" "),
        result,
        reason: "analysed by shishi".into(),
        forfeit: false,
        sente: names.0.clone(),
        gote: names.1.clone(),
        times_ms: Vec::new(),
        comments,
        opening: 0,
        // No date of the run: the same analysis writes the same file, which a resumed run
        // recognises as its own (see `write_new_file`).
        date: String::new(),
    };
    let own_header = [("棋戦".to_string(), format!("shishi analyse ({variant})"))];
    let header = if header.is_empty() {
        &own_header[..]
    } else {
        header
    };
    let text = to_kif_with_header(&record, header).map_err(|e| format!("annotated KIF: {e}"))?;
    write_new_file(dir, &kif_file_name(id), &text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::score::{mate_in, mated_in};

    #[test]
    fn a_mate_outranks_every_centipawn_score() {
        assert_eq!(winning_chances(mate_in(99)), 1.0);
        assert_eq!(winning_chances(mated_in(99)), -1.0);
        assert!(winning_chances(12_204) < 1.0 && winning_chances(-12_204) > -1.0);
        assert!(winning_chances(0).abs() < 1e-9);
    }

    #[test]
    fn verdicts_follow_the_winning_chances_given_away() {
        let t = Thresholds::default();
        // Issue 25: a move that forces mate was a "blunder" because the best move's
        // +122.04 outranked its mate 6. A forced win is never a mistake.
        assert_eq!(judge(12_204, mate_in(6), &t), (0, None));
        assert_eq!(judge(mate_in(3), mate_in(9), &t), (0, None));
        // Ten pawns up, a pawn less changes little: no mark. Even, a pawn is a mistake.
        assert_eq!(judge(1_100, 1_000, &t).1, None);
        assert_eq!(judge(-1_000, -1_100, &t).1, None);
        assert_eq!(judge(30, -30, &t).1, Some(Judgement::Inaccuracy));
        assert_eq!(judge(60, -60, &t).1, Some(Judgement::Mistake));
        assert_eq!(judge(100, -100, &t).1, Some(Judgement::Blunder));
        // Letting a forced win go, or walking into a mate, is a blunder.
        assert_eq!(judge(mate_in(5), 0, &t).1, Some(Judgement::Blunder));
        assert_eq!(judge(0, mated_in(4), &t).1, Some(Judgement::Blunder));
        // A better move than the best found is no loss.
        assert_eq!(judge(0, 40, &t), (0, None));
    }

    #[test]
    fn progress_lines_count_and_estimate() {
        let lines = ProgressLines::new(true, 4, std::time::Duration::ZERO);
        let first = lines.one_more().unwrap();
        assert!(first.starts_with("analysed 1 of 4 positions ("), "{first}");
        assert!(first.ends_with(" left"), "{first}");
        lines.one_more();
        lines.one_more();
        // Not for the last one (the run's own summary follows), nor when not shown.
        assert_eq!(lines.one_more(), None);
        let hidden = ProgressLines::new(false, 4, std::time::Duration::ZERO);
        assert_eq!(hidden.one_more(), None);
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
            "評価値 -2.50（先手から見て）\n大悪手 (blunder): 最善 7八歩兵 （←7九）  \
7五歩兵 （←7四）  一歩目 7九獅子 （←7十） 二歩目 6八獅子 （←7九） +0.40"
        );
    }
}
