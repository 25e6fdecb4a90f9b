//! KIF, as lishogi writes and reads it. Written: lishogi's server layout (`%4d` move
//! numbers, then three spaces and the move; chu's two-kanji piece names, Arabic file and
//! kanji rank, the origin as `（←7九）`, `仝` for the last move's square, a lion double move
//! on two lines `一歩目` / `二歩目` right after the number), standard KIF for sho, a board
//! diagram for a set-up position, and the result line. Read: the same, lishogi's board's
//! notation (shogiops: `N手目`, `（居食い）`, `(じっと)`), time fields, comments, termination
//! lines and header tags.

use super::{GameRecord, GameResult, KifError, KifProblem, RecordError};
use crate::core::{Color, Move, Square};
use crate::position::Position;
use crate::variant::{KifStyle, Variant};

/// One game read from a KIF file.
#[derive(Clone, Debug, PartialEq)]
pub struct KifGame {
    /// The variant (from the moves' notation, else the default given).
    pub variant: &'static Variant,
    /// The start position: the board diagram's, or the variant's start.
    pub sfen: String,
    /// The moves, USI (a double move with its mid square).
    pub moves: Vec<String>,
    /// Sente's and gote's names (`先手：`, `後手：`).
    pub names: (String, String),
    /// The result the file states, if any.
    pub result: Option<GameResult>,
    /// The header tags kept for the annotated KIF (`棋戦`, `開始日時`, ...).
    pub header: Vec<(String, String)>,
    /// Each move's thinking time, ms, from its time field (`(00:12/00:03:40)`), where the
    /// file has one.
    pub times_ms: Vec<Option<u64>>,
}

/// Kanji numerals for ranks 1..=12 (十一, 十二).
pub fn kanji_number(n: usize) -> String {
    const DIGITS: [&str; 10] = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九"];
    match n {
        1..=9 => DIGITS[n].to_string(),
        10 => "十".to_string(),
        11..=19 => format!("十{}", DIGITS[n - 10]),
        _ => n.to_string(),
    }
}

/// Chu squares as lishogi writes them: Arabic file, kanji rank (`7八`, `10十一`).
fn kif_square(variant: &Variant, sq: Square) -> String {
    format!(
        "{}{}",
        variant.spec.files - sq.x(),
        kanji_number(sq.y() + 1)
    )
}

/// Full-width digits, for sho's standard-shogi squares (`７六`).
fn full_width(n: usize) -> String {
    n.to_string()
        .chars()
        .map(|c| char::from_u32(c as u32 + 0xfee0).unwrap_or(c))
        .collect()
}

/// The KIF text of one move (one line, or two for a double move) played from `pos`.
fn kif_move(pos: &Position, mv: Move, last_to: Option<Square>) -> Vec<String> {
    let v = pos.variant();
    let name = v.kind(pos.piece_on(mv.from()).kind()).kif_name;
    let same = last_to == Some(mv.to());
    if v.spec.kif == KifStyle::Shogi {
        let sq = |s: Square| {
            format!(
                "{}{}",
                full_width(v.spec.files - s.x()),
                kanji_number(s.y() + 1)
            )
        };
        let dest = if same {
            "同　".to_string()
        } else {
            sq(mv.to())
        };
        let from = format!("{}{}", v.spec.files - mv.from().x(), mv.from().y() + 1);
        return vec![format!(
            "{dest}{name}{}({from})",
            if mv.is_promotion() { "成" } else { "" }
        )];
    }
    let sq = |s: Square| kif_square(v, s);
    match mv.mid() {
        // As lishogi's server writes a double move: two steps, each with its origin; an
        // igui or jitto second step names its destination, the origin of the first. The
        // server writes `仝` on a first step that lands on the last move's square, but
        // shogiops (lishogi's board) cannot read that back, so the square is written out.
        Some(mid) => {
            vec![
                format!("一歩目 {}{name} （←{}）", sq(mid), sq(mv.from())),
                format!(
                    "二歩目 {}{name}{} （←{}）",
                    sq(mv.to()),
                    if mv.is_promotion() { "成" } else { "" },
                    sq(mid)
                ),
            ]
        }
        None => {
            let dest = if same { "仝".to_string() } else { sq(mv.to()) };
            vec![format!(
                "{dest}{name}{} （←{}）",
                if mv.is_promotion() { "成" } else { "" },
                sq(mv.from())
            )]
        }
    }
}

