//! Evaluation parameters, in one place so that tuning can change them.
//!
//! Piece values start from HaChu's published tables (H.G. Muller; chu: pawn 40, lion 1000;
//! sho: pawn 80), rescaled so that a pawn is 100 centipawns. A promoted piece is valued as
//! the piece it moves like. Keys are SFEN letters, so the tables read as the variant data.
//!
//! [`Resolved`] is the same set per kind of a variant, as the evaluator uses it; it is also
//! the flat vector of named numbers that `shishi tune` changes and prints back in the form
//! of this file.

use crate::variant::Variant;

/// The parameters of one variant.
pub struct EvalParams {
    /// `(SFEN letters, value in centipawns)` for every kind.
    pub values: &'static [(&'static str, i32)],
    /// `(SFEN letters, centre, advance)` for every kind: centipawns per step of
    /// centralisation (the distance to the nearest edge) and per rank advanced from the own
    /// back rank.
    pub placement: &'static [(&'static str, i32, i32)],
    /// The weights that are not per kind.
    pub weights: Weights,
    /// Converting a won endgame (not tuned by the Texel fit: it acts in a few positions of
    /// a game, those after which the fit's game results are already decided).
    pub mopup: MopUp,
}

/// The mop-up terms: when one side leads by `lead` centipawns of material or more and the
/// other has at most `max_defenders` pieces besides its royals, the strong side's pieces
/// are drawn towards the enemy royals and lions (taking the last lion or the last pieces
/// wins by the bare-king rule) and the enemy royal towards the edge. Hand-set; with
/// contempt it passed a non-regression SPRT at 1+0.02 (+8.3 +/- 13.2 Elo, 2,465 games) and
/// finishes the won endgames of `data/endgames/conversion.txt` (`tests/conversion.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MopUp {
    /// The material lead from which it acts.
    pub lead: i32,
    /// The most pieces besides its royals the weak side may keep (an endgame: in the
    /// middlegame a large lead is better played positionally).
    pub max_defenders: u32,
    /// Per strong piece, per square closer to the nearest target.
    pub closeness: i32,
    /// Per step the weak side's royal stands away from the centre.
    pub edge: i32,
}

/// The weights that are not per kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Bonus for the side to move.
    pub tempo: i32,
    /// Per reachable square of a ranging piece, in 1/8 centipawn.
    pub mobility_eighths: i32,
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

impl Weights {
    /// The names of the weights, in the order of [`Weights::to_vec`].
    pub const NAMES: [&'static str; 7] = [
        "tempo",
        "mobility_eighths",
        "promotion_potential_pct",
        "royal_attacker",
        "royal_guard",
        "lion_hunted_pct",
        "development",
    ];

    fn to_vec(self) -> Vec<i32> {
        vec![
            self.tempo,
            self.mobility_eighths,
            self.promotion_potential_pct,
            self.royal_attacker,
            self.royal_guard,
            self.lion_hunted_pct,
            self.development,
        ]
    }

    fn from_slice(v: &[i32]) -> Weights {
        Weights {
            tempo: v[0],
            mobility_eighths: v[1],
            promotion_potential_pct: v[2],
            royal_attacker: v[3],
            royal_guard: v[4],
            lion_hunted_pct: v[5],
            development: v[6],
        }
    }
}

