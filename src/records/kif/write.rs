//! Writing a game as KIF in lishogi's server layout: the header, a board diagram for a
//! set-up position, the moves with their time fields and comments, and the result line.

use super::super::{GameRecord, GameResult, RecordError};
use super::board::kif_board;
use super::notation::kif_move;
use crate::position::Position;
use crate::variant::KifStyle;

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

/// A KIF time field: `(mm:ss/hh:mm:ss)`, this move's time and the mover's total.
pub(super) fn time_field(this_move: u64, total: u64) -> String {
    format!(
        "({:02}:{:02}/{:02}:{:02}:{:02})",
        this_move / 60,
        this_move % 60,
        total / 3600,
        total / 60 % 60,
        total % 60
    )
}
