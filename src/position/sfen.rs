//! SFEN parse and print: `<board> <side> <third field> [<move number>]`.
//!
//! The third field is the counter-strike square in chu (a square or `-`) and the (always
//! empty) hand in sho (`-`). Errors name the field and the offending text; the parser never
//! panics on any input.

use super::{zobrist, Piece, Position};
use crate::core::{Color, Square};
use crate::variant::Variant;

/// The largest SFEN move number accepted. Far beyond any game (lishogi ends one at 1,000
/// plies), and far enough below `u64::MAX` that moves played after it cannot wrap the
/// number: a position written out again always reads back (a `u32` once wrapped to 0).
pub const MAX_MOVE_NUMBER: u64 = 1 << 62;

/// Why an SFEN was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad SFEN {field} field: {detail}")]
pub struct SfenError {
    /// The field at fault: `board`, `side`, `counter-strike`, `hand` or `move number`.
    pub field: &'static str,
    /// What is wrong with it.
    pub detail: String,
}

fn err(field: &'static str, detail: impl Into<String>) -> SfenError {
    SfenError {
        field,
        detail: detail.into(),
    }
}

impl Position {
    /// Parses an SFEN of `variant`. The move number may be left out. Also accepts the word
    /// `startpos`.
    pub fn from_sfen(variant: &'static Variant, text: &str) -> Result<Position, SfenError> {
        let text = text.trim();
        if text == "startpos" {
            return Position::from_sfen(variant, variant.spec.start_sfen);
        }
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.is_empty() {
            return Err(err("board", "the SFEN is empty"));
        }
        if fields.len() > 4 {
            return Err(err(
                "move number",
                format!(
                    "unexpected text after the move number: '{}'",
                    fields[4..].join(" ")
                ),
            ));
        }
        let mut pos = Position::empty(variant);
        parse_board(&mut pos, fields[0])?;

        pos.side_to_move = match fields.get(1) {
            Some(&"b") => Color::Sente,
            Some(&"w") => Color::Gote,
            Some(other) => {
                return Err(err("side", format!("expected 'b' or 'w', found '{other}'")))
            }
            None => return Err(err("side", "missing (expected 'b' or 'w')")),
        };
        if pos.side_to_move == Color::Gote {
            pos.key ^= zobrist::side();
        }

        match fields.get(2) {
            None | Some(&"-") => {}
            // lishogi ignores a chu third field that is not a square; we do the same for a
            // letters-only field (a shogi hand written by other tools, e.g. scalashogi's
            // `b`), but reject a square-like typo rather than drop it silently.
            Some(field)
                if variant.spec.rules.counter_strike
                    && field.bytes().all(|b| b.is_ascii_alphabetic()) => {}
            Some(field) if variant.spec.rules.counter_strike => {
                let sq = super::notation::parse_square(variant, field).ok_or_else(|| {
                    err(
                        "counter-strike",
                        format!("'{field}' is neither '-' nor a square of the board"),
                    )
                })?;
                pos.counter_strike = Some(sq);
                pos.key ^= zobrist::counter_strike(sq);
            }
            Some(field) => {
                return Err(err(
                    "hand",
                    format!(
                        "{} has no pieces in hand; expected '-', found '{field}'",
                        variant.name()
                    ),
                ))
            }
        }

        if let Some(n) = fields.get(3) {
            pos.move_number = match n.parse::<u64>() {
                Ok(n) if (1..=MAX_MOVE_NUMBER).contains(&n) => n,
                _ => {
                    return Err(err(
                        "move number",
                        format!("expected a number from 1 to {MAX_MOVE_NUMBER}, found '{n}'"),
                    ))
                }
            };
        }
        for color in Color::ALL {
            pos.kingless[color.index()] = pos.royals(color).is_empty();
        }
        Ok(pos)
    }