/// Chu shogi. Tuned by `shishi tune fit` (scripts/texel.sh) on the quiet positions of 983
/// self-play games at 1 s + 0.02 s:
/// shishi tune fit chu.txt (scale 0.2002, 222966 positions): error 0.125833 -> 0.118366, validation 0.125763 -> 0.118263
pub const CHU: EvalParams = EvalParams {
    values: &[
        ("p", 100),
        ("i", 50),
        ("l", 315),
        ("f", 255),
        ("c", 10),
        ("s", 239),
        ("g", 291),
        ("e", 483),
        ("k", 700),
        ("a", 519),
        ("b", 712),
        ("t", 366),
        ("o", 502),
        ("x", 497),
        ("m", 284),
        ("v", 695),
        ("r", 910),
        ("h", 1155),
        ("d", 1336),
        ("n", 2432),
        ("q", 1592),
        ("+p", 422),
        ("+i", 903),
        ("+l", 762),
        ("+f", 573),
        ("+c", 616),
        ("+s", 459),
        ("+g", 422),
        ("+e", 675),
        ("+a", 701),
        ("+b", 730),
        ("+t", 446),
        ("+o", 2269),
        ("+x", 1884),
        ("+m", 720),
        ("+v", 1204),
        ("+r", 1050),
        ("+h", 1378),
        ("+d", 1641),
    ],
    placement: &[
        ("p", -25, 8),
        ("i", 21, 4),
        ("l", 3, -13),
        ("f", -14, -19),
        ("c", 16, 10),
        ("s", 28, -17),
        ("g", -22, -3),
        ("e", 28, 14),
        ("k", -25, -25),
        ("a", 5, -25),
        ("b", 14, -25),
        ("t", 3, -12),
        ("o", 20, 23),
        ("x", -21, 15),
        ("m", 1, 15),
        ("v", 10, -13),
        ("r", -2, -22),
        ("h", 10, -9),
        ("d", -7, -5),
        ("n", 28, 15),
        ("q", -19, 20),
        ("+p", 9, -16),
        ("+i", 28, 25),
        ("+l", -25, 5),
        ("+f", 23, -25),
        ("+c", 25, 25),
        ("+s", 25, -16),
        ("+g", -25, 0),
        ("+e", 13, 25),
        ("+a", -25, -12),
        ("+b", 13, -20),
        ("+t", 6, 16),
        ("+o", -22, 1),
        ("+x", 9, 18),
        ("+m", -21, 19),
        ("+v", -17, -22),
        ("+r", 14, -2),
        ("+h", -18, 0),
        ("+d", 25, -4),
    ],
    weights: Weights {
        tempo: 9,
        mobility_eighths: 78,
        promotion_potential_pct: 54,
        royal_attacker: 93,
        royal_guard: 0,
        lion_hunted_pct: 2,
        development: 0,
    },
    mopup: MopUp {
        lead: 1000,
        max_defenders: 4,
        closeness: 4,
        edge: 10,
    },
};

/// Sho shogi. Tuned by `shishi tune fit` (3 passes, where the held-out error was lowest) on
/// 80,145 quiet positions of 1,916 sho games (844 against Fairy-Stockfish, 1,072 of
/// self-play), each target half the game's result and half Fairy-Stockfish's score of the
/// position at depth 7 as an expected score (`scripts/label.py`), starting from the earlier
/// fit to the games' results alone (with the gold and the four pieces that promote to its
/// moves at one value; `shishi tune fit` keeps such kinds together). Against that fit the
/// steppers gained (silver 239 -> 271, lance, knight and elephant about 50), the bishop and
/// rook lost 48, the dragon gained 32 and the royal guard fell from 28 to 7: the ratios
/// moved towards Fairy-Stockfish's. Its SPRT is in `docs/tuning.md`. The mop-up terms are
/// set by hand: the fit centralises the promoted pieces, so the pull towards the last enemy
/// pieces is strong (40 a square) and starts from a material lead of 900.
pub const SHO: EvalParams = EvalParams {
    values: &[
        ("p", 100),
        ("l", 200),
        ("n", 205),
        ("s", 271),
        ("g", 344),
        ("k", 513),
        ("e", 402),
        ("b", 589),
        ("r", 774),
        ("+p", 344),
        ("+l", 344),
        ("+n", 344),
        ("+s", 344),
        ("+e", 500),
        ("+b", 754),
        ("+r", 947),
    ],
    placement: &[
        ("p", 4, -1),
        ("l", 14, -6),
        ("n", -1, -4),
        ("s", 7, 7),
        ("g", 15, -10),
        ("k", 36, 10),
        ("e", 2, 4),
        ("b", 18, -12),
        ("r", 6, -4),
        ("+p", 15, -10),
        ("+l", 15, -10),
        ("+n", 15, -10),
        ("+s", 15, -10),
        ("+e", 50, 17),
        ("+b", 18, 4),
        ("+r", 17, 7),
    ],
    weights: Weights {
        tempo: 3,
        mobility_eighths: 17,
        promotion_potential_pct: 3,
        royal_attacker: 37,
        royal_guard: 7,
        lion_hunted_pct: 4,
        development: 4,
    },
    mopup: MopUp {
        lead: 900,
        max_defenders: 3,
        closeness: 40,
        edge: 30,
    },
};

/// The parameter sets, by the name a variant's data gives (`VariantSpec::eval_params`).
const TABLE: &[(&str, &EvalParams)] = &[("chushogi", &CHU), ("shoshogi", &SHO)];

/// The parameters of `variant`: the set its data names. Every variant names one that exists
/// (a test checks); a variant added with a wrong name would get a warning and chu's, the
/// largest set.
pub fn for_variant(variant: &Variant) -> &'static EvalParams {
    match TABLE
        .iter()
        .find(|(name, _)| *name == variant.spec.eval_params)
    {
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

/// One variant's parameters per kind (indexed by the variant's kind index), and as the flat
/// vector of named numbers that tuning changes: the values, the centre weights, the advance
/// weights, then the [`Weights`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    /// Value per kind, centipawns.
    pub values: Vec<i32>,
    /// Centralisation weight per kind.
    pub centre: Vec<i32>,
    /// Advance weight per kind.
    pub advance: Vec<i32>,
    /// The weights that are not per kind.
    pub weights: Weights,
}

