//! Reading analysis input: one SFEN a line (optionally `moves ...`, or `startpos [moves ...]`),
//! JSON lines like lishogi's game export (`variant`, `initialSfen`, `moves`), or KIF as lishogi
//! exports chu shogi (two-line lion moves, `（居食い）`, `(じっと)`, `仝`) and sho shogi. The
//! format is detected per file. A malformed record is reported with its line number and
//! skipped; reading goes on.

use crate::core::{Move, Square};
use crate::position::Position;
use crate::variant::Variant;
use serde::Deserialize;

/// One thing to analyse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Job {
    /// A single position (the moves lead to it from the SFEN).
    Position {
        /// Record id: `LINE` of the input.
        id: String,
        /// Variant.
        variant: &'static str,
        /// The SFEN.
        sfen: String,
        /// Moves from it (USI).
        moves: Vec<String>,
    },
    /// A whole game: every ply is analysed.
    Game {
        /// Record id: the game's `id` field, or `LINE`.
        id: String,
        /// Variant.
        variant: &'static str,
        /// The starting SFEN.
        sfen: String,
        /// The moves played (USI, as written: double-move paths are kept).
        moves: Vec<String>,
        /// Player names, when the record has them.
        names: (String, String),
        /// The result the record states (`1-0`, `0-1`, `1/2-1/2`), when it states one: a
        /// KIF's ending line (`投了`, `まで99手で先手の勝ち`, ...), a JSON record's `winner`
        /// or `result`.
        result: Option<&'static str>,
        /// A KIF's header tags other than the players (`棋戦`, `場所`, `開始日時`, `持ち時間`,
        /// ...), in order, for the annotated KIF.
        header: Vec<(String, String)>,
    },
}

