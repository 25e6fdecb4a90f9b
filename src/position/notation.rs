//! USI text for squares and moves (lishogi's dialect), and the XBoard square mapping.
//!
//! USI squares are file then rank: files `1..N` from sente's right, ranks `a..` from the
//! top. Moves are `from [mid] to [+]`; `=` is accepted for "does not promote". Parsing checks
//! the move against move generation and returns the **canonical** move: a double move
//! through an empty mid square that lands elsewhere is the same as the plain step or jump,
//! so it becomes that (the 2-square spelling).

use super::{GenMode, Position};
use crate::core::{Move, Square};
use crate::variant::Variant;

/// The USI name of `sq` (`7g`, `12l`).
pub fn square_to_usi(variant: &Variant, sq: Square) -> String {
    format!(
        "{}{}",
        variant.spec.files - sq.x(),
        (b'a' + sq.y() as u8) as char
    )
}

/// Parses a USI square name; `None` if it is not a square of this board.
pub fn parse_square(variant: &Variant, text: &str) -> Option<Square> {
    let bytes = text.as_bytes();
    // Only ASCII can name a square; checking first also keeps the split below on a
    // character boundary (a multi-byte character would make it panic).
    if bytes.len() < 2 || bytes.len() > 3 || !text.is_ascii() {
        return None;
    }
    let (digits, letter) = text.split_at(text.len() - 1);
    if !digits.bytes().all(|b| b.is_ascii_digit()) || digits.starts_with('0') {
        return None;
    }
    let file: usize = digits.parse().ok()?;
    let letter = letter.as_bytes()[0];
    if !letter.is_ascii_lowercase() {
        return None;
    }
    let rank = (letter - b'a') as usize;
    if file == 0 || file > variant.spec.files || rank >= variant.spec.ranks {
        return None;
    }
    Some(Square::new(variant.spec.files - file, rank))
}

/// The XBoard name of `sq` (files `a..` from sente's left, ranks `1..` from sente's side).
pub fn square_to_xboard(variant: &Variant, sq: Square) -> String {
    format!(
        "{}{}",
        (b'a' + sq.x() as u8) as char,
        variant.spec.ranks - sq.y()
    )
}

/// Parses an XBoard square name.
pub fn parse_xboard_square(variant: &Variant, text: &str) -> Option<Square> {
    let mut chars = text.chars();
    let file = chars.next()?;
    let rank: usize = chars.as_str().parse().ok()?;
    if !file.is_ascii_lowercase() || chars.as_str().starts_with('0') {
        return None;
    }
    let x = (file as u8 - b'a') as usize;
    if x >= variant.spec.files || rank == 0 || rank > variant.spec.ranks {
        return None;
    }
    Some(Square::new(x, variant.spec.ranks - rank))
}

/// The USI text of `mv` as it is encoded (a double move prints its three squares).
pub fn move_to_usi(variant: &Variant, mv: Move) -> String {
    let mut s = square_to_usi(variant, mv.from());
    if let Some(mid) = mv.mid() {
        s += &square_to_usi(variant, mid);
    }
    s += &square_to_usi(variant, mv.to());
    if mv.is_promotion() {
        s.push('+');
    }
    s
}

/// Why a move string was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// Not a move string at all.
    #[error("'{0}' is not a move (expected from[mid]to[+], e.g. 7g7f or 6f5e6d)")]
    Syntax(String),
    /// Well formed, but not a legal move here.
    #[error("'{0}' is not a legal move in this position")]
    Illegal(String),
    /// The game was already over before this move (the text says how it ended).
    #[error("the game is already over ({0})")]
    GameOver(String),
}

/// A move list that failed part way.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {} of the list: {error}", .index + 1)]
pub struct MoveListError {
    /// 0-based index of the bad move in the list.
    pub index: usize,
    /// What is wrong with it.
    pub error: MoveError,
}

/// The parts of a USI move string.
struct UsiParts {
    from: Square,
    mid: Option<Square>,
    to: Square,
    promote: bool,
}

fn split_squares(variant: &Variant, text: &str) -> Option<Vec<Square>> {
    // Squares are digits followed by one letter.
    let mut squares = Vec::new();
    let bytes = text.as_bytes();
    let mut start = 0;
    for (i, b) in bytes.iter().enumerate() {
        if b.is_ascii_alphabetic() {
            squares.push(parse_square(variant, &text[start..=i])?);
            start = i + 1;
        } else if !b.is_ascii_digit() {
            return None;
        }
    }
    (start == bytes.len()).then_some(squares)
}

fn parse_parts(variant: &Variant, text: &str) -> Option<UsiParts> {
    let (body, promote) = match text.as_bytes().last()? {
        b'+' => (&text[..text.len() - 1], true),
        b'=' => (&text[..text.len() - 1], false),
        _ => (text, false),
    };
    let squares = split_squares(variant, body)?;
    match squares[..] {
        [from, to] => Some(UsiParts {
            from,
            mid: None,
            to,
            promote,
        }),
        [from, mid, to] => Some(UsiParts {
            from,
            mid: Some(mid),
            to,
            promote,
        }),
        _ => None,
    }
}

impl Position {
    /// Parses a USI move and checks it against the legal moves; returns the canonical move.
    pub fn parse_usi_move(&mut self, text: &str) -> Result<Move, MoveError> {
        let parts =
            parse_parts(self.variant, text).ok_or_else(|| MoveError::Syntax(text.to_string()))?;
        self.find_move(parts.from, parts.mid, parts.to, parts.promote)
            .ok_or_else(|| MoveError::Illegal(text.to_string()))
    }

