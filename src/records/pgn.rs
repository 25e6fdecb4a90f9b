//! PGN for XBoard and other tools: `Variant "chu"` (or `"shogi"` for sho), the moves in
//! XBoard's coordinates (a lion double move as `f3f4,f4g5`), the engines' evaluations as
//! comments, the reason as the last comment.

use super::GameRecord;
use crate::position::Position;

/// The record as a PGN game (moves in XBoard coordinates, the engines' evaluations as
/// comments).
pub fn to_pgn(record: &GameRecord) -> Result<String, super::RecordError> {
    let variant = record.game.variant;
    let mut pos = Position::from_sfen(variant, &record.game.start_sfen)?;
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
        record.number
    );
    out += &format!(
        "[White \"{}\"]\n[Black \"{}\"]\n[Result \"{}\"]\n",
        tag_value(&record.game.players.sente),
        tag_value(&record.game.players.gote),
        record.result()
    );
    out += &format!(
        "[Variant \"{xb_variant}\"]\n[Termination \"{}\"]\n",
        tag_value(&record.reason)
    );
    if record.game.start_sfen != variant.spec.start_sfen {
        let fields: Vec<&str> = record.game.start_sfen.split_whitespace().collect();
        let side = if fields.get(1) == Some(&"w") {
            "b"
        } else {
            "w"
        };
        out += &format!("[SetUp \"1\"]\n[FEN \"{} {side} - - 0 1\"]\n", fields[0]);
    }
    out.push('\n');
    let mut line = String::new();
    for (i, text) in record.game.moves.iter().enumerate() {
        let mv = pos.parse_usi_path(text)?;
        if i % 2 == 0 {
            line += &format!("{}. ", i / 2 + 1);
        }
        line += &super::xboard::move_legs(&pos, mv).concat();
        if let Some(c) = record.game.comments.get(i).filter(|c| !c.is_empty()) {
            line += &format!(" {{{}}}", comment(c));
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
    out += &format!("{{{}}} {}\n\n", comment(&record.reason), record.result());
    Ok(out)
}

/// A PGN tag's value: `\\` and `"` escaped as the standard says, on one line.
fn tag_value(text: &str) -> String {
    one_line(text).replace('\\', "\\\\").replace('"', "\\\"")
}

/// A PGN comment's text: PGN has no escape inside `{...}`, so braces become parentheses.
fn comment(text: &str) -> String {
    one_line(text).replace('{', "(").replace('}', ")")
}

/// Text on one line: line ends and other control characters as spaces.
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::{Game, GameResult, Players};
    use crate::variant::Variant;

    #[test]
    fn an_engines_words_never_break_a_tag_or_a_comment() {
        // Issue 55, case 8: a `"` ended the Termination tag, a `}` the move comment.
        let variant = Variant::chu();
        let record = GameRecord {
            number: 1,
            game: Game {
                players: Players {
                    sente: "a \"b\" \\c".to_string(),
                    gote: "d".to_string(),
                },
                result: Some(GameResult::SenteWon),
                times_ms: vec![Some(10)],
                comments: vec!["+0.10/3 } {".to_string()],
                ..Game::new(variant, variant.spec.start_sfen, vec!["7i7h".to_string()])
            },
            reason: "gote resigned (claimed 1-0 {\"won\"}\nquit)".to_string(),
            forfeit: false,
            opening: 0,
            date: "2026-12-05T00:00:00Z".to_string(),
        };
        let pgn = to_pgn(&record).unwrap();
        assert!(pgn.contains("[White \"a \\\"b\\\" \\\\c\"]"), "{pgn}");
        assert!(
            pgn.contains("[Termination \"gote resigned (claimed 1-0 {\\\"won\\\"} quit)\"]"),
            "{pgn}"
        );
        assert!(pgn.contains("1. f4f5 {+0.10/3 ) (}"), "{pgn}");
        assert!(
            pgn.contains("{gote resigned (claimed 1-0 (\"won\") quit)} 1-0"),
            "{pgn}"
        );
    }
}