/// A line of moves from `pos` in the KIF notation of the moves (for comments: the best
/// move and what follows), `last_to` the square of the move before; a double move as its
/// two steps (`一歩目 7五獅子 （←7六） 二歩目 7六獅子 （←7五）`). Stops at a move that is
/// not legal.
pub fn kif_line(pos: &Position, moves: &[Move], last_to: Option<Square>) -> String {
    line_text(pos, moves, last_to, false)
}

/// [`kif_line`] with each move after its mover's mark, ☗ sente or ☖ gote (`☗7八歩兵
/// （←7九）  ☖7五歩兵 （←7四）`), for a line read apart from the game.
pub fn kif_line_marked(pos: &Position, moves: &[Move], last_to: Option<Square>) -> String {
    line_text(pos, moves, last_to, true)
}

fn line_text(pos: &Position, moves: &[Move], mut last_to: Option<Square>, marks: bool) -> String {
    let mut pos = pos.clone();
    let mut out = Vec::new();
    for &mv in moves {
        // A double move may come as its path (the mid square kept), which the legality
        // test knows in its canonical form.
        if !pos.is_legal(pos.canonical(mv)) {
            break;
        }
        let mark = match (marks, pos.side_to_move()) {
            (false, _) => "",
            (true, Color::Sente) => "☗",
            (true, Color::Gote) => "☖",
        };
        out.push(format!("{mark}{}", kif_move(&pos, mv, last_to).join(" ")));
        last_to = Some(mv.to());
        pos.make_move(mv);
    }
    out.join("  ")
}

/// The record as a KIF file.
pub fn to_kif(record: &GameRecord) -> Result<String, RecordError> {
    to_kif_with_header(record, &[])
}

/// The record as a KIF file whose header has these tags (`棋戦`, `場所`, `開始日時`,
/// `持ち時間`, ... as `(key, value)`, from the game's own KIF) in place of the match
/// runner's date and event; the players are the record's.
pub fn to_kif_with_header(
    record: &GameRecord,
    header: &[(String, String)],
) -> Result<String, RecordError> {
    let variant = record.variant;
    let mut pos = Position::from_sfen(variant, &record.initial_sfen)?;
    let mut out = String::new();
    if header.is_empty() {
        out += &format!(
            "開始日時：{}\n",
            record.date.replace('T', " ").trim_end_matches('Z')
        );
        out += &format!("棋戦：shishi match ({})\n", record.variant.name());
    }
    for (key, value) in header {
        out += &format!("{key}：{value}\n");
    }
    if record.initial_sfen != variant.spec.start_sfen {
        out += &kif_board(&pos);
    } else if variant.spec.kif == KifStyle::Shogi {
        out += "手合割：平手\n";
    }
    out += &format!("先手：{}\n後手：{}\n", record.sente, record.gote);
    out += "手数----指手---------消費時間--\n";
    let mut last_to = None;
    // Each side's time used so far, seconds.
    let mut totals = [0u64; 2];
    for (i, text) in record.moves.split_whitespace().enumerate() {
        let mv = pos.parse_usi_path(text)?;
        let lines = kif_move(&pos, mv, last_to);
        let n = i + 1;
        // lishogi's server layout: the number in four places, then three spaces and the
        // move, or a double move's step right after the number.
        // The time field as lishogi writes it: this move's time, then the mover's total.
        let time = match record.times_ms.get(i) {
            Some(&ms) => {
                totals[i % 2] += ms / 1000;
                format!("   {}", time_field(ms / 1000, totals[i % 2]))
            }
            None => String::new(),
        };
        if lines.len() == 2 {
            out += &format!("{n:>4}{}\n{n:>4}{}{time}\n", lines[0], lines[1]);
        } else {
            out += &format!("{n:>4}   {}{time}\n", lines[0]);
        }
        // KIF comments: the engine's evaluation or the analysis of the move.
        if let Some(c) = record
            .comments
            .get(i)
            .filter(|c| !c.is_empty() && *c != "book")
        {
            // Each line of a comment is a comment line of its own.
            for line in c.lines() {
                out += &format!("*{line}\n");
            }
        }
        last_to = Some(mv.to());
        pos.make_move(mv);
    }
    let plies = record.moves.split_whitespace().count();
    let ending = match record.result {
        GameResult::SenteWon => format!("まで{plies}手で先手の勝ち"),
        GameResult::GoteWon => format!("まで{plies}手で後手の勝ち"),
        GameResult::Draw => format!("まで{plies}手で引き分け"),
        // An analysed game cut short.
        GameResult::Unfinished => format!("まで{plies}手で中断"),
    };
    out += &format!("{ending}\n*{}\n", record.reason);
    Ok(out)
}

