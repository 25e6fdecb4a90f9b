//! KIF board diagrams: the diagram of a set-up position written before the moves, and a
//! diagram read back into an SFEN as lishogi reads one.

use super::super::KifProblem;
use super::notation::{full_width, kanji_number};
use crate::core::{Color, Square};
use crate::position::Position;
use crate::variant::{KifStyle, Variant};

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

/// The SFEN of a KIF board diagram (`rows`: each `|...|` line with its line number),
/// read as lishogi reads one: spaces ignored, `・` an empty square, `v` before a gote
/// piece, a piece by its diagram name (`獅`, `成角`) or its move name. The error names
/// the line and what is wrong.
pub(super) fn kif_board_sfen(
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

/// The variant of a KIF's board diagram by its size: the first of [`Variant::all`] with
/// that many ranks (12: chu, 9: sho), if it has one.
pub(super) fn variant_of_diagram(text: &str) -> Option<&'static Variant> {
    let rows = text
        .lines()
        .map(str::trim)
        .take_while(|l| !l.starts_with("手数----"))
        .filter(|l| l.starts_with('|'))
        .count();
    Variant::all().into_iter().find(|v| v.spec.ranks == rows)
}
