//! Static exchange evaluation: the material balance of the captures on one square, each
//! side recapturing with its least valuable piece, either side free to stop.
//!
//! Lion-aware: a lion attacks every square within two (the reverse leap tables include its
//! area), double moves count both captured pieces, igui exchanges on the start square, and
//! a lion may not retake a lion two squares away while that lion is still defended (the
//! lion-trading rule). The counter-strike ban never bites inside one exchange: every
//! recapture is on the same square, which the ban allows.

use crate::core::{Bitboard, Color, Move, Square};
use crate::eval::Evaluator;
use crate::position::{LionCapture, Position};
use crate::variant::{Kind, Variant};

/// The least valuable `side` piece that attacks `target`, ignoring `gone` squares (pieces
/// already used in the exchange, or captured).
fn least_valuable_attacker(
    pos: &Position,
    ev: &Evaluator,
    target: Square,
    side: Color,
    gone: Bitboard,
) -> Option<(Square, Kind)> {
    let v = pos.variant();
    let tables = &v.tables;
    let mut best: Option<(Square, Kind, i32)> = None;
    let mut consider = |sq: Square, kind: Kind| {
        let value = ev.value(kind);
        if best.is_none_or(|(_, _, b)| value < b) {
            best = Some((sq, kind, value));
        }
    };
    if !(tables.leap_attack_squares(side, target) & pos.occupied(side) & !gone).is_empty() {
        for &(sq, kinds) in tables.leap_attackers(side, target) {
            let p = pos.piece_on(sq);
            if p.is(side) && !gone.contains(sq) && Variant::has(kinds, p.kind()) {
                consider(sq, p.kind());
            }
        }
    }
    // Along each line only the first piece not yet gone may slide onto `target`.
    let blockers = pos.occupied_all() & !gone;
    let ranges = &tables.slide_range[side.index()];
    for (dir, range_of_kind) in ranges.iter().enumerate() {
        let back = crate::variant::tables::opposite_dir(dir);
        if let Some(sq) = tables
            .nearest_on_ray(back, target, blockers)
            .filter(|&sq| pos.slides_onto(sq, target, side, range_of_kind))
        {
            consider(sq, pos.piece_on(sq).kind());
        }
    }
    best.map(|(sq, kind, _)| (sq, kind))
}

/// Whether `mv` loses no material in the exchange it starts (`see >= 0`), without the
/// exchange when the answer is plain: taking at least the mover's own value can lose
/// nothing, since after any recapture the side to move may stop (the swap list's first
/// entry is at least the pieces taken minus the mover, a promoted mover's gain cancelling
/// out). Most captures the picker looks at are of this kind.
pub fn is_not_losing(pos: &Position, ev: &Evaluator, mv: Move) -> bool {
    captured_value(pos, ev, mv) >= ev.value(pos.piece_on(mv.from()).kind()) || see(pos, ev, mv) >= 0
}

/// The value of what `mv` takes: the enemy piece on its destination and, for a lion's
/// double move, the one on its middle square (igui takes only the latter).
pub fn captured_value(pos: &Position, ev: &Evaluator, mv: Move) -> i32 {
    let them = pos.side_to_move().flip();
    [(mv.to() != mv.from()).then_some(mv.to()), mv.mid()]
        .into_iter()
        .flatten()
        .map(|sq| pos.piece_on(sq))
        .filter(|p| p.is(them))
        .map(|p| ev.value(p.kind()))
        .sum()
}

/// The exchange value of `mv` for the side to move, in centipawns.
pub fn see(pos: &Position, ev: &Evaluator, mv: Move) -> i32 {
    let v = pos.variant();
    let us = pos.side_to_move();
    let (from, to) = (mv.from(), mv.to());
    let mover = pos.piece_on(from);
    let mut gone = Bitboard::from_square(from);
    let mut gain = [0i32; 64];
    if to != from && !pos.piece_on(to).is_empty() {
        gain[0] += ev.value(pos.piece_on(to).kind());
    }
    if let Some(mid) = mv.mid() {
        let p = pos.piece_on(mid);
        if !p.is_empty() {
            gain[0] += ev.value(p.kind());
            gone.insert(mid);
        }
    }
    let mut occupant = mover.kind();
    if mv.is_promotion() {
        if let Some(promoted) = v.promotion[occupant as usize] {
            gain[0] += ev.value(promoted) - ev.value(occupant);
            occupant = promoted;
        }
    }
    let mut side = us.flip();
    let mut d = 0;
    while let Some((sq, kind)) = next_attacker(pos, ev, to, side, gone, occupant) {
        d += 1;
        // If `side` takes the occupant, it gains its value minus what it had conceded.
        gain[d] = ev.value(occupant) - gain[d - 1];
        if (-gain[d - 1]).max(gain[d]) < 0 || d == gain.len() - 1 {
            break;
        }
        gone.insert(sq);
        occupant = kind;
        side = side.flip();
    }
    while d > 0 {
        d -= 1;
        gain[d] = -(-gain[d]).max(gain[d + 1]);
    }
    gain[0]
}