impl Job {
    /// The record id.
    pub fn id(&self) -> &str {
        match self {
            Job::Position { id, .. } | Job::Game { id, .. } => id,
        }
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct JsonGame {
    id: Option<serde_json::Value>,
    game: Option<serde_json::Value>,
    variant: Option<String>,
    initial_sfen: Option<String>,
    moves: Option<String>,
    sente: Option<String>,
    gote: Option<String>,
    /// lishogi's export: `sente` or `gote` (none for a draw or an unfinished game).
    winner: Option<String>,
    /// lishogi's export: `mate`, `resign`, `draw`, `repetition`, ...
    status: Option<String>,
    /// `shishi match --jsonl`: `1-0`, `0-1` or `1/2-1/2`.
    result: Option<String>,
    /// lishogi's export: `{"sente": {"user": {"name": ...}}, "gote": ...}` (an AI side has
    /// `aiLevel` instead of a user).
    players: Option<serde_json::Value>,
}

impl JsonGame {
    /// A player's name: the record's `sente` / `gote`, else lishogi's `players` (a user's
    /// name, or `lishogi AI level N`).
    fn player(&self, side: &str, named: &Option<String>) -> String {
        if let Some(name) = named {
            return name.clone();
        }
        let player = self.players.as_ref().and_then(|p| p.get(side));
        let user = player
            .and_then(|p| p.pointer("/user/name"))
            .and_then(|n| n.as_str());
        let ai = player
            .and_then(|p| p.get("aiLevel"))
            .and_then(|l| l.as_u64());
        match (user, ai) {
            (Some(name), _) => name.to_string(),
            (None, Some(level)) => format!("lishogi AI level {level}"),
            _ => String::new(),
        }
    }

    /// The result the record states, if any.
    fn stated_result(&self) -> Option<&'static str> {
        if let Some(r) = self.result.as_deref() {
            return crate::tournament::records::RESULTS
                .iter()
                .copied()
                .find(|&k| k == r);
        }
        match (self.winner.as_deref(), self.status.as_deref()) {
            (Some("sente"), _) => Some("1-0"),
            (Some("gote"), _) => Some("0-1"),
            (None, Some("draw" | "repetition" | "impasse27")) => Some("1/2-1/2"),
            _ => None,
        }
    }
}

/// Parses an input file's text. `default_variant` applies where a record does not say. A
/// UTF-8 byte-order mark (Windows editors write one) is skipped.
pub fn parse(text: &str, file: &str, default_variant: &'static Variant) -> (Vec<Job>, Vec<String>) {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let trimmed = text.trim_start();
    if trimmed.starts_with('{') {
        parse_jsonl(text, file, default_variant)
    } else if text.contains("手目") || text.contains("手数----") {
        parse_kif(text, file, default_variant)
    } else {
        parse_sfens(text, file, default_variant)
    }
}

fn check(variant: &'static Variant, sfen: &str, moves: &[String]) -> Result<(), String> {
    let mut pos = Position::from_sfen(variant, sfen).map_err(|e| e.to_string())?;
    pos.play_usi_moves(moves.iter().map(String::as_str))
        .map_err(|e| e.to_string())
}

fn parse_sfens(text: &str, file: &str, variant: &'static Variant) -> (Vec<Job>, Vec<String>) {
    let (mut jobs, mut errors) = (Vec::new(), Vec::new());
    for (n, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let (setup, moves) = match line.split_once(" moves") {
            Some((s, m)) => (
                s.trim(),
                m.split_whitespace().map(String::from).collect::<Vec<_>>(),
            ),
            None => (line, Vec::new()),
        };
        let setup = setup.strip_prefix("position").map_or(setup, str::trim);
        let setup = setup.strip_prefix("sfen").map_or(setup, str::trim);
        let sfen = if setup == "startpos" {
            variant.spec.start_sfen.to_string()
        } else {
            setup.to_string()
        };
        match check(variant, &sfen, &moves) {
            Ok(()) => jobs.push(Job::Position {
                id: (n + 1).to_string(),
                variant: variant.name(),
                sfen,
                moves,
            }),
            Err(e) => errors.push(format!("{file}:{}: {e}; skipped", n + 1)),
        }
    }
    (jobs, errors)
}

fn parse_jsonl(
    text: &str,
    file: &str,
    default_variant: &'static Variant,
) -> (Vec<Job>, Vec<String>) {
    let (mut jobs, mut errors) = (Vec::new(), Vec::new());
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let record: JsonGame = match serde_json::from_str(line) {
            Ok(r) => r,
            Err(e) => {
                errors.push(format!(
                    "{file}:{}: not a JSON game record ({e}); skipped",
                    n + 1
                ));
                continue;
            }
        };
        let variant = match record.variant.as_deref() {
            None => default_variant,
            Some(v) => match Variant::by_name(v) {
                Some(v) => v,
                None => {
                    errors.push(format!(
                        "{file}:{}: variant '{v}' is not played here; skipped",
                        n + 1
                    ));
                    continue;
                }
            },
        };
        let sfen = match record.initial_sfen.as_deref() {
            None | Some("startpos") => variant.spec.start_sfen.to_string(),
            Some(s) => s.to_string(),
        };
        let result = record.stated_result();
        let names = (
            record.player("sente", &record.sente),
            record.player("gote", &record.gote),
        );
        let moves: Vec<String> = record
            .moves
            .unwrap_or_default()
            .split_whitespace()
            .map(String::from)
            .collect();
        if let Err(e) = check(variant, &sfen, &moves) {
            errors.push(format!("{file}:{}: {e}; skipped", n + 1));
            continue;
        }
        let id = record.id.or(record.game).map_or((n + 1).to_string(), |v| {
            v.as_str().map_or(v.to_string(), String::from)
        });
        jobs.push(Job::Game {
            id,
            variant: variant.name(),
            sfen,
            moves,
            names,
            result,
            header: Vec::new(),
        });
    }
    (jobs, errors)
}

/// Kanji rank numerals up to 16.
fn kanji_to_number(text: &str) -> Option<usize> {
    let digit = |c: char| {
        "一二三四五六七八九"
            .chars()
            .position(|d| d == c)
            .map(|i| i + 1)
    };
    let chars: Vec<char> = text.chars().collect();
    match chars.as_slice() {
        ['十'] => Some(10),
        ['十', d] => digit(*d).map(|d| 10 + d),
        [d] => digit(*d),
        _ => None,
    }
}

/// A square in KIF writing: Arabic or full-width file, kanji rank (`7八`, `10十一`, `７六`).
fn kif_square(variant: &Variant, text: &str) -> Option<Square> {
    let normal: String = text
        .chars()
        .map(|c| {
            if ('０'..='９').contains(&c) {
                char::from_u32(c as u32 - 0xfee0).unwrap_or(c)
            } else {
                c
            }
        })
        .collect();
    let split = normal.find(|c: char| !c.is_ascii_digit())?;
    let file: usize = normal[..split].parse().ok()?;
    let rank = kanji_to_number(&normal[split..])?;
    if file == 0 || file > variant.spec.files || rank == 0 || rank > variant.spec.ranks {
        return None;
    }
    Some(Square::new(variant.spec.files - file, rank - 1))
}

