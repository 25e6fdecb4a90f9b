//! Static evaluation, from the side to move's point of view, in centipawns.
//!
//! Material, placement (per kind: a weight for centralisation and one for the ranks
//! advanced), promotion potential, mobility of the ranging pieces, royal safety (enemy
//! pieces near a royal, own guards next to it; a crown prince is a second royal and is
//! guarded alike), lion safety (an attacked lion is a hunted lion), opening development
//! and a tempo bonus.
//! Every term is computed once per call in [`Evaluator::breakdown`]; `evaluate` sums it.

pub mod params;

use crate::core::score::Score;
use crate::core::{Bitboard, Color, Square};
use crate::position::Position;
use crate::variant::Variant;
use params::{Resolved, Weights};
use std::sync::OnceLock;

/// The evaluation terms, each from sente's point of view (positive: good for sente).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Breakdown {
    /// Piece values.
    pub material: i32,
    /// Centralisation of short-range pieces and the advance of pawns.
    pub placement: i32,
    /// Pieces in or next to the promotion zone that would gain by promoting.
    pub promotion: i32,
    /// Squares reached by the ranging pieces.
    pub mobility: i32,
    /// Enemy pieces near the royals, own guards next to them.
    pub royal_safety: i32,
    /// Attacked lions.
    pub lion_safety: i32,
    /// Ranging pieces developed off the back ranks, weighted by material on the board.
    pub development: i32,
    /// Bonus for the side to move (signed: positive when sente is to move).
    pub tempo: i32,
}

impl Breakdown {
    /// The sum of the terms, from sente's point of view.
    pub fn total(&self) -> i32 {
        self.material
            + self.placement
            + self.promotion
            + self.mobility
            + self.royal_safety
            + self.lion_safety
            + self.development
            + self.tempo
    }
}

/// An evaluator for one variant: its parameters compiled into per-kind and per-square tables.
pub struct Evaluator {
    variant: &'static Variant,
    weights: Weights,
    /// Value per kind.
    values: Vec<i32>,
    /// Centralisation and advance weights per kind.
    centre_weight: Vec<i32>,
    advance_weight: Vec<i32>,
    promotion_gain: Vec<i32>,
    ranging: Vec<bool>,
    /// Per square: steps to the nearest edge.
    edge_distance: Vec<i32>,
    /// Per square: the on-board squares one step away, and those one or two steps away.
    near1: Vec<Bitboard>,
    near2: Vec<Bitboard>,
    start_material: i32,
}

