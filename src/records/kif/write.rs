//! Writing a game as KIF in lishogi's server layout: the header, a board diagram for a
//! set-up position, the moves with their time fields and comments, and the result line.

use super::super::{Game, GameRecord, GameResult, RecordError};
use super::board::kif_board;
use super::notation::kif_move;
use crate::position::Position;
use crate::variant::KifStyle;

/// The match record as a KIF file: the match's date and event as its header.
pub fn to_kif(record: &GameRecord) -> Result<String, RecordError> {
    let game = Game {
        tags: vec![
            (
                "開始日時".to_string(),
                record
                    .date
                    .replace('T', " ")
                    .trim_end_matches('Z')
                    .to_string(),
            ),
            (
                "棋戦".to_string(),
                format!("shishi match ({})", record.game.variant.name()),
            ),
        ],
        ..record.game.clone()
    };
    game_to_kif(&game, &record.reason)
}

/// A game as a KIF file: its tags (`棋戦`, `場所`, `開始日時`, `持ち時間`, ...) as the
/// header, its players, its moves with their times (where every move has one) and
/// comments, its result, and `reason` as the last comment.
pub fn game_to_kif(game: &Game, reason: &str) -> Result<String, RecordError> {
    let variant = game.variant;
    let mut pos = Position::from_sfen(variant, &game.start_sfen)?;
    let mut out = String::new();
    for (key, value) in &game.tags {
        out += &format!("{key}：{value}\n");
    }
    if game.start_sfen != variant.spec.start_sfen {
        out += &kif_board(&pos);
    } else if variant.spec.kif == KifStyle::Shogi {
        out += "手合割：平手\n";
    }
    out += &format!(
        "先手：{}\n後手：{}\n",
        game.players.sente, game.players.gote
    );
    out += "手数----指手---------消費時間--\n";
    // The time fields count each side's total: only a record timed throughout has them.
    let times: Vec<u64> = game
        .times_ms
        .iter()
        .copied()
        .collect::<Option<_>>()
        .filter(|t: &Vec<u64>| t.len() == game.moves.len())
        .unwrap_or_default();
    let mut last_to = None;
    // Each side's time used so far, seconds.
    let mut totals = [0u64; 2];
    for (i, text) in game.moves.iter().enumerate() {
        let mv = pos.parse_usi_path(text)?;
        let lines = kif_move(&pos, mv, last_to);
        let n = i + 1;
        // lishogi's server layout: the number in four places, then three spaces and the
        // move, or a double move's step right after the number.
        // The time field as lishogi writes it: this move's time, then the mover's total.
        let time = match times.get(i) {
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
        if let Some(c) = game
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
    let plies = game.moves.len();
    let ending = match game.result.unwrap_or(GameResult::Unfinished) {
        GameResult::SenteWon => format!("まで{plies}手で先手の勝ち"),
        GameResult::GoteWon => format!("まで{plies}手で後手の勝ち"),
        GameResult::Draw => format!("まで{plies}手で引き分け"),
        // An analysed game cut short.
        GameResult::Unfinished => format!("まで{plies}手で中断"),
    };
    out += &format!("{ending}\n*{reason}\n");
    Ok(out)
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