    /// Parses a USI move and checks it, keeping the path as written (a 3-square move through
    /// an empty square stays a double move): for records that must show a move as played.
    pub fn parse_usi_path(&mut self, text: &str) -> Result<Move, MoveError> {
        let parts =
            parse_parts(self.variant, text).ok_or_else(|| MoveError::Syntax(text.to_string()))?;
        let wanted = match parts.mid {
            Some(mid) if !parts.promote => Move::double(parts.from, mid, parts.to),
            Some(_) => return Err(MoveError::Illegal(text.to_string())),
            None => Move::new(parts.from, parts.to, parts.promote),
        };
        let mut moves = Vec::with_capacity(256);
        self.legal_moves(GenMode::Perft, &mut moves);
        if moves.contains(&wanted) {
            Ok(wanted)
        } else {
            Err(MoveError::Illegal(text.to_string()))
        }
    }

    /// The legal move `from [-> mid] -> to` (promoting or not), canonical, if there is one.
    /// Any move path lishogi accepts is found (perft mode lists them all).
    pub fn find_move(
        &mut self,
        from: Square,
        mid: Option<Square>,
        to: Square,
        promote: bool,
    ) -> Option<Move> {
        let wanted = match mid {
            Some(mid) if !promote => Move::double(from, mid, to),
            Some(_) => return None,
            None => Move::new(from, to, promote),
        };
        let mut moves = Vec::with_capacity(256);
        self.legal_moves(GenMode::Perft, &mut moves);
        moves.contains(&wanted).then(|| self.canonical(wanted))
    }

    /// Why `from [-> mid] -> to` is not legal here, in words (for XBoard's `Illegal move`).
    pub fn illegal_reason(
        &mut self,
        from: Square,
        mid: Option<Square>,
        to: Square,
        square_name: impl Fn(Square) -> String,
    ) -> String {
        let v = self.variant;
        let us = self.side_to_move();
        let mover = self.piece_on(from);
        if !mover.is(us) {
            return format!("no piece of the side to move on {}", square_name(from));
        }
        let lions = v.lion_mask;
        let mut vacated = crate::core::Bitboard::from_square(from);
        if let Some(m) = mid {
            vacated.insert(m);
        }
        for (i, sq) in mid.into_iter().chain(std::iter::once(to)).enumerate() {
            let target = self.piece_on(sq);
            if target.is_empty() || target.is(us) || !Variant::has(lions, target.kind()) {
                continue;
            }
            let first_step_valuable = i > 0
                && mid.is_some_and(|m| {
                    let p = self.piece_on(m);
                    !p.is_empty() && !Variant::has(v.weak_mask, p.kind())
                });
            match super::LionCapture::judge(
                Variant::has(lions, mover.kind()),
                from.distance(sq),
                first_step_valuable,
                || self.is_attacked_through(sq, us.flip(), vacated),
                self.counter_strike(),
                sq,
            ) {
                super::LionCapture::ProtectedFromAfar => {
                    return "Distant capture of protected Lion".into()
                }
                super::LionCapture::CounterStrike => return "Counterstrike against Lion".into(),
                super::LionCapture::Allowed => {}
            }
        }
        if v.spec.rules.lone_royal_check && self.royals(us).count() == 1 {
            let mut pseudo = Vec::new();
            let mut pass_listed = false;
            self.pseudo_piece_moves(from, &mut pseudo, &mut pass_listed);
            let candidate = match mid {
                Some(m) => Move::double(from, m, to),
                None => Move::new(from, to, false),
            };
            if pseudo.iter().any(|mv| {
                mv.from() == candidate.from()
                    && mv.to() == candidate.to()
                    && mv.mid() == candidate.mid()
            }) {
                return "the king would be left in check".into();
            }
        }
        "the piece cannot move there".into()
    }

    /// The canonical form of a legal move: a double move through an empty square to another
    /// square is the plain move to that square.
    pub fn canonical(&self, mv: Move) -> Move {
        match mv.mid() {
            Some(mid) if self.piece_on(mid).is_empty() && mv.to() != mv.from() => {
                Move::new(mv.from(), mv.to(), false)
            }
            _ => mv,
        }
    }

    /// The USI text of a legal move of this position, in canonical spelling.
    pub fn move_to_usi(&self, mv: Move) -> String {
        move_to_usi(self.variant, self.canonical(mv))
    }

    /// The next move of a game, from USI text: refused when the game is already over
    /// (every reader of a game record asks this, so that no move after the end counts).
    pub fn parse_game_move(&mut self, text: &str) -> Result<Move, MoveError> {
        match self.outcome() {
            Some(outcome) => Err(MoveError::GameOver(outcome.reason.describe().to_string())),
            None => self.parse_usi_move(text),
        }
    }

    /// Plays a list of USI moves of a game. On the first bad move, or a move after the game
    /// has ended, nothing is played (the position is left as it was) and the error names
    /// the move and its index.
    pub fn play_usi_moves<'a, I: IntoIterator<Item = &'a str>>(
        &mut self,
        moves: I,
    ) -> Result<(), MoveListError> {
        let mut played = 0;
        for (index, text) in moves.into_iter().enumerate() {
            match self.parse_game_move(text) {
                Ok(mv) => {
                    self.make_move(mv);
                    played += 1;
                }
                Err(error) => {
                    for _ in 0..played {
                        self.unmake_move();
                    }
                    return Err(MoveListError { index, error });
                }
            }
        }
        Ok(())
    }
}