impl Evaluator {
    /// The evaluator of `variant` (built once).
    pub fn for_variant(variant: &'static Variant) -> &'static Evaluator {
        static EVALUATORS: [OnceLock<Evaluator>; Variant::COUNT] =
            [const { OnceLock::new() }; Variant::COUNT];
        EVALUATORS[variant.index()].get_or_init(|| Evaluator::new(variant))
    }

    fn new(variant: &'static Variant) -> Evaluator {
        Evaluator::with_params(variant, &Resolved::of(variant))
    }

    /// An evaluator of `variant` with other parameters than the built-in ones (tuning).
    pub fn with_params(variant: &'static Variant, params: &Resolved) -> Evaluator {
        let values = params.values.clone();
        let promotion_gain = (0..variant.kind_count())
            .map(|k| variant.promotion[k].map_or(0, |p| (values[p as usize] - values[k]).max(0)))
            .collect();
        let ranging = (0..variant.kind_count())
            .map(|k| !variant.tables.pieces[k][0].slides.is_empty())
            .collect();
        let (files, ranks) = (variant.spec.files, variant.spec.ranks);
        let edge_distance = (0..256)
            .map(|i| {
                let sq = Square(i as u8);
                if !variant.on_board(sq) {
                    return 0;
                }
                let dx = sq.x().min(files - 1 - sq.x());
                let dy = sq.y().min(ranks - 1 - sq.y());
                dx.min(dy) as i32
            })
            .collect();
        let within = |sq: Square, reach: usize| -> Bitboard {
            variant
                .tables
                .on_board
                .iter()
                .filter(|&t| t != sq && t.distance(sq) <= reach)
                .collect()
        };
        let near1 = (0..256).map(|i| within(Square(i as u8), 1)).collect();
        let near2 = (0..256).map(|i| within(Square(i as u8), 2)).collect();
        let start = Position::startpos(variant);
        let mut ev = Evaluator {
            variant,
            weights: params.weights,
            values,
            centre_weight: params.centre.clone(),
            advance_weight: params.advance.clone(),
            promotion_gain,
            ranging,
            edge_distance,
            near1,
            near2,
            start_material: 1,
        };
        ev.start_material = Color::ALL
            .iter()
            .map(|&c| ev.material(&start, c))
            .sum::<i32>()
            .max(1);
        ev
    }

    /// The value of `kind` in centipawns (used by move ordering and SEE).
    #[inline]
    pub fn value(&self, kind: crate::variant::Kind) -> i32 {
        self.values[kind as usize]
    }

    fn material(&self, pos: &Position, color: Color) -> i32 {
        pos.occupied(color)
            .iter()
            .map(|sq| self.values[pos.piece_on(sq).kind() as usize])
            .sum()
    }

    /// The evaluation from the side to move's point of view.
    pub fn evaluate(&self, pos: &Position) -> Score {
        let total = self.breakdown(pos).total();
        let score = if pos.side_to_move() == Color::Sente {
            total
        } else {
            -total
        };
        score.clamp(-20_000, 20_000)
    }

    /// Every term of the evaluation, from sente's point of view.
    pub fn breakdown(&self, pos: &Position) -> Breakdown {
        let v = self.variant;
        let p = &self.weights;
        let mut b = Breakdown::default();
        let mut developed_by = [0; 2];
        let mut total_material = 0;
        let ranks = v.spec.ranks;
        for color in Color::ALL {
            let sign = if color == Color::Sente { 1 } else { -1 };
            let them = color.flip();
            let zone = v.zone(color);
            let mut material = 0;
            let mut placement = 0;
            let mut promotion = 0;
            let mut mobility_eighths = 0;
            let mut safety = 0;
            let mut lion = 0;
            let mut developed = 0;
            for sq in pos.occupied(color) {
                let kind = pos.piece_on(sq).kind();
                let value = self.values[kind as usize];
                material += value;
                // Ranks advanced from the own back rank.
                let advanced = if color == Color::Sente {
                    ranks - 1 - sq.y()
                } else {
                    sq.y()
                } as i32;
                placement += self.advance_weight[kind as usize] * advanced
                    + self.centre_weight[kind as usize] * self.edge_distance[sq.index()];
                let gain = self.promotion_gain[kind as usize];
                if gain > 0 {
                    let depth = v.spec.zone_depth as i32;
                    if zone.contains(sq) {
                        promotion += gain * p.promotion_potential_pct / 100;
                    } else if advanced == ranks as i32 - depth - 1 {
                        promotion += gain * p.promotion_potential_pct / 200;
                    }
                }
                if self.ranging[kind as usize] {
                    mobility_eighths += self.reach(pos, kind, color, sq);
                    if advanced >= 2 {
                        developed += 1;
                    }
                }
                if Variant::has(v.lion_mask, kind)
                    && p.lion_hunted_pct > 0
                    && pos.is_attacked(sq, them)
                {
                    lion -= value * p.lion_hunted_pct / 100;
                }
            }
            // Own pieces next to our royals guard them; our pieces within two steps of an
            // enemy royal press on it (a penalty for them, so a bonus for us).
            let ours = pos.occupied(color);
            for r in pos.royals(color) {
                safety += p.royal_guard * (self.near1[r.index()] & ours).count() as i32;
            }
            for r in pos.royals(them) {
                safety += p.royal_attacker * (self.near2[r.index()] & ours).count() as i32;
            }
            b.material += sign * material;
            total_material += material;
            b.placement += sign * placement;
            b.promotion += sign * promotion;
            b.mobility += sign * mobility_eighths * p.mobility_eighths / 8;
            b.royal_safety += sign * safety;
            b.lion_safety += sign * lion;
            developed_by[color.index()] = developed;
        }
        // Development counts while much material is on the board.
        for color in Color::ALL {
            let sign = if color == Color::Sente { 1 } else { -1 };
            b.development += sign * developed_by[color.index()] * p.development * total_material
                / self.start_material;
        }
        b.tempo = if pos.side_to_move() == Color::Sente {
            p.tempo
        } else {
            -p.tempo
        };
        b
    }

    /// Squares a ranging piece reaches along its slides (empty ones, and a capture).
    fn reach(&self, pos: &Position, kind: crate::variant::Kind, color: Color, from: Square) -> i32 {
        let tables = &self.variant.tables;
        let mut count = 0;
        for &(dir, range) in &tables.piece(kind, color).slides {
            for (i, &sq) in tables.ray(dir as usize, from).iter().enumerate() {
                if i >= range as usize {
                    break;
                }
                let target = pos.piece_on(sq);
                if target.is_empty() {
                    count += 1;
                    continue;
                }
                if !target.is(color) {
                    count += 1;
                }
                break;
            }
        }
        count
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_position_is_balanced_and_colours_mirror() {
        for variant in Variant::all() {
            let ev = Evaluator::for_variant(variant);
            let pos = Position::startpos(variant);
            let b = ev.breakdown(&pos);
            assert_eq!(b.total() - b.tempo, 0, "{}: {b:?}", variant.name());
            assert_eq!(ev.evaluate(&pos), ev.weights.tempo);
        }
    }

    #[test]
    fn material_counts() {
        let chu = Variant::chu();
        let ev = Evaluator::for_variant(chu);
        let pos = Position::from_sfen(chu, "k11/12/12/12/12/5N6/12/12/12/12/12/11K b - 1").unwrap();
        let b = ev.breakdown(&pos);
        assert_eq!(b.material, ev.value(chu.kind_by_sfen("n").unwrap()));
        assert!(ev.evaluate(&pos) > 2000);
    }
}