/// The origin in `（←7九）` (chu) or `(77)` (sho).
fn kif_origin(variant: &Variant, text: &str) -> Option<Square> {
    if let Some(start) = text.find('←') {
        let rest = &text[start + '←'.len_utf8()..];
        let end = rest.find(['）', ')'])?;
        return kif_square(variant, rest[..end].trim());
    }
    let open = text.rfind('(')?;
    let digits = text[open + 1..].trim_end_matches(')');
    let bytes = digits.as_bytes();
    if bytes.len() != 2 || !bytes.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let (file, rank) = ((bytes[0] - b'0') as usize, (bytes[1] - b'0') as usize);
    (file >= 1 && file <= variant.spec.files && rank >= 1 && rank <= variant.spec.ranks)
        .then(|| Square::new(variant.spec.files - file, rank - 1))
}

/// The destination at the start of a move text (`7八歩兵...`, `仝龍馬...`, `同　歩...`).
fn kif_destination(variant: &Variant, text: &str, last: Option<Square>) -> Option<Square> {
    let text = text.trim_start_matches(['▲', '△', '☗', '☖']);
    if text.starts_with('仝') || text.starts_with('同') {
        return last;
    }
    let mut end = 0;
    for (i, c) in text.char_indices() {
        if c.is_ascii_digit() || ('０'..='９').contains(&c) || "一二三四五六七八九十".contains(c)
        {
            end = i + c.len_utf8();
        } else {
            break;
        }
    }
    kif_square(variant, &text[..end])
}

/// Whether a KIF move promotes: `成` right after the piece's name, before the origin
/// (`7三銀成(64)`, `3三角行成 （←6六）`); not `不成`, and not the `成` that begins a
/// promoted piece's name (`成銀`, `成飛`).
fn kif_promotes(text: &str) -> bool {
    let text = text.replace("（居食い）", "").replace("(じっと)", "");
    let head = text.split(['（', '(']).next().unwrap_or("").trim_end();
    head.ends_with('成') && !head.ends_with("不成")
}

/// The SFEN of a KIF board diagram (`rows`: each `|...|` line with its line number),
/// read as lishogi reads one: spaces ignored, `・` an empty square, `v` before a gote
/// piece, a piece by its diagram name (`獅`, `成角`) or its move name. The error names
/// the line and what is wrong.
fn kif_board_sfen(
    variant: &Variant,
    rows: &[(usize, String)],
    gote_to_move: bool,
) -> Result<String, String> {
    if rows.len() != variant.spec.ranks {
        return Err(format!(
            "{}: the board diagram has {} ranks, {} has {}",
            rows[0].0,
            rows.len(),
            variant.name(),
            variant.spec.ranks
        ));
    }
    let mut ranks = Vec::new();
    for (line, row) in rows {
        let inside: String = row
            .trim_start_matches('|')
            .split('|')
            .next()
            .unwrap_or("")
            .chars()
            .filter(|c| !c.is_whitespace())
            .map(|c| if c == '.' { '・' } else { c })
            .collect();
        let mut cells: Vec<Option<String>> = Vec::new();
        let mut prefix = String::new();
        for c in inside.chars() {
            match c {
                '・' => cells.push(None),
                'v' | 'V' | '成' | '+' => prefix.push(c),
                _ => {
                    let gote = prefix.starts_with(['v', 'V']);
                    let name: String =
                        prefix.trim_start_matches(['v', 'V']).replace('+', "成") + &c.to_string();
                    let kind = variant.kind_by_kif_name(&name).ok_or_else(|| {
                        format!("{line}: unknown piece '{name}' in the board diagram")
                    })?;
                    let letters = variant.kind(kind).sfen;
                    cells.push(Some(if gote {
                        letters.to_string()
                    } else {
                        letters.to_uppercase()
                    }));
                    prefix.clear();
                }
            }
        }
        if cells.len() != variant.spec.files {
            return Err(format!(
                "{line}: the board diagram's rank has {} squares, {} has {} files",
                cells.len(),
                variant.name(),
                variant.spec.files
            ));
        }
        let mut rank = String::new();
        let mut empty = 0;
        for cell in cells {
            match cell {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        rank += &empty.to_string();
                        empty = 0;
                    }
                    rank += &p;
                }
            }
        }
        if empty > 0 {
            rank += &empty.to_string();
        }
        ranks.push(rank);
    }
    let side = if gote_to_move { "w" } else { "b" };
    Ok(format!("{} {side} - 1", ranks.join("/")))
}

