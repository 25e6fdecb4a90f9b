//! Evaluation parameters, in one place so that tuning can change them.
//!
//! Piece values start from HaChu's published tables (H.G. Muller; chu: pawn 40, lion 1000;
//! sho: pawn 80), rescaled so that a pawn is 100 centipawns. A promoted piece is valued as
//! the piece it moves like. Keys are SFEN letters, so the tables read as the variant data.

use crate::variant::Variant;

/// The parameters of one variant.
pub struct EvalParams {
    /// `(SFEN letters, value in centipawns)` for every kind.
    pub values: &'static [(&'static str, i32)],
    /// Bonus for the side to move.
    pub tempo: i32,
    /// Per reachable square of a ranging piece, in 1/8 centipawn.
    pub mobility_eighths: i32,
    /// Per step of centralisation of a short-range piece, in centipawns.
    pub centre: i32,
    /// Per rank a pawn-like piece has advanced.
    pub advance: i32,
    /// Share (percent) of the promotion gain counted for a piece inside the zone, and half
    /// of it one rank before.
    pub promotion_potential_pct: i32,
    /// Per enemy piece within two squares of a royal.
    pub royal_attacker: i32,
    /// Per own piece next to a royal.
    pub royal_guard: i32,
    /// Share (percent) of a lion's value lost when an enemy piece attacks it.
    pub lion_hunted_pct: i32,
    /// Opening development: per ranging piece moved off its two back ranks while much
    /// material is on the board.
    pub development: i32,
}

/// Chu shogi.
pub const CHU: EvalParams = EvalParams {
    values: &[
        ("p", 100),
        ("i", 125),
        ("l", 375),
        ("f", 375),
        ("c", 250),
        ("s", 250),
        ("g", 378),
        ("e", 503),
        ("k", 700),
        ("a", 375),
        ("b", 625),
        ("t", 380),
        ("o", 385),
        ("x", 383),
        ("m", 500),
        ("v", 500),
        ("r", 750),
        ("h", 875),
        ("d", 1000),
        ("n", 2500),
        ("q", 1500),
        ("+p", 378),
        ("+i", 503),
        ("+l", 875),
        ("+f", 625),
        ("+c", 500),
        ("+s", 500),
        ("+g", 750),
        ("+e", 675),
        ("+a", 625),
        ("+b", 875),
        ("+t", 750),
        ("+o", 2500),
        ("+x", 1500),
        ("+m", 1000),
        ("+v", 1000),
        ("+r", 1000),
        ("+h", 1250),
        ("+d", 1375),
    ],
    tempo: 20,
    mobility_eighths: 12,
    centre: 3,
    advance: 4,
    promotion_potential_pct: 30,
    royal_attacker: 25,
    royal_guard: 12,
    lion_hunted_pct: 12,
    development: 6,
};

/// Sho shogi.
pub const SHO: EvalParams = EvalParams {
    values: &[
        ("p", 100),
        ("l", 188),
        ("n", 138),
        ("s", 250),
        ("g", 275),
        ("k", 513),
        ("e", 313),
        ("b", 400),
        ("r", 625),
        ("+p", 275),
        ("+l", 275),
        ("+n", 275),
        ("+s", 275),
        ("+e", 500),
        ("+b", 650),
        ("+r", 875),
    ],
    tempo: 20,
    mobility_eighths: 16,
    centre: 3,
    advance: 5,
    promotion_potential_pct: 30,
    royal_attacker: 30,
    royal_guard: 15,
    lion_hunted_pct: 0,
    development: 5,
};

/// Every variant's parameters, by the variant's name.
const TABLE: &[(&str, &EvalParams)] = &[("chushogi", &CHU), ("shoshogi", &SHO)];

/// The parameters of `variant`. Every variant has its own (a test checks); a variant added
/// without them would get a warning and chu's, the largest set.
pub fn for_variant(variant: &Variant) -> &'static EvalParams {
    match TABLE.iter().find(|(name, _)| *name == variant.name()) {
        Some((_, params)) => params,
        None => {
            log::warn!(
                "no evaluation parameters for {}; using chu's",
                variant.name()
            );
            &CHU
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_has_its_own_parameters() {
        for v in Variant::all() {
            assert!(
                TABLE.iter().any(|(name, _)| *name == v.name()),
                "{}",
                v.name()
            );
        }
        assert_eq!(TABLE.len(), Variant::all().len());
    }
}