/// The next attacker, applying the lion-trading rule: a lion two squares away may not take
/// a lion that the other side still defends.
fn next_attacker(
    pos: &Position,
    ev: &Evaluator,
    to: Square,
    side: Color,
    gone: Bitboard,
    occupant: Kind,
) -> Option<(Square, Kind)> {
    let v = pos.variant();
    let (sq, kind) = least_valuable_attacker(pos, ev, to, side, gone)?;
    let lions = v.lion_mask;
    // Inside one exchange the counter-strike ban never bites (see the module doc).
    let mut without = gone;
    without.insert(sq);
    if Variant::has(lions, occupant)
        && LionCapture::judge(
            Variant::has(lions, kind),
            sq.distance(to),
            false,
            || least_valuable_attacker(pos, ev, to, side.flip(), without).is_some(),
            None,
            to,
        ) != LionCapture::Allowed
    {
        // Look for another attacker that is not this lion.
        return least_valuable_attacker(pos, ev, to, side, without)
            .filter(|&(s, k)| !(Variant::has(lions, k) && s.distance(to) > 1));
    }
    Some((sq, kind))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;

    /// The evaluator's value of the chu piece with these SFEN letters.
    fn value(letters: &str) -> i32 {
        let chu = Variant::chu();
        Evaluator::for_variant(chu).value(chu.kind_by_sfen(letters).unwrap())
    }

    fn see_of(sfen: &str, mv: &str) -> i32 {
        let chu = Variant::chu();
        let mut pos = Position::from_sfen(chu, sfen).unwrap();
        let m = pos.parse_usi_move(mv).unwrap();
        see(&pos, Evaluator::for_variant(chu), m)
    }

    #[test]
    fn undefended_and_defended_captures() {
        // Rook takes an undefended gold: +gold.
        assert_eq!(
            see_of("k11/12/12/6g5/12/12/12/6R5/12/12/12/11K b - 1", "6h6d"),
            value("g")
        );
        // Rook takes a gold defended by a silver: gold - rook.
        assert_eq!(
            see_of("k11/12/5s6/6g5/12/12/12/6R5/12/12/12/11K b - 1", "6h6d"),
            value("g") - value("r")
        );
        // Pawn takes a defended gold: still wins gold - pawn.
        assert_eq!(
            see_of("k11/12/5s6/6g5/6P5/12/12/12/12/12/12/11K b - 1", "6e6d"),
            value("g") - value("p")
        );
        // A quiet move to a safe square is worth 0.
        assert_eq!(
            see_of("k11/12/12/12/12/12/12/6R5/12/12/12/11K b - 1", "6h6g"),
            0
        );
    }

    #[test]
    fn lion_double_capture_and_igui() {
        // Lion on 6f takes pawns on 6e and 6d with one move; nothing recaptures.
        assert_eq!(
            see_of("k11/12/12/6p5/6p5/6N5/12/12/12/12/12/11K b - 1", "6f6e6d"),
            2 * value("p")
        );
        // Igui: take the gold on 6e and stay; a silver on 5c cannot reach 6f.
        assert_eq!(
            see_of("k11/12/7s4/12/6g5/6N5/12/12/12/12/12/11K b - 1", "6f6e6f"),
            value("g")
        );
        // Lion takes a gold defended by a pawn: gold - lion.
        assert_eq!(
            see_of("k11/12/12/6p5/6g5/6N5/12/12/12/12/12/11K b - 1", "6f6e"),
            value("g") - value("n")
        );
    }

    #[test]
    fn a_lion_may_not_retake_a_defended_lion_from_two_squares() {
        // Sente's lion jumps 6h-6f onto a gold. Gote's lion on 6d, two squares away, may not
        // take sente's lion while sente's silver on 5g defends 6f: the gold is free.
        assert_eq!(
            see_of("k11/12/12/6n5/12/6g5/7S4/6N5/12/12/12/11K b - 1", "6h6f"),
            value("g")
        );
        // Without the silver the lion trade is legal: gold for lion.
        assert_eq!(
            see_of("k11/12/12/6n5/12/6g5/12/6N5/12/12/12/11K b - 1", "6h6f"),
            value("g") - value("n")
        );
    }

    /// The shortcut of `is_not_losing` must agree with the full exchange on every capture
    /// of random games (lion double captures, igui and promotions included).
    #[test]
    fn the_not_losing_shortcut_agrees_with_see() {
        use crate::core::rng::Rng;
        use crate::position::{Filter, GenMode};
        let mut checked = 0;
        for variant in Variant::all() {
            let ev = Evaluator::for_variant(variant);
            let mut rng = Rng::new(11);
            for _game in 0..8 {
                let mut pos = Position::startpos(variant);
                let mut captures = Vec::new();
                for _ply in 0..300 {
                    pos.generate(GenMode::Search, Filter::Captures, &mut captures);
                    for &mv in &captures {
                        assert_eq!(
                            is_not_losing(&pos, ev, mv),
                            see(&pos, ev, mv) >= 0,
                            "{} {mv:?}",
                            pos.to_sfen()
                        );
                        checked += 1;
                    }
                    match pos.random_move(&mut rng) {
                        Some(mv) if pos.board_outcome().is_none() => pos.make_move(mv),
                        _ => break,
                    }
                }
            }
        }
        assert!(checked > 1000, "{checked}");
    }
}