    /// The SFEN of this position (with the move number).
    pub fn to_sfen(&self) -> String {
        let v = self.variant;
        let mut out = String::new();
        for y in 0..v.spec.ranks {
            if y > 0 {
                out.push('/');
            }
            let mut empty = 0;
            for x in 0..v.spec.files {
                let p = self.board[Square::new(x, y).index()];
                if p.is_empty() {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    out += &empty.to_string();
                    empty = 0;
                }
                out += &piece_sfen(v, p);
            }
            if empty > 0 {
                out += &empty.to_string();
            }
        }
        out.push(' ');
        out.push(if self.side_to_move == Color::Sente {
            'b'
        } else {
            'w'
        });
        out.push(' ');
        match self.counter_strike {
            Some(sq) => out += &super::notation::square_to_usi(v, sq),
            None => out.push('-'),
        }
        out += &format!(" {}", self.move_number);
        out
    }
}

/// The SFEN letters of a piece (`+O`, `n`).
pub fn piece_sfen(variant: &Variant, piece: Piece) -> String {
    let letters = variant.kind(piece.kind()).sfen;
    match piece.color() {
        Color::Sente => letters.to_ascii_uppercase(),
        Color::Gote => letters.to_string(),
    }
}

fn parse_board(pos: &mut Position, board: &str) -> Result<(), SfenError> {
    let v = pos.variant;
    let ranks = v.spec.ranks;
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != ranks {
        return Err(err(
            "board",
            format!(
                "{} has {ranks} ranks, the SFEN gives {}",
                v.name(),
                rows.len()
            ),
        ));
    }
    for (y, row) in rows.iter().enumerate() {
        parse_rank(pos, y, row)?;
    }
    Ok(())
}

/// Reads rank `y` (`row`, its part of the board field) onto the board.
fn parse_rank(pos: &mut Position, y: usize, row: &str) -> Result<(), SfenError> {
    let files = pos.variant.spec.files;
    let rank_name = (b'a' + y as u8) as char;
    let too_long = || {
        err(
            "board",
            format!("rank {rank_name} has more than {files} squares"),
        )
    };
    let mut x = 0usize;
    let mut chars = row.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if let Some(d) = c.to_digit(10) {
            // Empty squares: one or two digits.
            let mut n = d as usize;
            if let Some(&(_, c2)) = chars.peek() {
                if let Some(d2) = c2.to_digit(10) {
                    n = n * 10 + d2 as usize;
                    chars.next();
                }
            }
            if n == 0 {
                return Err(err(
                    "board",
                    format!(
                        "rank {rank_name}: an empty-square count of 0 at column {}",
                        i + 1
                    ),
                ));
            }
            x += n;
        } else {
            let promoted = c == '+';
            let letter = if promoted {
                match chars.next() {
                    Some((_, l)) => l,
                    None => {
                        return Err(err(
                            "board",
                            format!("rank {rank_name}: '+' at the end with no piece letter"),
                        ))
                    }
                }
            } else {
                c
            };
            let piece = piece_of_letter(pos.variant, rank_name, i, promoted, letter)?;
            if x >= files {
                return Err(too_long());
            }
            pos.put(Square::new(x, y), piece);
            x += 1;
        }
        if x > files {
            return Err(too_long());
        }
    }
    if x != files {
        return Err(err(
            "board",
            format!("rank {rank_name} has {x} squares, expected {files}"),
        ));
    }
    Ok(())
}

/// The piece an SFEN letter (after a `+` when `promoted`) stands for in `v`; the error
/// names the rank and the column `i` (from 0) where it stands.
fn piece_of_letter(
    v: &Variant,
    rank_name: char,
    i: usize,
    promoted: bool,
    letter: char,
) -> Result<Piece, SfenError> {
    if !letter.is_ascii_alphabetic() {
        return Err(err(
            "board",
            format!(
                "rank {rank_name}: unexpected character '{letter}' at column {}",
                i + 1
            ),
        ));
    }
    let color = if letter.is_ascii_uppercase() {
        Color::Sente
    } else {
        Color::Gote
    };
    let key = format!(
        "{}{}",
        if promoted { "+" } else { "" },
        letter.to_ascii_lowercase()
    );
    let kind = v.kind_by_sfen(&key).ok_or_else(|| {
        err(
            "board",
            format!(
                "rank {rank_name}: '{}' is not a {} piece",
                if promoted {
                    format!("+{letter}")
                } else {
                    letter.to_string()
                },
                v.name()
            ),
        )
    })?;
    Ok(Piece::new(color, kind))
}
