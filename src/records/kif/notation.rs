//! The notation of KIF moves and squares, both ways: a move as lishogi writes it (chu's
//! two-kanji names, Arabic file and kanji rank, the origin as `（←7九）`, `仝`, a lion's
//! double move in two steps; sho's standard KIF), and a move line read back into a move.

use super::super::KifProblem;
use crate::core::{Move, Square};
use crate::position::Position;
use crate::variant::{KifStyle, Variant};

/// Kanji numerals for ranks 1..=12 (十一, 十二).
pub fn kanji_number(n: usize) -> String {
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
pub(super) fn full_width(n: usize) -> String {
    n.to_string()
        .chars()
        .map(|c| char::from_u32(c as u32 + 0xfee0).unwrap_or(c))
        .collect()
}

/// The KIF text of one move (one line, or two for a double move) played from `pos`.
pub(super) fn kif_move(pos: &Position, mv: Move, last_to: Option<Square>) -> Vec<String> {
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
pub fn kif_line(pos: &Position, moves: &[Move], last_to: Option<Square>) -> String {
    line_text(pos, moves, last_to, false)
}

/// [`kif_line`] with each move after its mover's mark, ☗ sente or ☖ gote (`☗7八歩兵
/// （←7九）  ☖7五歩兵 （←7四）`), for a line read apart from the game.
pub fn kif_line_marked(pos: &Position, moves: &[Move], last_to: Option<Square>) -> String {
    line_text(pos, moves, last_to, true)
}

fn line_text(pos: &Position, moves: &[Move], mut last_to: Option<Square>, marks: bool) -> String {
    let mut pos = pos.clone();
    let mut out = Vec::new();
    for &mv in moves {
        // A double move may come as its path (the mid square kept), which the legality
        // test knows in its canonical form.
        if !pos.is_legal(pos.canonical(mv)) {
            break;
        }
        let mark = if marks { pos.side_to_move().mark() } else { "" };
        out.push(format!("{mark}{}", kif_move(&pos, mv, last_to).join(" ")));
        last_to = Some(mv.to());
        pos.make_move(mv);
    }
    out.join("  ")
}

/// Kanji rank numerals up to 16.
fn kanji_to_number(text: &str) -> Option<usize> {
    let digit = |c: char| {
        "一二三四五六七八九"
            .chars()
            .position(|d| d == c)
            .map(|i| i + 1)
    };
    let chars: Vec<char> = text.chars().collect();
    match chars.as_slice() {
        ['十'] => Some(10),
        ['十', d] => digit(*d).map(|d| 10 + d),
        [d] => digit(*d),
        _ => None,
    }
}

/// A square in KIF writing: Arabic or full-width file, kanji rank (`7八`, `10十一`, `７六`).
fn read_square(variant: &Variant, text: &str) -> Option<Square> {
    let normal: String = text
        .chars()
        .map(|c| {
            if ('０'..='９').contains(&c) {
                char::from_u32(c as u32 - 0xfee0).unwrap_or(c)
            } else {
                c
            }
        })
        .collect();
    let split = normal.find(|c: char| !c.is_ascii_digit())?;
    let file: usize = normal[..split].parse().ok()?;
    let rank = kanji_to_number(&normal[split..])?;
    if file == 0 || file > variant.spec.files || rank == 0 || rank > variant.spec.ranks {
        return None;
    }
    Some(Square::new(variant.spec.files - file, rank - 1))
}

/// The origin in `（←7九）` (chu) or `(77)` (sho).
fn kif_origin(variant: &Variant, text: &str) -> Option<Square> {
    if let Some(start) = text.find('←') {
        let rest = &text[start + '←'.len_utf8()..];
        let end = rest.find(['）', ')'])?;
        return read_square(variant, rest[..end].trim());
    }
    let open = text.rfind('(')?;
    let digits = text[open + 1..].trim_end_matches(')');
    let bytes = digits.as_bytes();
    if bytes.len() != 2 || !bytes.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let (file, rank) = ((bytes[0] - b'0') as usize, (bytes[1] - b'0') as usize);
    (file >= 1 && file <= variant.spec.files && rank >= 1 && rank <= variant.spec.ranks)
        .then(|| Square::new(variant.spec.files - file, rank - 1))
}

/// The destination at the start of a move text (`7八歩兵...`, `仝龍馬...`, `同　歩...`).
fn kif_destination(variant: &Variant, text: &str, last: Option<Square>) -> Option<Square> {
    let text = text.trim_start_matches(['▲', '△', '☗', '☖']);
    if text.starts_with('仝') || text.starts_with('同') {
        return last;
    }
    let mut end = 0;
    for (i, c) in text.char_indices() {
        if c.is_ascii_digit() || ('０'..='９').contains(&c) || "一二三四五六七八九十".contains(c)
        {
            end = i + c.len_utf8();
        } else {
            break;
        }
    }
    read_square(variant, &text[..end])
}

/// Whether a KIF move promotes: `成` right after the piece's name, before the origin
/// (`7三銀成(64)`, `3三角行成 （←6六）`); not `不成`, and not the `成` that begins a
/// promoted piece's name (`成銀`, `成飛`).
fn kif_promotes(text: &str) -> bool {
    let text = text.replace("（居食い）", "").replace("(じっと)", "");
    let head = text.split(['（', '(']).next().unwrap_or("").trim_end();
    head.ends_with('成') && !head.ends_with("不成")
}

/// The move of one KIF move line (`rest`: after its number): `None` for a lion's first
/// step (kept in `first_step` with its line number until the second comes), the whole move
/// at the second step, or the error in words.
pub(super) fn read_move(
    variant: &'static Variant,
    rest: &str,
    last: Option<Square>,
    first_step: &mut Option<(Square, usize)>,
    line: usize,
) -> Result<Option<Move>, KifProblem> {
    if let Some(step) = rest.strip_prefix("一歩目") {
        let from = kif_origin(variant, step).ok_or(KifProblem::UnreadableStep("first"))?;
        *first_step = Some((from, line));
        return Ok(None);
    }
    if let Some(step) = rest.strip_prefix("二歩目") {
        let (Some((from, _)), Some(mid)) = (first_step.take(), kif_origin(variant, step)) else {
            return Err(KifProblem::SecondStepAlone);
        };
        // An igui or jitto second step names its destination, the first step's origin.
        let to = if step.contains("居食い") || step.contains("じっと") {
            Some(from)
        } else {
            kif_destination(variant, step.trim(), last)
        };
        return to
            .map(|to| Some(Move::double(from, mid, to)))
            .ok_or(KifProblem::UnreadableStep("second"));
    }
    match (
        kif_destination(variant, rest, last),
        kif_origin(variant, rest),
    ) {
        (Some(to), Some(from)) => Ok(Some(Move::new(from, to, kif_promotes(rest)))),
        _ => Err(KifProblem::UnreadableMove(rest.to_string())),
    }
}