/// The move part of a KIF move line, without the trailing time field: after `N手目`
/// (shogiops' notation, which lishogi's board shows), or after the move number of a KIF
/// line as lishogi's server writes its downloads and standard KIF does (`   1   7八歩兵
/// （←7九）   (00:01/00:00:01)`, `   1 ７六歩(77)`), where a lion's double move takes two
/// lines with the step right after the number (`   9一歩目 8五獅子 （←8六）`, `   9二歩目 9四獅子
/// （←8五）`). `None` for any other line.
fn kif_move_text(line: &str) -> Option<&str> {
    let rest = match line.find("手目") {
        Some(at) => &line[at + "手目".len()..],
        None => {
            let after = after_move_number(line)?;
            let step = after.starts_with("一歩目") || after.starts_with("二歩目");
            if !(step || after.starts_with(char::is_whitespace)) {
                return None;
            }
            after
        }
    };
    let rest = rest.trim();
    // A time field `( 0:00/00:00:00)` closes standard KIF lines.
    let rest = match rest.rfind('(') {
        Some(open) if rest[open..].contains(':') => rest[..open].trim_end(),
        _ => rest,
    };
    // The game's end written as a move (resignation, repetition, ...) is no move.
    (!KIF_ENDINGS.iter().any(|w| rest.starts_with(w))).then_some(rest)
}

/// What follows the move number at the start of a KIF line; `None` without one.
fn after_move_number(line: &str) -> Option<&str> {
    let after = line.trim_start_matches(|c: char| c.is_ascii_digit());
    (after.len() < line.len()).then_some(after)
}

/// The result a KIF line states, if it states one, with `to_move` the side to move after
/// the moves read so far: an ending written in place of a move (`  11   投了`: the side to
/// move resigned; `反則勝ち`: the side to move won, the other broke a rule; `千日手`,
/// `持将棋`: a draw), or the summary line (`まで10手で後手の勝ち`, `まで99手で千日手`).
fn kif_result(line: &str, to_move: crate::core::Color) -> Option<&'static str> {
    use crate::core::Color::Sente;
    let won = |c| if c == Sente { "1-0" } else { "0-1" };
    let line = line.trim();
    if line.starts_with("まで") {
        return if line.contains("先手の勝ち") || line.contains("下手の勝ち") {
            Some("1-0")
        } else if line.contains("後手の勝ち") || line.contains("上手の勝ち") {
            Some("0-1")
        } else if line.contains("千日手") || line.contains("持将棋") || line.contains("引き分け")
        {
            Some("1/2-1/2")
        } else {
            None
        };
    }
    let word = after_move_number(line)?
        .trim_start()
        .trim_start_matches("手目")
        .trim();
    let loser_moves = ["投了", "詰み", "切れ負け", "反則負け"];
    if loser_moves.iter().any(|w| word.starts_with(w)) {
        Some(won(to_move.flip()))
    } else if word.starts_with("反則勝ち") || word.starts_with("入玉勝ち") {
        Some(won(to_move))
    } else if word.starts_with("千日手") || word.starts_with("持将棋") {
        Some("1/2-1/2")
    } else {
        None
    }
}

/// The header tags of a game's KIF that its annotated KIF keeps (the players are kept
/// apart; a board diagram's lines are no tags).
const KIF_HEADER_TAGS: &[&str] = &["開始日時", "終了日時", "棋戦", "場所", "持ち時間", "手合割"];

/// The words a KIF writes in place of a move when the game ends.
const KIF_ENDINGS: &[&str] = &[
    "投了",
    "中断",
    "千日手",
    "詰み",
    "持将棋",
    "切れ負け",
    "反則",
    "入玉",
    "不戦",
    "封じ手",
];

/// Gives every job its own id: a repeated id (two `shishi match --jsonl` runs appended
/// to one file both count from 1) becomes `ID~2`, `ID~3`, ... in input order, so that
/// results, `--resume` and KIF file names tell the games apart. Returns a warning for each.
pub fn make_ids_unique(jobs: &mut [Job]) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    let mut warnings = Vec::new();
    for job in jobs.iter_mut() {
        let id = match job {
            Job::Position { id, .. } | Job::Game { id, .. } => id,
        };
        if !seen.insert(id.clone()) {
            let mut n = 2;
            while seen.contains(&format!("{id}~{n}")) {
                n += 1;
            }
            let renamed = format!("{id}~{n}");
            warnings.push(format!(
                "record id '{id}' appears again; this one is '{renamed}'"
            ));
            seen.insert(renamed.clone());
            *id = renamed;
        }
    }
    warnings
}

