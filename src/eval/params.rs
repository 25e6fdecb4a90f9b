//! Evaluation parameters as the evaluator and the tuner use them. The numbers are each
//! variant's data (`EVAL` in `src/variant/chu.rs` and `sho.rs`, in the shape of
//! `variant/eval_values.rs`), found through the variant's spec.
//!
//! [`Resolved`] is a variant's set per kind, as the evaluator uses it; it is also the flat
//! vector of named numbers that `shishi tune` changes and prints back in the form of the
//! variant's `EVAL`.

pub use crate::variant::eval_values::{EvalParams, MopUp, Weights};
use crate::variant::Variant;

/// The parameters of `variant`: the set its data gives (`VariantSpec::eval`).
pub fn for_variant(variant: &Variant) -> &'static EvalParams {
    variant.spec.eval
}

/// The parameters `variant` has on trial (`VariantSpec::eval_candidate`, played with the
/// search option `eval_candidate`), or its own when it has none.
pub fn candidate_for_variant(variant: &Variant) -> &'static EvalParams {
    variant.spec.eval_candidate.unwrap_or(variant.spec.eval)
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
        Resolved::from_params(variant, for_variant(variant))
    }

    /// `params` (one of `variant`'s sets) per kind of `variant`.
    pub fn from_params(variant: &Variant, params: &EvalParams) -> Resolved {
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

    /// These parameters with every promoted kind that moves exactly as an unpromoted kind
    /// (and is as royal, as lion-like and as weak) valued and placed as that kind: chu's
    /// rook and promoted gold, horse and promoted bishop, free king and promoted phoenix.
    /// The values began that way; the Texel fits then spread the pairs apart that the
    /// tuner does not tie itself (`tune::alike_kinds` ties only kinds that also promote
    /// alike: the lion and promoted kirin, the queen and promoted phoenix), and a promoted
    /// piece is rare in the fits' positions (chu's second fit values the promoted gold at
    /// 445 and the rook at 1298), so the unpromoted kind's numbers are the better estimate.
    /// Sho's fit already keeps its gold-movers at one value.
    pub fn with_promoted_twins_alike(&self, variant: &Variant) -> Resolved {
        let kinds = &variant.spec.kinds;
        let mut out = self.clone();
        for (promoted, p) in kinds.iter().enumerate().filter(|(_, k)| k.is_promoted()) {
            let twin = kinds.iter().position(|k| {
                !k.is_promoted()
                    && k.movement == p.movement
                    && (k.royal, k.lion, k.weak) == (p.royal, p.lion, p.weak)
            });
            if let Some(twin) = twin {
                out.values[promoted] = self.values[twin];
                out.centre[promoted] = self.centre[twin];
                out.advance[promoted] = self.advance[twin];
            }
        }
        out
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

    #[test]
    fn a_promoted_kind_moving_as_an_unpromoted_one_takes_its_numbers() {
        let chu = Variant::chu();
        let fitted = Resolved::of(chu);
        let alike = fitted.with_promoted_twins_alike(chu);
        let index = |sfen: &str| chu.kind_by_sfen(sfen).unwrap() as usize;
        // The fit spread these pairs apart, so the check below can fail for them; the
        // tuner itself gives kinds that play alike one value (`tune::alike_kinds`: the
        // promoted kirin is a lion, the promoted phoenix a queen).
        let spread = [("+g", "r"), ("+b", "h"), ("+r", "d")];
        let tied_by_the_fit = [("+x", "q"), ("+o", "n")];
        let pairs = spread.into_iter().chain(tied_by_the_fit);
        for (promoted, twin) in pairs.chain([("+p", "g"), ("+e", "k")]) {
            let (p, t) = (index(promoted), index(twin));
            assert_eq!(alike.values[p], fitted.values[t], "{promoted}");
            assert_eq!(alike.centre[p], fitted.centre[t], "{promoted}");
            assert_eq!(alike.advance[p], fitted.advance[t], "{promoted}");
        }
        assert!(spread
            .iter()
            .all(|(p, t)| fitted.values[index(p)] != fitted.values[index(t)]));
        assert!(tied_by_the_fit
            .iter()
            .all(|(p, t)| fitted.values[index(p)] == fitted.values[index(t)]));
        // Unpromoted kinds, and promoted ones with no twin, keep their numbers.
        for sfen in ["p", "r", "n", "+h", "+d", "+l", "+a"] {
            assert_eq!(
                alike.values[index(sfen)],
                fitted.values[index(sfen)],
                "{sfen}"
            );
        }
        assert_eq!(alike.weights, fitted.weights);
    }
}
