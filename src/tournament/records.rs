//! Game records: JSON lines like lishogi's export (`variant`, `initialSfen`, `moves` as one
//! space-separated USI string, plus result and reason), KIF as lishogi writes chu shogi
//! (full two-kanji piece names, `仝` for the same square, a lion double move on two lines
//! `一歩目` / `二歩目` with `（居食い）` and `(じっと)`), and PGN with the engines' comments.

use crate::core::{Color, Move, Square};
use crate::position::Position;
use crate::variant::{KifStyle, Variant};
use serde::{Deserialize, Serialize};

/// One finished game.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct GameRecord {
    /// 1-based game number in the match.
    pub game: usize,
    /// `chushogi` or `shoshogi`.
    pub variant: String,
    /// The SFEN the game started from (lishogi: `initialSfen`).
    pub initial_sfen: String,
    /// The moves, USI, space separated.
    pub moves: String,
    /// `1-0` (sente won), `0-1` (gote won) or `1/2-1/2`.
    pub result: String,
    /// Why the game ended.
    pub reason: String,
    /// Whether the loser lost by forfeit (illegal move, crash, no answer, time, ...).
    #[serde(default)]
    pub forfeit: bool,
    /// Engine playing sente.
    pub sente: String,
    /// Engine playing gote.
    pub gote: String,
    /// Milliseconds each move took, in order.
    pub times_ms: Vec<u64>,
    /// The engines' evaluation after each move when they gave one (centipawns or
    /// `mate N`, from the mover's side, with depth).
    pub comments: Vec<String>,
    /// Index of the opening used.
    pub opening: usize,
    /// When the game started (RFC 3339, UTC).
    pub date: String,
}

impl GameRecord {
    /// The record as one JSON line.
    pub fn to_json_line(&self) -> String {
        serde_json::to_string(self).expect("a game record serialises")
    }

    /// Replays the moves on the initial position; the final position, or the error of the
    /// first bad move.
    pub fn replay(&self) -> Result<Position, String> {
        let variant = Variant::by_name(&self.variant)
            .ok_or_else(|| format!("unknown variant {}", self.variant))?;
        let mut pos =
            Position::from_sfen(variant, &self.initial_sfen).map_err(|e| e.to_string())?;
        pos.play_usi_moves(self.moves.split_whitespace())
            .map_err(|e| e.to_string())?;
        Ok(pos)
    }

    /// Whether the record can be counted: a known result and moves that replay (each legal,
    /// none after the end). The error says which field is wrong.
    pub fn check(&self) -> Result<(), String> {
        if !RESULTS.contains(&self.result.as_str()) {
            return Err(format!(
                "result '{}' is none of {}",
                self.result,
                RESULTS.join(", ")
            ));
        }
        self.replay().map(drop).map_err(|e| format!("moves: {e}"))
    }
}

/// The results a record may hold: sente won, gote won, draw.
pub const RESULTS: [&str; 3] = ["1-0", "0-1", "1/2-1/2"];