/// A board diagram for a game that does not start from the start position, in lishogi's
/// layout: full-width file numbers, a frame, each square as wide as the longest name
/// (three places in chu, two in shogi), gote's pieces after `v`, `後手番` when gote moves.
pub fn kif_board(pos: &Position) -> String {
    let v = pos.variant();
    let width = if v.spec.kif == KifStyle::Chu { 3 } else { 2 };
    // The file numbers above their columns, as lishogi aligns them.
    let files: String = (1..=v.spec.files)
        .rev()
        .map(|f| format!("{}{}", full_width(f), if f >= 10 { " " } else { "  " }))
        .collect();
    let files = if width == 3 {
        format!(" {}", files.trim_end())
    } else {
        format!(
            "  {}",
            (1..=v.spec.files)
                .rev()
                .map(full_width)
                .collect::<Vec<_>>()
                .join(" ")
        )
    };
    let frame = format!("+{}+\n", "-".repeat(v.spec.files * (width + 1)));
    let mut out = format!("{files}\n{frame}");
    for y in 0..v.spec.ranks {
        out.push('|');
        for x in 0..v.spec.files {
            let p = pos.piece_on(Square::new(x, y));
            let cell = if p.is_empty() {
                "・".to_string()
            } else {
                let gote = if p.color() == Color::Gote { "v" } else { "" };
                format!("{gote}{}", v.kind(p.kind()).kif_board_name)
            };
            // Right-aligned: a kanji counts as one place, as lishogi pads.
            let pad = width.saturating_sub(cell.chars().count());
            out += &" ".repeat(pad);
            out += &cell;
        }
        out += &format!("|{}\n", kanji_number(y + 1));
    }
    out += &frame;
    if pos.side_to_move() == Color::Gote {
        out += "後手番\n";
    }
    out
}

