//! Opening files: one opening a line, either an SFEN (optionally followed by `moves ...`), or
//! `startpos [moves ...]`, or just USI moves from the start position. `#` starts a comment.
//! Every line is checked with the rules; a bad line is reported with its number and skipped.

use crate::position::Position;
use crate::variant::Variant;

/// An opening: where the game starts and the moves already played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The starting SFEN.
    pub sfen: String,
    /// Moves from it (USI).
    pub moves: Vec<String>,
}

impl Opening {
    /// The variant's start position.
    pub fn start(variant: &Variant) -> Opening {
        Opening {
            sfen: variant.spec.start_sfen.to_string(),
            moves: Vec::new(),
        }
    }
}

/// Parses an opening file's text; returns the openings and one message per skipped line.
pub fn parse(variant: &'static Variant, text: &str, file: &str) -> (Vec<Opening>, Vec<String>) {
    let mut openings = Vec::new();
    let mut errors = Vec::new();
    // A UTF-8 byte-order mark (Windows editors write one) is no part of the first line.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    for (n, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let (setup, moves) = match line.split_once("moves") {
            Some((s, m)) => (
                s.trim(),
                m.split_whitespace().map(String::from).collect::<Vec<_>>(),
            ),
            None if line.contains('/') || line.starts_with("startpos") => (line, Vec::new()),
            None => (
                "startpos",
                line.split_whitespace().map(String::from).collect(),
            ),
        };
        let setup = setup.strip_prefix("sfen").map_or(setup, str::trim);
        let sfen = if setup.is_empty() || setup == "startpos" {
            variant.spec.start_sfen.to_string()
        } else {
            setup.to_string()
        };
        let checked = Position::from_sfen(variant, &sfen)
            .map_err(|e| e.to_string())
            .and_then(|mut p| {
                p.play_usi_moves(moves.iter().map(String::as_str))
                    .map(|_| p)
                    .map_err(|e| e.to_string())
            })
            .and_then(|mut p| {
                if p.outcome().is_some() {
                    Err("the game is already over".to_string())
                } else {
                    Ok(())
                }
            });
        match checked {
            Ok(()) => openings.push(Opening { sfen, moves }),
            Err(e) => errors.push(format!("{file}:{}: {e}; line skipped", n + 1)),
        }
    }
    (openings, errors)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_and_bad_lines() {
        let text = "# comment\n7i7h 7d7e\nstartpos moves 8i8h\nlfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1 moves 5i5h\n7i7e\nnot/an/sfen b - 1\n\n";
        let (openings, errors) = parse(Variant::chu(), text, "book.txt");
        assert_eq!(openings.len(), 3);
        assert_eq!(openings[0].moves, vec!["7i7h", "7d7e"]);
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert!(errors[0].starts_with("book.txt:5:"), "{errors:?}");
    }

    #[test]
    fn a_byte_order_mark_is_no_part_of_the_first_opening() {
        // Issue 49, red team 17: a book saved with a BOM gave "no usable opening".
        let (openings, errors) = parse(Variant::chu(), "\u{feff}7i7h 7d7e\n", "book.txt");
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(openings[0].moves, vec!["7i7h", "7d7e"]);
    }
}