/// Kanji numerals for ranks 1..=12 (十一, 十二).
fn kanji_number(n: usize) -> String {
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
pub fn kif_line(pos: &Position, moves: &[Move], mut last_to: Option<Square>) -> String {
    let mut pos = pos.clone();
    let mut out = Vec::new();
    for &mv in moves {
        // A double move may come as its path (the mid square kept), which the legality
        // test knows in its canonical form.
        if !pos.is_legal(pos.canonical(mv)) {
            break;
        }
        out.push(kif_move(&pos, mv, last_to).join(" "));
        last_to = Some(mv.to());
        pos.make_move(mv);
    }
    out.join("  ")
}

/// The record as a KIF file.
pub fn to_kif(record: &GameRecord) -> Result<String, String> {
    to_kif_with_header(record, &[])
}

/// The record as a KIF file whose header has these tags (`棋戦`, `場所`, `開始日時`,
/// `持ち時間`, ... as `(key, value)`, from the game's own KIF) in place of the match
/// runner's date and event; the players are the record's.
pub fn to_kif_with_header(
    record: &GameRecord,
    header: &[(String, String)],
) -> Result<String, String> {
    let variant = Variant::by_name(&record.variant).ok_or("unknown variant")?;
    let mut pos = Position::from_sfen(variant, &record.initial_sfen).map_err(|e| e.to_string())?;
    let mut out = String::new();
    if header.is_empty() {
        out += &format!(
            "開始日時：{}\n",
            record.date.replace('T', " ").trim_end_matches('Z')
        );
        out += &format!("棋戦：shishi match ({})\n", record.variant);
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
    for (i, text) in record.moves.split_whitespace().enumerate() {
        let mv = pos.parse_usi_path(text).map_err(|e| e.to_string())?;
        let lines = kif_move(&pos, mv, last_to);
        let n = i + 1;
        // lishogi's server layout: the number in four places, then three spaces and the
        // move, or a double move's step right after the number.
        if lines.len() == 2 {
            out += &format!("{n:>4}{}\n{n:>4}{}\n", lines[0], lines[1]);
        } else {
            out += &format!("{n:>4}   {}\n", lines[0]);
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
    let ending = match record.result.as_str() {
        "1-0" => format!("まで{plies}手で先手の勝ち"),
        "0-1" => format!("まで{plies}手で後手の勝ち"),
        "1/2-1/2" => format!("まで{plies}手で引き分け"),
        // A record that does not say how the game ended (an analysed game cut short).
        _ => format!("まで{plies}手で中断"),
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

/// The record as a PGN game (moves in XBoard coordinates, the engines' evaluations as
/// comments).
pub fn to_pgn(record: &GameRecord) -> Result<String, String> {
    let variant = Variant::by_name(&record.variant).ok_or("unknown variant")?;
    let mut pos = Position::from_sfen(variant, &record.initial_sfen).map_err(|e| e.to_string())?;
    let xb_variant = if variant.name() == "chushogi" {
        "chu"
    } else {
        "shogi"
    };
    let mut out = String::new();
    out += "[Event \"shishi match\"]\n[Site \"?\"]\n";
    out += &format!(
        "[Date \"{}\"]\n[Round \"{}\"]\n",
        record
            .date
            .get(..10)
            .unwrap_or("????.??.??")
            .replace('-', "."),
        record.game
    );
    out += &format!(
        "[White \"{}\"]\n[Black \"{}\"]\n[Result \"{}\"]\n",
        record.sente, record.gote, record.result
    );
    out += &format!(
        "[Variant \"{xb_variant}\"]\n[Termination \"{}\"]\n",
        record.reason
    );
    if record.initial_sfen != variant.spec.start_sfen {
        let fields: Vec<&str> = record.initial_sfen.split_whitespace().collect();
        let side = if fields.get(1) == Some(&"w") {
            "b"
        } else {
            "w"
        };
        out += &format!("[SetUp \"1\"]\n[FEN \"{} {side} - - 0 1\"]\n", fields[0]);
    }
    out.push('\n');
    let mut line = String::new();
    for (i, text) in record.moves.split_whitespace().enumerate() {
        let mv = pos.parse_usi_path(text).map_err(|e| e.to_string())?;
        if i % 2 == 0 {
            line += &format!("{}. ", i / 2 + 1);
        }
        line += &crate::cecp::notation::move_legs(&pos, mv).concat();
        if let Some(c) = record.comments.get(i).filter(|c| !c.is_empty()) {
            line += &format!(" {{{c}}}");
        }
        line.push(' ');
        pos.make_move(mv);
        if line.len() > 70 {
            out += line.trim_end();
            out.push('\n');
            line.clear();
        }
    }
    out += &line;
    out += &format!("{{{}}} {}\n\n", record.reason, record.result);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(moves: &str) -> GameRecord {
        GameRecord {
            game: 1,
            variant: "chushogi".into(),
            initial_sfen: Variant::chu().spec.start_sfen.into(),
            moves: moves.into(),
            result: "1-0".into(),
            reason: "royal captured".into(),
            forfeit: false,
            sente: "A".into(),
            gote: "B".into(),
            times_ms: vec![],
            comments: vec![],
            opening: 0,
            date: "2026-11-29T20:00:00Z".into(),
        }
    }

    #[test]
    fn kif_writes_lion_moves_on_two_lines_as_lishogi_does() {
        // lishogi's server layout (its KIF downloads): the number in four places, three
        // spaces and the move; a double move's steps right after the number.
        let kif = to_kif(&record("7i7h 7d7e 7j7i6h")).unwrap();
        assert!(kif.contains("\n   1   7八歩兵 （←7九）\n"), "{kif}");
        assert!(kif.contains("\n   2   7五歩兵 （←7四）\n"), "{kif}");
        assert!(kif.contains("\n   3一歩目 7九獅子 （←7十）\n"), "{kif}");
        assert!(kif.contains("\n   3二歩目 6八獅子 （←7九）\n"), "{kif}");
        assert!(kif.contains("まで3手で先手の勝ち"));
        // Jitto and igui: the second step goes back to the first's origin (no marker).
        let kif = to_kif(&record(
            "8i8h 5d5e 7j8i 6c5d 8i8g 5d6e 8g7f 6e6f 7f7e7f 6f6g 7f6g7f",
        ))
        .unwrap();
        assert!(kif.contains("   9二歩目 7六獅子 （←7五）"), "{kif}");
        // The first step names its square even on the last move's (shogiops reads no 仝
        // there).
        assert!(kif.contains("  11一歩目 6七獅子 （←7六）"), "{kif}");
        assert!(kif.contains("  11二歩目 7六獅子 （←6七）"), "{kif}");
        // A record that does not say how the game ended is not called a draw.
        let mut open = record("7i7h 7d7e");
        open.result = "*".into();
        let kif = to_kif(&open).unwrap();
        assert!(
            kif.contains("まで2手で中断") && !kif.contains("引き分け"),
            "{kif}"
        );
    }

    #[test]
    fn json_and_pgn_round_trip() {
        let r = record("7i7h 7d7e 7j7i6h");
        let back: GameRecord = serde_json::from_str(&r.to_json_line()).unwrap();
        assert_eq!(back, r);
        assert!(r.to_json_line().contains("\"initialSfen\""));
        assert_eq!(r.replay().unwrap().history().len(), 3);
        let pgn = to_pgn(&r).unwrap();
        assert!(
            pgn.contains("[Variant \"chu\"]") && pgn.contains("f3g5"),
            "{pgn}"
        );
    }
}