// Reading.

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
fn read_square(variant: &Variant, text: &str) -> Option<Square> {
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
        return read_square(variant, rest[..end].trim());
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
    read_square(variant, &text[..end])
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
) -> Result<String, (usize, KifProblem)> {
    if rows.len() != variant.spec.ranks {
        return Err((
            rows[0].0,
            KifProblem::DiagramRanks {
                found: rows.len(),
                variant: variant.name(),
                expected: variant.spec.ranks,
            },
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
                    let kind = variant
                        .kind_by_kif_name(&name)
                        .ok_or_else(|| (*line, KifProblem::UnknownPiece(name.clone())))?;
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
            return Err((
                *line,
                KifProblem::DiagramFiles {
                    found: cells.len(),
                    variant: variant.name(),
                    expected: variant.spec.files,
                },
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

/// The move part of a KIF move line, without the trailing time field: after the move
/// number of a KIF line as lishogi's server writes its downloads and standard KIF does
/// (`   1   7八歩兵 （←7九）   (00:01/00:00:01)`, `   1 ７六歩(77)`), or after `N手目`
/// (shogiops' notation, which lishogi's board shows), where a lion's double move takes two
/// lines with the step right after the number (`   9一歩目 8五獅子 （←8六）`, `   9二歩目
/// 9四獅子 （←8五）`). `None` for any other line: a line must begin with its move number
/// (a comment that mentions `5手目` is no move).
fn kif_move_text(line: &str) -> Option<&str> {
    let after = after_move_number(line.trim_start())?;
    let after = after.strip_prefix("手目").unwrap_or(after);
    let step = after.starts_with("一歩目") || after.starts_with("二歩目");
    if !(step || after.starts_with(char::is_whitespace)) {
        return None;
    }
    let rest = after.trim();
    // A time field `( 0:00/00:00:00)` closes standard KIF lines.
    let rest = match rest.rfind('(') {
        Some(open) if rest[open..].contains(':') => rest[..open].trim_end(),
        _ => rest,
    };
    // The game's end written as a move (resignation, repetition, ...) is no move.
    (!KIF_ENDINGS.iter().any(|w| rest.starts_with(w))).then_some(rest)
}

/// A KIF time field: `(mm:ss/hh:mm:ss)`, this move's time and the mover's total.
fn time_field(this_move: u64, total: u64) -> String {
    format!(
        "({:02}:{:02}/{:02}:{:02}:{:02})",
        this_move / 60,
        this_move % 60,
        total / 3600,
        total / 60 % 60,
        total % 60
    )
}

/// A move line's thinking time, ms: the first part of its time field (`( 0:12/00:03:40)`:
/// 12 s; `(1:02:03/...)` as hours too).
fn move_time_ms(line: &str) -> Option<u64> {
    let open = line.rfind('(')?;
    let field = line[open + 1..].trim_end_matches(')').trim();
    let (this_move, _) = field.split_once('/')?;
    let mut ms = 0u64;
    for part in this_move.trim().split(':') {
        ms = ms
            .checked_mul(60)?
            .checked_add(part.trim().parse::<u64>().ok()?)?;
    }
    ms.checked_mul(1000)
}

/// The move number at the start of a KIF move line (`  12   7八歩兵`, `12手目`).
fn move_number(line: &str) -> Option<usize> {
    let line = line.trim_start();
    let digits = line.len() - line.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    line[..digits].parse().ok()
}

/// Whether a KIF line is a comment (`*` a move's or the game's comment, `#` a file
/// comment, `&` an annotation): never a move, an ending or a header tag.
fn is_comment(line: &str) -> bool {
    line.starts_with(['*', '#', '&'])
}

/// The variant a KIF's moves are written for: the first of [`Variant::all`] whose
/// [`KifStyle`] the move lines are written in ([`kif_style_of_notation`]).
fn variant_of_notation(text: &str) -> Option<&'static Variant> {
    let style = kif_style_of_notation(text)?;
    Variant::all().into_iter().find(|v| v.spec.kif == style)
}

/// The notation a KIF's moves are written in: chu's names the origin as `（←7九）` and
/// writes a lion's double move in steps; standard shogi's (sho's) as `(77)`. Only the move
/// lines are read (a word in an event name or a comment says nothing).
fn kif_style_of_notation(text: &str) -> Option<KifStyle> {
    for line in text.lines().map(str::trim).filter(|l| !is_comment(l)) {
        let Some(rest) = kif_move_text(line) else {
            continue;
        };
        if rest.contains('←') || rest.starts_with("一歩目") || rest.starts_with("二歩目") {
            return Some(KifStyle::Chu);
        }
        if let Some(open) = rest.rfind('(') {
            let origin = rest[open + 1..].trim_end_matches(')');
            if origin.len() == 2 && origin.bytes().all(|b| b.is_ascii_digit()) {
                return Some(KifStyle::Shogi);
            }
        }
    }
    None
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
fn kif_result(line: &str, to_move: Color) -> Option<GameResult> {
    let won = |c| GameResult::won_by(Some(c));
    let line = line.trim();
    if line.starts_with("まで") {
        return if line.contains("先手の勝ち") || line.contains("下手の勝ち") {
            Some(GameResult::SenteWon)
        } else if line.contains("後手の勝ち") || line.contains("上手の勝ち") {
            Some(GameResult::GoteWon)
        } else if line.contains("千日手") || line.contains("持将棋") || line.contains("引き分け")
        {
            Some(GameResult::Draw)
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
        Some(GameResult::Draw)
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

/// Reads one game from a KIF file (`file` names it in errors): lishogi's server layout and
/// its board's (shogiops') notation, standard KIF for sho, a set-up position from a board
/// diagram. `variant`: the variant the user named, which the file cannot override; `None`:
/// the variant its moves are written for (chu where they say nothing).
///
/// Only the main line is read: it ends at the game's ending (`投了`, `まで11手で先手の勝ち`)
/// or at the first variation (`変化：3手`). The error names the file and line and what is
/// wrong: a move number out of order, a move after the game's end, a lion move cut after
/// its first step, a move that cannot be read or is not legal.
pub fn read(
    text: &str,
    file: &str,
    variant: Option<&'static Variant>,
) -> Result<KifGame, KifError> {
    let variant = variant
        .or_else(|| variant_of_notation(text))
        .or_else(|| variant_of_diagram(text))
        .unwrap_or(Variant::chu());
    let mut reader = KifReader::new(file, variant);
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if is_comment(line) {
            continue;
        }
        // A variation (lishogi writes its side lines after the main line): not this game.
        if line.starts_with("変化：") || line.starts_with("変化:") {
            break;
        }
        reader.line(line, n + 1)?;
    }
    reader.finish()
}

/// A KIF game as it is read, line after line.
struct KifReader<'a> {
    file: &'a str,
    /// The game so far (its variant is the one read in).
    game: KifGame,
    /// The position after the moves read.
    pos: Position,
    /// The last move's destination (a move to `同` it).
    last: Option<Square>,
    /// A lion's first step waiting for its second, with its line.
    first_step: Option<(Square, usize)>,
    /// The line that ended the game (an ending word or the summary line), if one has.
    ended_at: Option<usize>,
    /// Before the moves' heading (`手数----`).
    in_header: bool,
    /// A set-up position: the diagram's rows (with their line numbers) and whose turn it is.
    board_rows: Vec<(usize, String)>,
    gote_to_move: bool,
    /// The diagram was read into the start position.
    set_up: bool,
}

impl<'a> KifReader<'a> {
    fn new(file: &'a str, variant: &'static Variant) -> KifReader<'a> {
        KifReader {
            file,
            game: KifGame {
                variant,
                sfen: variant.spec.start_sfen.to_string(),
                moves: Vec::new(),
                names: (String::new(), String::new()),
                result: None,
                header: Vec::new(),
                times_ms: Vec::new(),
            },
            pos: Position::startpos(variant),
            last: None,
            first_step: None,
            ended_at: None,
            in_header: true,
            board_rows: Vec::new(),
            gote_to_move: false,
            set_up: false,
        }
    }

    /// Takes line `n` (trimmed, no comment).
    fn line(&mut self, line: &str, n: usize) -> Result<(), KifError> {
        if line.starts_with("手数----") {
            self.in_header = false;
        }
        if let Some(stated) = kif_result(line, self.pos.side_to_move()) {
            self.game.result = Some(stated);
            self.ended_at.get_or_insert(n);
            return Ok(());
        }
        if self.header_line(line, n) {
            return Ok(());
        }
        if !self.board_rows.is_empty()
            && !self.set_up
            && (!self.in_header || kif_move_text(line).is_some())
        {
            self.set_up_board()?;
        }
        match kif_move_text(line) {
            Some(rest) => self.move_line(line, rest, n),
            None => Ok(()),
        }
    }

    /// The header's tags, the players, the diagram's rows and whose turn it is; true for a
    /// line that is no more than that (a diagram row).
    fn header_line(&mut self, line: &str, n: usize) -> bool {
        if self.in_header {
            if let Some((key, value)) = line.split_once('：') {
                if KIF_HEADER_TAGS.contains(&key) {
                    self.game.header.push((key.to_string(), value.to_string()));
                }
            }
        }
        if let Some(name) = line.strip_prefix("先手：") {
            self.game.names.0 = name.to_string();
        } else if let Some(name) = line.strip_prefix("後手：") {
            self.game.names.1 = name.to_string();
        } else if line.starts_with('|') && self.in_header {
            self.board_rows.push((n, line.to_string()));
            return true;
        } else if line.starts_with("後手番") || line.starts_with("上手番") {
            self.gote_to_move = true;
        }
        false
    }

    /// The board diagram read into the start position.
    fn set_up_board(&mut self) -> Result<(), KifError> {
        let sfen = kif_board_sfen(self.game.variant, &self.board_rows, self.gote_to_move)
            .map_err(|(line, problem)| error(self.file, Some(line), problem))?;
        self.pos = Position::from_sfen(self.game.variant, &sfen).map_err(|e| {
            let line = Some(self.board_rows[0].0);
            error(self.file, line, KifProblem::IllegalDiagram(e))
        })?;
        self.game.sfen = sfen;
        self.set_up = true;
        Ok(())
    }

    /// A move line (`rest`: after its number), checked and played.
    fn move_line(&mut self, line: &str, rest: &str, n: usize) -> Result<(), KifError> {
        let at = |problem| error(self.file, Some(n), problem);
        if let Some(end) = self.ended_at {
            return Err(at(KifProblem::MoveAfterEndLine(end)));
        }
        let expected = self.game.moves.len() + 1;
        if move_number(line) != Some(expected) {
            return Err(at(KifProblem::MoveNumber {
                found: move_number(line).map_or("?".into(), |m| m.to_string()),
                expected,
            }));
        }
        if self.first_step.is_some() && !rest.starts_with("二歩目") {
            return Err(at(KifProblem::FirstStepAlone));
        }
        let Some(mv) =
            read_move(self.game.variant, rest, self.last, &mut self.first_step, n).map_err(at)?
        else {
            return Ok(());
        };
        if let Some(over) = self.pos.outcome() {
            return Err(at(KifProblem::MoveAfterOutcome {
                reason: over.reason.describe().to_string(),
                moves: self.game.moves.len(),
            }));
        }
        let text = crate::position::notation::move_to_usi(self.game.variant, mv);
        let legal = self
            .pos
            .parse_usi_path(&text)
            .map_err(|e| at(KifProblem::IllegalMove(e)))?;
        self.game.moves.push(text);
        self.game.times_ms.push(move_time_ms(line));
        self.last = Some(legal.to());
        self.pos.make_move(legal);
        Ok(())
    }

    /// The game read, or why it cannot be one.
    fn finish(self) -> Result<KifGame, KifError> {
        if let Some((_, line)) = self.first_step {
            return Err(error(self.file, Some(line), KifProblem::FirstStepAtEnd));
        }
        if self.game.moves.is_empty() {
            return Err(error(self.file, None, KifProblem::NoMoves));
        }
        Ok(self.game)
    }
}

/// A [`KifError`] of `file` at `line`.
fn error(file: &str, line: Option<usize>, problem: KifProblem) -> KifError {
    KifError {
        file: file.to_string(),
        line,
        problem,
    }
}

/// The move of one KIF move line (`rest`: after its number): `None` for a lion's first
/// step (kept in `first_step` with its line number until the second comes), the whole move
/// at the second step, or the error in words.
fn read_move(
    variant: &'static Variant,
    rest: &str,
    last: Option<Square>,
    first_step: &mut Option<(Square, usize)>,
    line: usize,
) -> Result<Option<Move>, KifProblem> {
    if let Some(step) = rest.strip_prefix("一歩目") {
        let from = kif_origin(variant, step).ok_or(KifProblem::UnreadableStep("first"))?;
        *first_step = Some((from, line));
        return Ok(None);
    }
    if let Some(step) = rest.strip_prefix("二歩目") {
        let (Some((from, _)), Some(mid)) = (first_step.take(), kif_origin(variant, step)) else {
            return Err(KifProblem::SecondStepAlone);
        };
        // An igui or jitto second step names its destination, the first step's origin.
        let to = if step.contains("居食い") || step.contains("じっと") {
            Some(from)
        } else {
            kif_destination(variant, step.trim(), last)
        };
        return to
            .map(|to| Some(Move::double(from, mid, to)))
            .ok_or(KifProblem::UnreadableStep("second"));
    }
    match (
        kif_destination(variant, rest, last),
        kif_origin(variant, rest),
    ) {
        (Some(to), Some(from)) => Ok(Some(Move::new(from, to, kif_promotes(rest)))),
        _ => Err(KifProblem::UnreadableMove(rest.to_string())),
    }
}

/// The variant of a KIF's board diagram by its size: the first of [`Variant::all`] with
/// that many ranks (12: chu, 9: sho), if it has one.
fn variant_of_diagram(text: &str) -> Option<&'static Variant> {
    let rows = text
        .lines()
        .map(str::trim)
        .take_while(|l| !l.starts_with("手数----"))
        .filter(|l| l.starts_with('|'))
        .count();
    Variant::all().into_iter().find(|v| v.spec.ranks == rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_stated_by_kif_endings() {
        use crate::core::Color::{Gote, Sente};
        assert_eq!(kif_result("  11   投了", Sente), Some(GameResult::GoteWon));
        assert_eq!(kif_result("  12   投了", Gote), Some(GameResult::SenteWon));
        assert_eq!(
            kif_result("  40   切れ負け", Gote),
            Some(GameResult::SenteWon)
        );
        assert_eq!(
            kif_result("  40   反則勝ち", Gote),
            Some(GameResult::GoteWon)
        );
        assert_eq!(kif_result("  40   千日手", Gote), Some(GameResult::Draw));
        assert_eq!(
            kif_result("まで179手で先手の勝ち", Gote),
            Some(GameResult::SenteWon)
        );
        assert_eq!(kif_result("まで80手で千日手", Gote), Some(GameResult::Draw));
        assert_eq!(kif_result("   1   7八歩兵 （←7九）", Sente), None);
        assert_eq!(kif_result("* 投了", Sente), None);
    }

    /// The first moves of a lishogi chu KIF (8八歩兵, 5五歩兵, 8九獅子, 5四獅子).
    const CHU_MOVES: &str = "手数----指手---------消費時間--\n   1   8八歩兵 （←8九）\n\
   2   5五歩兵 （←5四）\n   3   8九獅子 （←7十）\n   4   5四獅子 （←6三）\n";

    fn moves_of(text: &str) -> Result<String, String> {
        read(text, "t.kif", None)
            .map(|g| g.moves.join(" "))
            .map_err(|e| e.to_string())
    }

    #[test]
    fn a_variation_is_not_the_main_line() {
        // Issue 49, red team 4: lishogi writes side lines after the main line as
        // `変化：3手`; they were appended to the game.
        let text = format!("{CHU_MOVES}まで4手で中断\n\n変化：3手\n   3   7八歩兵 （←7九）\n   4   5六歩兵 （←5五）\n");
        assert_eq!(moves_of(&text).unwrap(), "8i8h 5d5e 7j8i 6c5d");
    }

    #[test]
    fn moves_after_the_end_are_refused() {
        // Red team 5: moves after `投了` or `まで..` were analysed.
        let text = format!("{CHU_MOVES}   5   投了\n   5   7八歩兵 （←7九）\n");
        let e = moves_of(&text).unwrap_err();
        assert!(
            e.contains("t.kif:7: a move after the game's end (line 6)"),
            "{e}"
        );
        assert_eq!(
            read(&text, "t.kif", None).unwrap_err(),
            KifError {
                file: "t.kif".into(),
                line: Some(7),
                problem: KifProblem::MoveAfterEndLine(6)
            }
        );
        let text = format!("{CHU_MOVES}まで4手で後手の勝ち\n   5   7八歩兵 （←7九）\n");
        assert!(moves_of(&text)
            .unwrap_err()
            .contains("a move after the game's end"));
        // A move after the royal's capture, from a set-up position: the game ended there.
        let setup = "後手：b\n手数----指手---------消費時間--\n";
        let diagram = kif_board(
            &Position::from_sfen(
                Variant::chu(),
                "p11/12/12/12/12/12/12/6k5/12/6N5/12/6K5 b - 1",
            )
            .unwrap(),
        );
        let captured =
            format!("{diagram}{setup}   1   6八獅子 （←6十）\n   2   12二歩兵 （←12一）\n");
        let e = moves_of(&captured).unwrap_err();
        assert!(
            e.contains(":19: a move after the game's end (royal captured after move 1)"),
            "{e}"
        );
    }

    #[test]
    fn a_comment_that_mentions_a_move_number_is_no_move() {
        // Red team 6: any line with 手目 was read as a move.
        let text = format!(
            "{CHU_MOVES}*5手目は悪手\n*12手目   5五歩兵 （←5四） なら互角\n   5   7八歩兵 （←7九）\n"
        );
        assert_eq!(moves_of(&text).unwrap(), "8i8h 5d5e 7j8i 6c5d 7i7h");
    }

    #[test]
    fn the_variant_comes_from_the_moves_or_the_user_not_from_any_text() {
        // Red team 7: 十一 or 象 anywhere (an event name) chose the variant, over the
        // user's --variant too.
        let sho = "棋戦：象棋 十一月の会\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n";
        assert_eq!(read(sho, "s.kif", None).unwrap().variant.name(), "shoshogi");
        let chu = format!("棋戦：象 shoshogi\n{CHU_MOVES}");
        assert_eq!(
            read(&chu, "c.kif", None).unwrap().variant.name(),
            "chushogi"
        );
        let named = read(&chu, "c.kif", Some(Variant::sho()));
        assert!(named.is_err(), "the named variant is kept: {named:?}");
    }

    #[test]
    fn move_numbers_out_of_order_and_a_cut_lion_move_are_named() {
        // Red team 13: duplicate or out-of-order numbers passed; a file cut after 一歩目
        // dropped the move without a word.
        let twice = CHU_MOVES.replace("   3   8九獅子", "   2   8九獅子");
        let e = moves_of(&twice).unwrap_err();
        assert!(
            e.contains("t.kif:4: move number 2 where 3 was expected"),
            "{e}"
        );
        let skipped = CHU_MOVES.replace("   3   8九獅子", "   5   8九獅子");
        assert!(moves_of(&skipped)
            .unwrap_err()
            .contains("move number 5 where 3"));
        let cut = format!("{CHU_MOVES}   5一歩目 7十獅子 （←8九）\n");
        let e = moves_of(&cut).unwrap_err();
        assert!(
            e.contains("t.kif:6: a lion's first step (一歩目) without its second"),
            "{e}"
        );
        let whole = format!("{cut}   5二歩目 8九獅子(じっと) （←7十）\n");
        assert_eq!(moves_of(&whole).unwrap(), "8i8h 5d5e 7j8i 6c5d 8i7j8i");
    }

    #[test]
    fn move_times_are_written_and_read_back_as_lishogi_writes_them() {
        let mut record = GameRecord {
            game: 1,
            variant: Variant::chu(),
            initial_sfen: Variant::chu().spec.start_sfen.into(),
            moves: "8i8h 5d5e 7j8i 6c5d 8i8g 5d6e 8g7f 6e6f 7f7e7f".into(),
            result: GameResult::Unfinished,
            reason: "test".into(),
            forfeit: false,
            sente: "a".into(),
            gote: "b".into(),
            times_ms: vec![1_200, 61_000, 0, 2_000, 3_000, 1_000, 500, 4_000, 3_725_000],
            comments: vec![],
            opening: 0,
            date: "2026-12-04T00:00:00Z".into(),
        };
        let kif = to_kif(&record).unwrap();
        assert!(
            kif.contains("   1   8八歩兵 （←8九）   (00:01/00:00:01)\n"),
            "{kif}"
        );
        assert!(
            kif.contains("   2   5五歩兵 （←5四）   (01:01/00:01:01)\n"),
            "{kif}"
        );
        assert!(
            kif.contains("二歩目 7六獅子 （←7五）   (62:05/01:02:09)\n"),
            "{kif}"
        );
        let game = read(&kif, "t.kif", None).unwrap();
        let seconds: Vec<Option<u64>> = game
            .times_ms
            .iter()
            .map(|t| t.map(|ms| ms / 1000))
            .collect();
        assert_eq!(seconds, [1, 61, 0, 2, 3, 1, 0, 4, 3725].map(Some).to_vec());
        record.times_ms.clear();
        assert!(!to_kif(&record).unwrap().contains("(00:"));
    }
}