impl Resolved {
    /// The built-in parameters of `variant` (a kind missing from a table would be worth 300
    /// with no placement; a test checks that none is missing).
    pub fn of(variant: &Variant) -> Resolved {
        let params = for_variant(variant);
        let kinds = &variant.spec.kinds;
        let value = |sfen: &str| {
            params
                .values
                .iter()
                .find(|(s, _)| *s == sfen)
                .map_or(300, |&(_, v)| v)
        };
        let placement = |sfen: &str| {
            params
                .placement
                .iter()
                .find(|(s, _, _)| *s == sfen)
                .map_or((0, 0), |&(_, c, a)| (c, a))
        };
        Resolved {
            values: kinds.iter().map(|k| value(k.sfen)).collect(),
            centre: kinds.iter().map(|k| placement(k.sfen).0).collect(),
            advance: kinds.iter().map(|k| placement(k.sfen).1).collect(),
            weights: params.weights,
        }
    }

    /// The names of the flat vector's entries: `value.p`, `centre.p`, `advance.p` per kind
    /// (SFEN letters), then the weights.
    pub fn names(variant: &Variant) -> Vec<String> {
        let kinds = &variant.spec.kinds;
        ["value", "centre", "advance"]
            .iter()
            .flat_map(|table| kinds.iter().map(move |k| format!("{table}.{}", k.sfen)))
            .chain(Weights::NAMES.iter().map(|n| n.to_string()))
            .collect()
    }

    /// The flat vector, in the order of [`Resolved::names`].
    pub fn to_vec(&self) -> Vec<i32> {
        let mut v = self.values.clone();
        v.extend(&self.centre);
        v.extend(&self.advance);
        v.extend(self.weights.to_vec());
        v
    }

    /// The parameters of `variant` from a flat vector; `None` if its length is not
    /// that of [`Resolved::names`].
    pub fn from_vec(variant: &Variant, v: &[i32]) -> Option<Resolved> {
        let n = variant.kind_count();
        if v.len() != 3 * n + Weights::NAMES.len() {
            return None;
        }
        Some(Resolved {
            values: v[..n].to_vec(),
            centre: v[n..2 * n].to_vec(),
            advance: v[2 * n..3 * n].to_vec(),
            weights: Weights::from_slice(&v[3 * n..]),
        })
    }

    /// The parameters as the Rust text of this file's tables (`values`, `placement`,
    /// `weights`), to paste over a variant's constant after tuning.
    pub fn to_rust(&self, variant: &Variant) -> String {
        let kinds = &variant.spec.kinds;
        let mut out = String::from("    values: &[\n");
        for (k, v) in kinds.iter().zip(&self.values) {
            out += &format!("        (\"{}\", {v}),\n", k.sfen);
        }
        out += "    ],\n    placement: &[\n";
        for (i, k) in kinds.iter().enumerate() {
            out += &format!(
                "        (\"{}\", {}, {}),\n",
                k.sfen, self.centre[i], self.advance[i]
            );
        }
        out += "    ],\n    weights: Weights {\n";
        for (name, v) in Weights::NAMES.iter().zip(self.weights.to_vec()) {
            out += &format!("        {name}: {v},\n");
        }
        out += "    },\n";
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_has_its_own_parameters() {
        for v in Variant::all() {
            assert!(
                TABLE.iter().any(|(name, _)| *name == v.spec.eval_params),
                "{}",
                v.name()
            );
        }
        assert_eq!(TABLE.len(), Variant::all().len());
    }

    #[test]
    fn every_kind_has_a_value_and_a_placement() {
        for v in Variant::all() {
            let p = for_variant(v);
            for k in v.spec.kinds {
                assert!(p.values.iter().any(|(s, _)| *s == k.sfen), "{}", k.sfen);
                assert!(p.placement.iter().any(|(s, ..)| *s == k.sfen), "{}", k.sfen);
            }
            assert_eq!(p.values.len(), v.kind_count(), "{}", v.name());
            assert_eq!(p.placement.len(), v.kind_count(), "{}", v.name());
        }
    }

    #[test]
    fn the_flat_vector_round_trips() {
        for v in Variant::all() {
            let r = Resolved::of(v);
            let flat = r.to_vec();
            assert_eq!(flat.len(), Resolved::names(v).len());
            assert_eq!(Resolved::from_vec(v, &flat), Some(r));
            assert_eq!(Resolved::from_vec(v, &flat[1..]), None);
        }
    }
}
