//! Moves in XBoard notation: legs of `from to` squares, comma-separated for a double move,
//! `@@@@` for a pass, `+` for promotion.

use crate::core::{Move, Square};
use crate::position::notation::{parse_xboard_square, square_to_xboard};
use crate::position::{GenMode, Position};
use crate::variant::Variant;

/// A parsed XBoard move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Legs {
    /// `@@@@`: a lion pass.
    Pass,
    /// One or two legs.
    Squares {
        /// Start square.
        from: Square,
        /// The square between two legs.
        mid: Option<Square>,
        /// End square.
        to: Square,
        /// `+` after the last leg.
        promote: bool,
    },
}

/// Splits `f3f10` into squares (a letter and digits each).
fn squares(variant: &Variant, text: &str) -> Option<Vec<Square>> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_lowercase() {
            return None;
        }
        let mut j = i + 1;
        while j < bytes.len() && bytes[j].is_ascii_digit() {
            j += 1;
        }
        out.push(parse_xboard_square(variant, &text[i..j])?);
        i = j;
    }
    Some(out)
}

/// The move XBoard's `@@@@` stands for in `pos`: a lion's pass (out to an empty square and
/// back), if a lion can pass.
pub fn lion_pass(pos: &mut Position) -> Option<Move> {
    let mut moves = Vec::new();
    pos.legal_moves(GenMode::Search, &mut moves);
    moves.into_iter().find(|&m| pos.is_lion_pass(m))
}

/// Parses `f4f5`, `f7e8+`, `f3f4,f4g5`, `f6g7,g7f6` or `@@@@`.
pub fn parse_legs(variant: &Variant, text: &str) -> Option<Legs> {
    let text = text.trim();
    if text == "@@@@" {
        return Some(Legs::Pass);
    }
    let (body, promote) = match text.strip_suffix('+') {
        Some(b) => (b, true),
        None => (text.strip_suffix('=').unwrap_or(text), false),
    };
    let legs: Vec<&str> = body.split(',').filter(|l| !l.is_empty()).collect();
    match legs[..] {
        [one] => match squares(variant, one)?[..] {
            [from, to] => Some(Legs::Squares {
                from,
                mid: None,
                to,
                promote,
            }),
            _ => None,
        },
        [a, b] => match (
            squares(variant, a)?.as_slice(),
            squares(variant, b)?.as_slice(),
        ) {
            // A second leg that stays put ends the move on the first leg's square.
            (&[from, mid], &[mid2, to]) if mid == mid2 && to == mid => Some(Legs::Squares {
                from,
                mid: None,
                to,
                promote,
            }),
            (&[from, mid], &[mid2, to]) if mid == mid2 && !promote => Some(Legs::Squares {
                from,
                mid: Some(mid),
                to,
                promote,
            }),
            _ => None,
        },
        _ => None,
    }
}

/// The `move` lines' text of a legal move of `pos`: one leg per line, a comma after all but
/// the last; a pass is `@@@@`.
pub fn move_legs(pos: &Position, mv: Move) -> Vec<String> {
    let v = pos.variant();
    let mv = pos.canonical(mv);
    let sq = |s| square_to_xboard(v, s);
    match mv.mid() {
        Some(_) if pos.is_lion_pass(mv) => vec!["@@@@".into()],
        Some(mid) => vec![
            format!("{}{},", sq(mv.from()), sq(mid)),
            format!("{}{}", sq(mid), sq(mv.to())),
        ],
        None => vec![format!(
            "{}{}{}",
            sq(mv.from()),
            sq(mv.to()),
            if mv.is_promotion() { "+" } else { "" }
        )],
    }
}

/// A line of moves from `pos` in XBoard notation (legs joined by commas), for thinking output.
pub fn pv_text(pos: &Position, pv: &[Move]) -> String {
    let mut p = pos.clone();
    let mut out = Vec::new();
    for &mv in pv {
        if !p.is_legal(mv) {
            break;
        }
        out.push(move_legs(&p, mv).concat());
        p.make_move(mv);
    }
    out.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xboard_moves_map_to_lishogi_moves() {
        let chu = Variant::chu();
        let mut pos = Position::startpos(chu);
        pos.play_usi_moves("8i8h 5d5e 7j8i 6c5d 8i8g 5d6e 8g7f 6e6f".split(' '))
            .unwrap();
        // The lion stands on 7f = f7; gote's pawn on 6f = g7; 7e = f8.
        let usi = |p: &mut Position, t: &str| p.parse_usi_move(t).unwrap();
        let find = |p: &mut Position, l: Legs| match l {
            Legs::Squares {
                from,
                mid,
                to,
                promote,
            } => p.find_move(from, mid, to, promote),
            Legs::Pass => None,
        };
        let igui = parse_legs(chu, "f7g7,g7f7").unwrap();
        assert_eq!(find(&mut pos, igui), Some(usi(&mut pos, "7f6f7f")));
        assert_eq!(
            {
                let m = usi(&mut pos, "7f6f7f");
                move_legs(&pos, m)
            },
            vec!["f7g7,".to_string(), "g7f7".to_string()]
        );
        assert_eq!(
            {
                let m = usi(&mut pos, "7f7e7f");
                move_legs(&pos, m)
            },
            vec!["@@@@".to_string()]
        );
        assert_eq!(parse_legs(chu, "@@@@"), Some(Legs::Pass));
        let pass = lion_pass(&mut pos).expect("the lion can pass");
        assert_eq!(move_legs(&pos, pass), vec!["@@@@".to_string()]);
        let mut start = Position::startpos(chu);
        assert_eq!(lion_pass(&mut start), None, "a lion boxed in cannot pass");
        let step = parse_legs(chu, "f7f8").unwrap();
        assert_eq!(find(&mut pos, step), Some(usi(&mut pos, "7f7e")));
        // A second leg that stays put is the first leg alone.
        assert_eq!(parse_legs(chu, "f7g7,g7g7"), parse_legs(chu, "f7g7"));
        assert_eq!(
            parse_legs(chu, "f10e11+"),
            Some(Legs::Squares {
                from: Square::new(5, 2),
                mid: None,
                to: Square::new(4, 1),
                promote: true
            })
        );
        assert_eq!(parse_legs(chu, "z9z9"), None);
        assert_eq!(parse_legs(chu, "f3f4,g4g5"), None);
    }
}
