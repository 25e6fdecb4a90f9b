//! PGN for XBoard and other tools: `Variant "chu"` (or `"shogi"` for sho), the moves in
//! XBoard's coordinates (a lion double move as `f3f4,f4g5`), the engines' evaluations as
//! comments, the reason as the last comment.

use super::GameRecord;
use crate::position::Position;

/// The record as a PGN game (moves in XBoard coordinates, the engines' evaluations as
/// comments).
pub fn to_pgn(record: &GameRecord) -> Result<String, super::RecordError> {
    let variant = record.variant;
    let mut pos = Position::from_sfen(variant, &record.initial_sfen)?;
    // XBoard's name of the variant (its data's first).
    let xb_variant = variant.spec.xboard.names[0];
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
        let mv = pos.parse_usi_path(text)?;
        if i % 2 == 0 {
            line += &format!("{}. ", i / 2 + 1);
        }
        line += &super::xboard::move_legs(&pos, mv).concat();
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