fn parse_kif(text: &str, file: &str, default_variant: &'static Variant) -> (Vec<Job>, Vec<String>) {
    let variant = if text.contains("獅子")
        || text.contains("一歩目")
        || text.contains("十一")
        || text.contains("chushogi")
    {
        Variant::chu()
    } else if text.contains("shoshogi") || text.contains("象") {
        Variant::sho()
    } else {
        default_variant
    };
    let mut pos = Position::startpos(variant);
    let mut moves = Vec::new();
    let mut names = (String::new(), String::new());
    let mut last: Option<Square> = None;
    let mut first_step: Option<(Square, usize)> = None;
    let mut result = None;
    let mut header = Vec::new();
    let mut in_header = true;
    // A set-up position: the diagram's rows (with their line numbers) and whose turn it is.
    let mut board_rows: Vec<(usize, String)> = Vec::new();
    let mut gote_to_move = false;
    let mut start: Option<String> = None;
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.starts_with("手数----") {
            in_header = false;
        }
        if in_header {
            if let Some((key, value)) = line.split_once('：') {
                if KIF_HEADER_TAGS.contains(&key) {
                    header.push((key.to_string(), value.to_string()));
                }
            }
        }
        if let Some(stated) = kif_result(line, pos.side_to_move()) {
            result = Some(stated);
            continue;
        }
        if let Some(name) = line.strip_prefix("先手：") {
            names.0 = name.to_string();
        } else if let Some(name) = line.strip_prefix("後手：") {
            names.1 = name.to_string();
        } else if line.starts_with('|') && in_header {
            board_rows.push((n + 1, line.to_string()));
            continue;
        } else if line.starts_with("後手番") || line.starts_with("上手番") {
            gote_to_move = true;
        }
        if !board_rows.is_empty()
            && start.is_none()
            && (!in_header || kif_move_text(line).is_some())
        {
            match kif_board_sfen(variant, &board_rows, gote_to_move) {
                Ok(sfen) => match Position::from_sfen(variant, &sfen) {
                    Ok(p) => {
                        pos = p;
                        start = Some(sfen);
                    }
                    Err(e) => {
                        let at = board_rows[0].0;
                        return (Vec::new(), vec![format!("{file}:{at}: the board diagram is no legal position ({e}); game skipped")]);
                    }
                },
                Err(e) => return (Vec::new(), vec![format!("{file}:{e}; game skipped")]),
            }
        }
        let Some(rest) = kif_move_text(line) else {
            continue;
        };
        let mv: Result<Option<Move>, String> = if let Some(step) = rest.strip_prefix("一歩目") {
            match kif_origin(variant, step) {
                Some(from) => {
                    first_step = Some((from, n + 1));
                    Ok(None)
                }
                None => Err("cannot read the first step".into()),
            }
        } else if let Some(step) = rest.strip_prefix("二歩目") {
            match (first_step.take(), kif_origin(variant, step)) {
                (Some((from, _)), Some(mid)) => {
                    let to = if step.contains("居食い") || step.contains("じっと") {
                        Some(from)
                    } else {
                        kif_destination(variant, step.trim(), last)
                    };
                    to.map(|to| Move::double(from, mid, to))
                        .map(Some)
                        .ok_or_else(|| "cannot read the second step".into())
                }
                _ => Err("a second step without a first".into()),
            }
        } else {
            let promote = kif_promotes(rest);
            match (
                kif_destination(variant, rest, last),
                kif_origin(variant, rest),
            ) {
                (Some(to), Some(from)) => Ok(Some(Move::new(from, to, promote))),
                _ => Err(format!("cannot read the move '{rest}'")),
            }
        };
        match mv {
            Ok(None) => {}
            Ok(Some(m)) => {
                let text = crate::position::notation::move_to_usi(variant, m);
                match pos.parse_usi_path(&text) {
                    Ok(legal) => {
                        moves.push(text);
                        last = Some(legal.to());
                        pos.make_move(legal);
                    }
                    Err(e) => {
                        return (
                            Vec::new(),
                            vec![format!("{file}:{}: {e}; game skipped", n + 1)],
                        )
                    }
                }
            }
            Err(e) => {
                return (
                    Vec::new(),
                    vec![format!("{file}:{}: {e}; game skipped", n + 1)],
                )
            }
        }
    }
    if moves.is_empty() {
        return (
            Vec::new(),
            vec![format!("{file}: no moves found in the KIF")],
        );
    }
    let id = std::path::Path::new(file)
        .file_stem()
        .map_or("1".to_string(), |s| s.to_string_lossy().into_owned());
    (
        vec![Job::Game {
            id,
            variant: variant.name(),
            sfen: start.unwrap_or_else(|| variant.spec.start_sfen.to_string()),
            moves,
            names,
            result,
            header,
        }],
        Vec::new(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::records::{to_kif, GameRecord};

    fn record(variant: &Variant, moves: &str) -> GameRecord {
        GameRecord {
            game: 1,
            variant: variant.name().into(),
            initial_sfen: variant.spec.start_sfen.into(),
            moves: moves.into(),
            result: "1/2-1/2".into(),
            reason: "test".into(),
            forfeit: false,
            sente: "A".into(),
            gote: "B".into(),
            times_ms: vec![],
            comments: vec![],
            opening: 0,
            date: "2026-11-29T00:00:00Z".into(),
        }
    }

    #[test]
    fn kif_written_by_the_match_runner_reads_back() {
        let moves =
            "8i8h 5d5e 7j8i 6c5d 8i8g 5d6e 8g7f 6e6f 7f7e7f 6f6g 7f6g7f 7d7e 7i7h 7e7f 7h7g";
        let record = record(Variant::chu(), moves);
        let kif = to_kif(&record).unwrap();
        let (jobs, errors) = parse(&kif, "game-0003.kif", Variant::chu());
        assert!(errors.is_empty(), "{errors:?}");
        match &jobs[0] {
            Job::Game {
                moves: read, names, ..
            } => {
                assert_eq!(read.join(" "), moves);
                assert_eq!(names, &("A".to_string(), "B".to_string()));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_set_up_position_reads_back_from_its_board_diagram() {
        // Issue 25: a KIF with a board diagram was refused. Gote to move, promoted pieces
        // whose one-kanji names would be other kinds' (成飛, 成馬, 杏), and a move of the
        // promoted gold (`成飛`, whose 成 is its name's, not a promotion).
        let sfen = "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/2+g9/12/\
3I1+P+B1I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL w - 1";
        for (variant, sfen, moves) in [
            (Variant::chu(), sfen, "10f10g 12i12h 10g10h"),
            (
                Variant::sho(),
                "lnsgkgsnl/1r2e2b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B2E2R1/LNSGKGSNL w - 1",
                "3c3d 2g2f",
            ),
        ] {
            let mut rec = record(variant, moves);
            rec.initial_sfen = sfen.into();
            let kif = to_kif(&rec).unwrap();
            assert!(kif.contains("後手番"), "{kif}");
            let (jobs, errors) = parse(&kif, "setup.kif", variant);
            assert!(errors.is_empty(), "{errors:?}\n{kif}");
            match &jobs[0] {
                Job::Game {
                    sfen: read,
                    moves: read_moves,
                    ..
                } => {
                    assert_eq!(read, sfen, "{kif}");
                    assert_eq!(read_moves.join(" "), moves);
                }
                other => panic!("{other:?}"),
            }
        }
        // As lishogi's server draws a chu diagram (three places a square, `v` for gote).
        let setup = "手合割：平手\n １２ １１ １０ ９  ８  ７  ６  ５  ４  ３  ２  １\n\
+------------------------------------------------+\n\
|  ・  ・  ・  ・  ・ v玉  ・  ・  ・  ・  ・  ・|一\n\
|  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・|二\n\
|  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・|三\n\
|  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・|四\n\
|  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・|五\n\
|  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・|六\n\
|  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・|七\n\
|  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・|八\n\
|  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・|九\n\
|  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・|十\n\
|  ・  ・  ・  ・  ・  ・ 成獅  獅  ・  ・  ・  ・|十一\n\
|  ・  ・  ・  ・  ・  ・  玉  ・  ・  ・  ・  ・|十二\n\
+------------------------------------------------+\n\
先手：a\n後手：b\n手数----指手---------消費時間--\n   1   5十獅子 （←5十一）\n";
        let (jobs, errors) = parse(setup, "diagram.kif", Variant::sho());
        assert!(errors.is_empty(), "{errors:?}");
        match &jobs[0] {
            Job::Game { sfen, moves, .. } => {
                assert_eq!(sfen, "5k6/12/12/12/12/12/12/12/12/12/6+ON4/6K5 b - 1");
                assert_eq!(moves.join(" "), "5k5j");
            }
            other => panic!("{other:?}"),
        }
        // A wrong piece or a short rank is named with its line.
        let bad = setup.replace(" 成獅", " 成猫");
        let (_, errors) = parse(&bad, "bad.kif", Variant::chu());
        assert!(
            errors[0].contains("bad.kif:14: unknown piece '成猫'"),
            "{errors:?}"
        );
    }

    #[test]
    fn lishogi_server_kif_with_lion_double_moves_is_read() {
        // Issue 25: lishogi's KIF download writes a double move as two lines with the step
        // right after the number; both were skipped, so the next move was "not legal" and
        // the game was dropped. Header, time fields, a jitto and the ending as lishogi's
        // server writes them.
        let kif = "開始日時：2026/11/30 12:00:00\n棋戦：lishogi Casual Chushogi\n\
先手：alice\n後手：bob\n手数----指手---------消費時間--\n\
   1   8八歩兵 （←8九）   (00:01/00:00:01)\n   2   5五歩兵 （←5四）   (00:01/00:00:01)\n\
   3   8九獅子 （←7十）   (00:02/00:00:03)\n   4   5四獅子 （←6三）   (00:01/00:00:02)\n\
   5   8七獅子 （←8九）   (00:01/00:00:04)\n   6   6五獅子 （←5四）   (00:01/00:00:03)\n\
   7   7六獅子 （←8七）   (00:01/00:00:05)\n   8   6六獅子 （←6五）   (00:01/00:00:04)\n\
   9一歩目 7五獅子 （←7六）\n   9二歩目 7六獅子 （←7五）   (00:03/00:00:08)\n\
* a comment\n  10   5六歩兵 （←5五）   (00:01/00:00:05)\n  11   投了\nまで10手で後手の勝ち\n";
        let (jobs, errors) = parse(kif, "lishogi.kif", Variant::sho());
        assert!(errors.is_empty(), "{errors:?}");
        match &jobs[0] {
            Job::Game {
                moves,
                names,
                result,
                ..
            } => {
                assert_eq!(
                    moves.join(" "),
                    "8i8h 5d5e 7j8i 6c5d 8i8g 5d6e 8g7f 6e6f 7f7e7f 5e5f"
                );
                assert_eq!(names, &("alice".to_string(), "bob".to_string()));
                // Sente, to move at ply 11, resigned.
                assert_eq!(*result, Some("0-1"));
            }
            other => panic!("{other:?}"),
        }
        // shogiops' notation (lishogi's board): `N手目`, with igui and jitto markers.
        let client = "   1手目   8八歩兵 （←8九）\n   2手目   5五歩兵 （←5四）\n\
   3手目   8九獅子 （←7十）\n   4手目   5四獅子 （←6三）\n   5手目   8七獅子 （←8九）\n\
   6手目   6五獅子 （←5四）\n   7手目   7六獅子 （←8七）\n   8手目   6六獅子 （←6五）\n\
   9手目一歩目 7五獅子 （←7六）\n   9手目二歩目 7六獅子(じっと) （←7五）\n\
  10手目   6七獅子 （←6六）\n  11手目一歩目 仝獅子 （←7六）\n\
  11手目二歩目 7六獅子（居食い） （←6七）\n";
        let (jobs, errors) = parse(client, "client.kif", Variant::chu());
        assert!(errors.is_empty(), "{errors:?}");
        match &jobs[0] {
            Job::Game { moves, .. } => assert_eq!(
                moves.join(" "),
                "8i8h 5d5e 7j8i 6c5d 8i8g 5d6e 8g7f 6e6f 7f7e7f 6f6g 7f6g7f"
            ),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn lishogi_json_export_gives_players_and_result() {
        // lishogi's game export (NDJSON): players under `players`, the result as `winner`.
        let json = "{\"id\":\"q7ZvsdUF\",\"rated\":false,\"variant\":\"chushogi\",\
\"status\":\"resign\",\"players\":{\"sente\":{\"user\":{\"name\":\"alice\"},\"rating\":1500},\
\"gote\":{\"aiLevel\":3}},\"winner\":\"gote\",\"moves\":\"7i7h 7d7e\"}\n\
{\"id\":\"d\",\"variant\":\"chushogi\",\"status\":\"draw\",\"moves\":\"7i7h\"}\n";
        let (jobs, errors) = parse(json, "export.ndjson", Variant::chu());
        assert!(errors.is_empty(), "{errors:?}");
        match &jobs[0] {
            Job::Game { names, result, .. } => {
                assert_eq!(
                    names,
                    &("alice".to_string(), "lishogi AI level 3".to_string())
                );
                assert_eq!(*result, Some("0-1"));
            }
            other => panic!("{other:?}"),
        }
        match &jobs[1] {
            Job::Game { result, .. } => assert_eq!(*result, Some("1/2-1/2")),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn results_stated_by_kif_endings() {
        use crate::core::Color::{Gote, Sente};
        assert_eq!(kif_result("  11   投了", Sente), Some("0-1"));
        assert_eq!(kif_result("  12   投了", Gote), Some("1-0"));
        assert_eq!(kif_result("  40   切れ負け", Gote), Some("1-0"));
        assert_eq!(kif_result("  40   反則勝ち", Gote), Some("0-1"));
        assert_eq!(kif_result("  40   千日手", Gote), Some("1/2-1/2"));
        assert_eq!(kif_result("まで179手で先手の勝ち", Gote), Some("1-0"));
        assert_eq!(kif_result("まで80手で千日手", Gote), Some("1/2-1/2"));
        assert_eq!(kif_result("   1   7八歩兵 （←7九）", Sente), None);
        assert_eq!(kif_result("* 投了", Sente), None);
    }

    #[test]
    fn sho_kif_reads_back() {
        let moves = "7g7f 3c3d 8h2b+ 3a2b 2g2f 5c5d 2f2e 5b5c 2e2d 2c2d";
        let record = record(Variant::sho(), moves);
        let kif = to_kif(&record).unwrap();
        assert!(
            kif.contains("\n   3   ２二角成(88)\n") && kif.contains("同　銀(31)"),
            "{kif}"
        );
        let (jobs, errors) = parse(&kif, "sho.kif", Variant::chu());
        assert!(errors.is_empty(), "{errors:?}");
        match &jobs[0] {
            Job::Game {
                moves: read,
                variant,
                ..
            } => {
                assert_eq!(*variant, "shoshogi");
                assert_eq!(read.join(" "), moves);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn standard_kif_lines_a_bom_and_repeated_ids() {
        let kif = "\u{feff}# KIF\n先手：A\n後手：B\n手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:00/00:00:00)\n   2 ３四歩(33)   ( 0:01/00:00:01)\n   3 投了\n";
        let (jobs, errors) = parse(kif, "std.kif", Variant::sho());
        assert!(errors.is_empty(), "{errors:?}");
        match &jobs[0] {
            Job::Game { moves, .. } => assert_eq!(moves.join(" "), "7g7f 3c3d"),
            other => panic!("{other:?}"),
        }
        let json = "\u{feff}{\"id\":\"1\",\"moves\":\"7i7h\"}\n{\"id\":\"1\",\"moves\":\"7i7h\"}\n{\"id\":\"1~2\",\"moves\":\"7i7h\"}\n";
        let (mut jobs, errors) = parse(json, "g.jsonl", Variant::chu());
        assert!(errors.is_empty(), "{errors:?}");
        let warnings = make_ids_unique(&mut jobs);
        let ids: Vec<&str> = jobs.iter().map(Job::id).collect();
        assert_eq!(ids, ["1", "1~2", "1~2~2"]);
        assert_eq!(warnings.len(), 2);
    }

    #[test]
    fn sfen_and_json_lines_with_bad_records() {
        let text = "startpos moves 7i7h\n# comment\nlfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1\nnonsense\nstartpos moves 7i7e\n";
        let (jobs, errors) = parse(text, "in.txt", Variant::chu());
        assert_eq!(jobs.len(), 2);
        assert_eq!(errors.len(), 2);
        assert!(
            errors[0].starts_with("in.txt:4:") && errors[1].starts_with("in.txt:5:"),
            "{errors:?}"
        );
        let json = "{\"id\":\"g1\",\"variant\":\"chushogi\",\"initialSfen\":\"startpos\",\"moves\":\"7i7h 7d7e 7j7i6h\"}\n{\"variant\":\"chushogi\",\"moves\":\"7i7h 7i7h\"}\n{broken\n";
        let (jobs, errors) = parse(json, "g.jsonl", Variant::chu());
        assert_eq!(jobs.len(), 1);
        assert_eq!(jobs[0].id(), "g1");
        assert_eq!(errors.len(), 2, "{errors:?}");
    }
}
