//! Static evaluation, from the side to move's point of view, in centipawns.
//!
//! Material, placement (per kind: a weight for centralisation and one for the ranks
//! advanced), promotion potential, mobility of the ranging pieces, royal safety (enemy
//! pieces near a royal, own guards next to it; a crown prince is a second royal and is
//! guarded alike), lion safety (an attacked lion is a hunted lion; with `lion_prey_pct`,
//! a piece next to an enemy lion is prey to an igui; with `royal_zone_attack`, the squares
//! next to an enemy royal that a side attacks), opening development,
//! a tempo bonus, and mop-up terms that help a side far ahead to finish the game.
//!
//! Material, placement and promotion depend on each piece and its square alone: their sum
//! is a [`PieceSquareTable`] that a searching position keeps up to date as it moves
//! ([`Position::track_square_sums`]). Mobility is the other dear term: a search keeps it
//! move by move as well (`mobility.rs`) and evaluates with
//! [`Evaluator::evaluate_with_mobility`], so that an evaluation visits only the royals and
//! the lions (for the safety terms). [`Evaluator::breakdown`] computes every
//! term on its own, for display and tuning; a test holds the two to the same total.

mod mobility;
pub mod params;

pub use mobility::{moved as mobility_after_move, Mobility, MobilityProbe};

use crate::core::score::Score;
use crate::core::{Bitboard, Color, Square};
use crate::position::{PieceSquareTable, Position};
use crate::variant::{Kind, Variant};
use params::{MopUp, Resolved, Weights};
use std::sync::OnceLock;

/// Evaluation settings a search takes from its options (`mopup_lead`, `trade_down_pct`,
/// `quiet_damping_pct`, `lion_prey_pct`, `royal_zone_attack`, `promoted_twins_alike`,
/// `eval_candidate`), to measure other settings from one binary. The default keeps the
/// variant's own evaluation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EvalOptions {
    /// When not 0, the material lead from which the mop-up terms act (`MopUp::lead`).
    pub mopup_lead: i32,
    /// When not 0, the trade-down share (`MopUp::trade_pct`).
    pub trade_down_pct: i32,
    /// When not 0, the share of the evaluation gone at the move limit
    /// (`MopUp::quiet_damping_pct`).
    pub quiet_damping_pct: i32,
    /// When not 0, the share of the dearest piece next to an enemy lion lost
    /// (`Weights::lion_prey_pct`).
    pub lion_prey_pct: i32,
    /// When not 0, the weight of the attack on the squares next to an enemy royal
    /// (`Weights::royal_zone_attack`).
    pub royal_zone_attack: i32,
    /// How promoted kinds that move as an unpromoted kind are valued.
    pub promoted_twins: PromotedTwins,
    /// Play the variant's evaluation on trial (`VariantSpec::eval_candidate`) in place of
    /// its own; a variant without one keeps its own.
    pub candidate: bool,
}

/// How a promoted kind that moves as an unpromoted kind (its twin) is valued
/// ([`Resolved::with_promoted_twins_alike`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PromotedTwins {
    /// As the fit valued it.
    #[default]
    Fitted,
    /// Valued and placed as its twin; the promotion potential of the kind promoting to it
    /// follows from those values.
    Alike,
    /// Valued and placed as its twin, but the promotion potential keeps the fit's gains:
    /// the fit weighed `promotion_potential_pct` with them, and the new gains are larger
    /// (a gold in the zone would gain 334 centipawns instead of 71).
    AlikeFittedGains,
}

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
    /// Enemy pieces near the royals, own guards next to them (and, with
    /// `royal_zone_attack`, the squares next to them that the enemy attacks).
    pub royal_safety: i32,
    /// Attacked lions, and pieces next to an enemy lion.
    pub lion_safety: i32,
    /// Ranging pieces developed off the back ranks, weighted by material on the board.
    pub development: i32,
    /// Bonus for the side to move (signed: positive when sente is to move).
    pub tempo: i32,
    /// Converting a won endgame: the strong side's pieces near the enemy royals and lions,
    /// and the enemy royal driven to the edge (only with a large lead; see [`MopUp`]).
    pub mopup: i32,
    /// A material lead counted for more as material leaves the board (`MopUp::trade_pct`).
    pub trade_down: i32,
    /// The sum of the terms above taken towards 0 as the plies without a capture or a
    /// promotion near the move limit (`MopUp::quiet_damping_pct`).
    pub quiet_damping: i32,
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
            + self.mopup
            + self.trade_down
            + self.quiet_damping
    }
}

/// The terms of the evaluation that depend only on a piece's kind, colour and square.
#[derive(Clone, Copy, Debug, Default)]
struct SquareTerms {
    /// Centralisation and ranks advanced.
    placement: i32,
    /// The promotion potential (in or next to the zone).
    promotion: i32,
}

/// The evaluation's facts about a kind of one colour.
#[derive(Clone, Debug)]
struct PieceTerms {
    value: i32,
    /// Its slides (absolute direction, range): a ranging piece has some, and its mobility
    /// counts.
    slides: &'static [(u8, u8)],
    /// Per square: the terms of the piece standing there.
    squares: [SquareTerms; 256],
}

/// An evaluator for one variant: its parameters compiled into per-kind and per-square tables.
#[derive(Clone)]
pub struct Evaluator {
    variant: &'static Variant,
    weights: Weights,
    /// Value per kind.
    values: Vec<i32>,
    /// Per colour and kind (index `colour * kinds + kind`): what the evaluation needs to
    /// know of such a piece, in one place so that each piece costs one lookup.
    pieces: Vec<PieceTerms>,
    /// Per colour: the squares two or more ranks off its back rank (a ranging piece there
    /// counts as developed).
    developed_squares: [Bitboard; 2],
    /// Per square: the on-board squares one step away, and those one or two steps away.
    near1: Vec<Bitboard>,
    near2: Vec<Bitboard>,
    start_material: i32,
    /// Per colour, kind and square: material, placement and promotion together (sente's
    /// view), and the material alone, as sente's and as gote's (for the development
    /// scale).
    square_table: PieceSquareTable,
    /// The kinds that range (their mobility counts).
    ranging_kinds: u64,
    mopup: MopUp,
}

impl Evaluator {
    /// The evaluator of `variant` (built once).
    pub fn for_variant(variant: &'static Variant) -> &'static Evaluator {
        static BUILT_IN: [OnceLock<Evaluator>; Variant::COUNT] =
            [const { OnceLock::new() }; Variant::COUNT];
        // A variant made from data alone (`Variant::from_spec`): found by name, built once.
        static OTHERS: std::sync::Mutex<Vec<(&'static str, &'static Evaluator)>> =
            std::sync::Mutex::new(Vec::new());
        if let Some(i) = variant.built_in_index() {
            return BUILT_IN[i].get_or_init(|| Evaluator::new(variant));
        }
        let mut others = OTHERS.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&(_, ev)) = others.iter().find(|(name, _)| *name == variant.name()) {
            return ev;
        }
        let ev: &'static Evaluator = Box::leak(Box::new(Evaluator::new(variant)));
        others.push((variant.name(), ev));
        ev
    }

    /// This evaluator (a variant's built-in one) with the settings `options` changes,
    /// to measure them without a rebuild: `EvalOptions::default()` gives this one back.
    /// Each (variant, options) is built once and kept for the process.
    pub fn with_options(&'static self, options: EvalOptions) -> &'static Evaluator {
        if options == EvalOptions::default() {
            return self;
        }
        static BUILT: std::sync::Mutex<Vec<(EvalOptions, &'static Evaluator)>> =
            std::sync::Mutex::new(Vec::new());
        let mut built = BUILT.lock().unwrap_or_else(|e| e.into_inner());
        let built_before = built
            .iter()
            .find(|(o, ev)| *o == options && std::ptr::eq(ev.variant, self.variant));
        if let Some(&(_, ev)) = built_before {
            return ev;
        }
        let params = if options.candidate {
            params::candidate_for_variant(self.variant)
        } else {
            params::for_variant(self.variant)
        };
        let mut mopup = params.mopup;
        if options.mopup_lead != 0 {
            mopup.lead = options.mopup_lead;
        }
        if options.trade_down_pct != 0 {
            mopup.trade_pct = options.trade_down_pct;
        }
        if options.quiet_damping_pct != 0 {
            mopup.quiet_damping_pct = options.quiet_damping_pct;
        }
        let mut fitted = Resolved::from_params(self.variant, params);
        if options.lion_prey_pct != 0 {
            fitted.weights.lion_prey_pct = options.lion_prey_pct;
        }
        if options.royal_zone_attack != 0 {
            fitted.weights.royal_zone_attack = options.royal_zone_attack;
        }
        let base = match options.promoted_twins {
            PromotedTwins::Fitted => Evaluator::with_params(self.variant, &fitted),
            PromotedTwins::Alike | PromotedTwins::AlikeFittedGains => {
                let alike = fitted.with_promoted_twins_alike(self.variant);
                let gains_from = if options.promoted_twins == PromotedTwins::Alike {
                    &alike.values
                } else {
                    &fitted.values
                };
                Evaluator::with_params_and_gains(self.variant, &alike, gains_from)
            }
        };
        let ev: &'static Evaluator = Box::leak(Box::new(Evaluator { mopup, ..base }));
        built.push((options, ev));
        ev
    }

    fn new(variant: &'static Variant) -> Evaluator {
        Evaluator::with_params(variant, &Resolved::of(variant))
    }

    /// An evaluator of `variant` with other parameters than the built-in ones (tuning).
    pub fn with_params(variant: &'static Variant, params: &Resolved) -> Evaluator {
        Evaluator::with_params_and_gains(variant, params, &params.values)
    }

    /// [`Evaluator::with_params`], with the promotion potential reckoned from
    /// `promotion_values` (per kind) instead of the values of `params`.
    fn with_params_and_gains(
        variant: &'static Variant,
        params: &Resolved,
        promotion_values: &[i32],
    ) -> Evaluator {
        let kinds = variant.kind_count();
        let pieces = piece_terms(variant, params, promotion_values);
        let developed_squares = Color::ALL.map(|color| {
            variant
                .tables
                .on_board
                .iter()
                .filter(|&sq| ranks_advanced(variant, color, sq) >= 2)
                .collect()
        });
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
        let square_table = PieceSquareTable::new(kinds, |color, kind, sq| {
            let piece: &PieceTerms = &pieces[color.index() * kinds + kind as usize];
            let terms = piece.squares[sq.index()];
            let sign = if color == Color::Sente { 1 } else { -1 };
            let mut material = [0; 2];
            material[color.index()] = piece.value;
            [
                sign * (piece.value + terms.placement + terms.promotion),
                material[0],
                material[1],
            ]
        });
        let ranging_kinds = (0..kinds)
            .filter(|&kind| !pieces[kind].slides.is_empty())
            .fold(0u64, |mask, kind| mask | 1 << kind);
        let start = Position::startpos(variant);
        let mut ev = Evaluator {
            variant,
            weights: params.weights,
            values: params.values.clone(),
            pieces,
            developed_squares,
            near1,
            near2,
            start_material: 1,
            square_table,
            ranging_kinds,
            mopup: params::for_variant(variant).mopup,
        };
        let [_, sente_material, gote_material] = ev.square_table.sums(&start);
        ev.start_material = (sente_material + gote_material).max(1);
        ev
    }

    /// The value of `kind` in centipawns (used by move ordering and SEE).
    #[inline]
    pub fn value(&self, kind: Kind) -> i32 {
        self.values[kind as usize]
    }

    /// The table of material, placement and promotion that a searching position keeps
    /// summed (see [`Position::track_square_sums`]).
    pub fn square_table(&self) -> &PieceSquareTable {
        &self.square_table
    }

    /// The evaluation from the side to move's point of view.
    pub fn evaluate(&self, pos: &Position) -> Score {
        self.evaluate_with_mobility(pos, self.mobility(pos))
    }

    /// [`Evaluator::evaluate`] given the mobility of `pos` (kept by a search as it moves:
    /// `mobility.rs`), which is the same number without the walk over every ranging piece.
    pub fn evaluate_with_mobility(&self, pos: &Position, mobility: Mobility) -> Score {
        let [square_terms, sente_material, gote_material] = pos
            .square_sums(&self.square_table)
            .unwrap_or_else(|| self.square_table.sums(pos));
        let mut b = Breakdown::default();
        self.activity(pos, [sente_material, gote_material], mobility, &mut b);
        let total = square_terms + b.total();
        side_to_move_score(pos, total + self.quiet_damping(pos, total))
    }

    /// Every term of the evaluation, from sente's point of view.
    pub fn breakdown(&self, pos: &Position) -> Breakdown {
        let kinds = self.variant.kind_count();
        let mut b = Breakdown::default();
        let mut material = [0; 2];
        for color in Color::ALL {
            let sign = if color == Color::Sente { 1 } else { -1 };
            let pieces = &self.pieces[color.index() * kinds..][..kinds];
            for sq in pos.occupied(color) {
                let piece = &pieces[pos.piece_on(sq).kind() as usize];
                let terms = piece.squares[sq.index()];
                b.material += sign * piece.value;
                b.placement += sign * terms.placement;
                b.promotion += sign * terms.promotion;
                material[color.index()] += piece.value;
            }
        }
        self.activity(pos, material, self.mobility(pos), &mut b);
        b.quiet_damping = self.quiet_damping(pos, b.total());
        b
    }

    /// The terms beyond each piece's own square (mobility, royal and lion safety,
    /// development, tempo, mop-up) into `b`, given each side's material and mobility
    /// (sente, gote).
    fn activity(&self, pos: &Position, material: [i32; 2], mobility: Mobility, b: &mut Breakdown) {
        let total_material = material[0] + material[1];
        let p = &self.weights;
        let kinds = self.variant.kind_count();
        // Gathering the ranging pieces by kind costs an operation a kind (chu has some
        // thirty): only when development counts.
        let ranging = if p.development != 0 {
            pos.pieces_of_kinds(self.ranging_kinds)
        } else {
            Bitboard::EMPTY
        };
        let lions = pos.pieces_of_kinds(self.variant.lion_mask);
        for color in Color::ALL {
            let sign = if color == Color::Sente { 1 } else { -1 };
            let them = color.flip();
            let ours = pos.occupied(color);
            let pieces = &self.pieces[color.index() * kinds..][..kinds];
            let mobility_eighths = mobility[color.index()];
            let developed = (ranging & ours & self.developed_squares[color.index()]).count() as i32;
            let mut lion = 0;
            if p.lion_hunted_pct > 0 {
                for sq in lions & ours {
                    if pos.is_attacked(sq, them) {
                        let value = pieces[pos.piece_on(sq).kind() as usize].value;
                        lion -= value * p.lion_hunted_pct / 100;
                    }
                }
            }
            if p.lion_prey_pct > 0 {
                let prey = ours & !pos.royals(color);
                lion -= self.lion_prey(pos, lions & pos.occupied(them), prey, pieces)
                    * p.lion_prey_pct
                    / 100;
            }
            // Own pieces next to our royals guard them; our pieces within two steps of an
            // enemy royal press on it (a penalty for them, so a bonus for us).
            let mut safety = 0;
            for r in pos.royals(color) {
                safety += p.royal_guard * (self.near1[r.index()] & ours).count() as i32;
            }
            for r in pos.royals(them) {
                safety += p.royal_attacker * (self.near2[r.index()] & ours).count() as i32;
                if p.royal_zone_attack != 0 {
                    let attacked = self.attacked_next_to(pos, r, color);
                    safety += p.royal_zone_attack * attacked * attacked / 4;
                }
            }
            b.mobility += sign * mobility_eighths * p.mobility_eighths / 8;
            b.royal_safety += sign * safety;
            b.lion_safety += sign * lion;
            // Development counts while much material is on the board.
            b.development +=
                sign * developed * p.development * total_material / self.start_material;
        }
        b.tempo = if pos.side_to_move() == Color::Sente {
            p.tempo
        } else {
            -p.tempo
        };
        b.mopup = self.mopup(pos, material[0] - material[1]);
        b.trade_down = self.trade_down(material);
    }

    /// How many of the squares next to `royal` pieces of `by` attack
    /// (`Weights::royal_zone_attack`).
    fn attacked_next_to(&self, pos: &Position, royal: Square, by: Color) -> i32 {
        self.near1[royal.index()]
            .iter()
            .filter(|&sq| pos.is_attacked(sq, by))
            .count() as i32
    }

    /// The value of the dearest of `prey` (pieces of one side, whose kinds' terms are
    /// `pieces`; the caller leaves the royals out) that stands next to one of
    /// `enemy_lions`: what an igui could take next (`Weights::lion_prey_pct`).
    fn lion_prey(
        &self,
        pos: &Position,
        enemy_lions: Bitboard,
        prey: Bitboard,
        pieces: &[PieceTerms],
    ) -> i32 {
        let mut dearest = 0;
        for lion in enemy_lions {
            for sq in self.near1[lion.index()] & prey {
                dearest = dearest.max(pieces[pos.piece_on(sq).kind() as usize].value);
            }
        }
        dearest
    }

    /// The trade-down term (sente's view), given each side's material (sente, gote): the
    /// lead times `MopUp::trade_pct` percent times the share of the start's material gone.
    fn trade_down(&self, material: [i32; 2]) -> i32 {
        let pct = self.mopup.trade_pct;
        if pct == 0 {
            return 0;
        }
        let lead = (material[0] - material[1]) as i64;
        let gone = (self.start_material - material[0] - material[1]).max(0) as i64;
        (lead * pct as i64 * gone / (100 * self.start_material as i64)) as i32
    }

    /// The quiet-damping term (sente's view), given the sum of the other terms: that sum
    /// times `MopUp::quiet_damping_pct` percent times the share of the move limit the
    /// plies without a capture or a promotion have reached, taken away.
    fn quiet_damping(&self, pos: &Position, total: i32) -> i32 {
        let pct = self.mopup.quiet_damping_pct;
        let limit = self.variant.spec.rules.move_limit_plies;
        if pct == 0 || limit == 0 {
            return 0;
        }
        let quiet = pos.quiet_plies().min(limit) as i64;
        -(total as i64 * pct as i64 * quiet / (100 * limit as i64)) as i32
    }

    /// The mop-up term (sente's view), given the material balance (sente minus gote). A
    /// side this far ahead wins by taking the last royal or, sooner, the last pieces (bare
    /// king); without a pull towards them a won game can wander until the move limit (the
    /// strength issue saw such draws against HaChu and in self-play).
    fn mopup(&self, pos: &Position, material: i32) -> i32 {
        let m = self.mopup;
        if material.abs() < m.lead {
            return 0;
        }
        let strong = if material > 0 {
            Color::Sente
        } else {
            Color::Gote
        };
        let weak = strong.flip();
        if (pos.occupied(weak) & !pos.royals(weak)).count() > m.max_defenders {
            return 0;
        }
        let v = self.variant;
        // Every weak piece is a target: the royals to take, the others to take for the
        // bare-king rule (a lion first, the dearest and the most dangerous).
        let targets = pos.occupied(weak);
        let (files, ranks) = (v.spec.files, v.spec.ranks);
        let far = files.max(ranks) as i32;
        let mut bonus = 0;
        // The strong royals too: in a bare-king ending they may be the only attackers.
        for sq in pos.occupied(strong) {
            let nearest = targets.iter().map(|t| t.distance(sq) as i32).min();
            bonus += m.closeness * (far - nearest.unwrap_or(far));
        }
        let centre_distance = (files.min(ranks) as i32 - 1) / 2;
        for royal in pos.royals(weak) {
            bonus += m.edge * (centre_distance - royal.edge_distance(files, ranks) as i32);
        }
        if strong == Color::Sente {
            bonus
        } else {
            -bonus
        }
    }
}

/// A total from sente's point of view as the evaluation of the side to move (bounded, so
/// that no evaluation reaches the mate scores).
fn side_to_move_score(pos: &Position, total: i32) -> Score {
    let score = if pos.side_to_move() == Color::Sente {
        total
    } else {
        -total
    };
    score.clamp(-20_000, 20_000)
}

/// How many ranks a `color` piece on `sq` has advanced from its own back rank.
fn ranks_advanced(variant: &Variant, color: Color, sq: Square) -> i32 {
    (if color == Color::Sente {
        variant.spec.ranks - 1 - sq.y()
    } else {
        sq.y()
    }) as i32
}

/// Each piece's terms (sente's kinds, then gote's): its value, its slides, and on every
/// square its placement (advance and centre) and the promotion it is near (all of the
/// weighted gain inside the zone, half of it a rank before; the gain by `promotion_values`).
fn piece_terms(
    variant: &'static Variant,
    params: &Resolved,
    promotion_values: &[i32],
) -> Vec<PieceTerms> {
    let values = &params.values;
    let kinds = variant.kind_count();
    let gain = |k: usize, p: Kind| (promotion_values[p as usize] - promotion_values[k]).max(0);
    let promotion_gain: Vec<i32> = (0..kinds)
        .map(|k| variant.promotion[k].map_or(0, |p| gain(k, p)))
        .collect();
    let (files, ranks) = (variant.spec.files, variant.spec.ranks);
    let depth = variant.spec.zone_depth as i32;
    Color::ALL
        .iter()
        .flat_map(|&color| (0..kinds).map(move |kind| (color, kind)))
        .map(|(color, kind)| {
            let mut terms = [SquareTerms::default(); 256];
            for sq in variant.tables.on_board {
                let advanced = ranks_advanced(variant, color, sq);
                let gain = promotion_gain[kind];
                let pct = params.weights.promotion_potential_pct;
                terms[sq.index()] = SquareTerms {
                    placement: params.advance[kind] * advanced
                        + params.centre[kind] * sq.edge_distance(files, ranks) as i32,
                    promotion: if gain == 0 {
                        0
                    } else if variant.zone(color).contains(sq) {
                        gain * pct / 100
                    } else if advanced == ranks as i32 - depth - 1 {
                        gain * pct / 200
                    } else {
                        0
                    },
                };
            }
            PieceTerms {
                value: values[kind],
                slides: &variant.tables.piece(kind as Kind, color).slides,
                squares: terms,
            }
        })
        .collect()
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

    /// The sums a moving position keeps must equal the sums from scratch, and the fast
    /// evaluation the total of the breakdown, through random games (captures, lion double
    /// moves, igui and promotions come up often), there and back again.
    #[test]
    fn the_kept_square_sums_give_the_breakdown_total() {
        use crate::core::rng::Rng;
        let mut checked = 0;
        for variant in Variant::all() {
            let ev = Evaluator::for_variant(variant);
            let mut rng = Rng::new(5);
            for _game in 0..6 {
                let mut pos = Position::startpos(variant);
                pos.track_square_sums(ev.square_table());
                let mut played = 0;
                for _ply in 0..300 {
                    pos.debug_validate();
                    let from_scratch = side_to_move_score(&pos, ev.breakdown(&pos).total());
                    assert!(pos.square_sums(ev.square_table()).is_some());
                    assert_eq!(ev.evaluate(&pos), from_scratch, "{}", pos.to_sfen());
                    checked += 1;
                    match pos.random_move(&mut rng) {
                        Some(mv) if pos.board_outcome().is_none() => pos.make_move(mv),
                        _ => break,
                    }
                    played += 1;
                }
                for _ in 0..played {
                    pos.unmake_move();
                    pos.debug_validate();
                }
                assert_eq!(
                    pos.square_sums(ev.square_table()),
                    Some(ev.square_table().sums(&Position::startpos(variant)))
                );
            }
        }
        assert!(checked > 1000, "{checked}");
    }

    #[test]
    fn mopup_draws_the_strong_side_to_the_enemy_lion_and_the_king_to_the_edge() {
        let ev = Evaluator::for_variant(Variant::chu());
        let mopup = |sfen: &str| {
            ev.breakdown(&Position::from_sfen(Variant::chu(), sfen).unwrap())
                .mopup
        };
        // King, lion, dragon, rook and horse against king and lion: the dragon near the
        // enemy lion is worth more than the dragon far away; the enemy king in the corner
        // more than in the centre.
        let near = mopup("12/6k5/7n4/7D4/12/12/12/12/5N6/12/12/RH4K5 b - 1");
        let far = mopup("12/6k5/7n4/12/12/12/12/12/5N6/12/D11/RH4K5 b - 1");
        assert!(near > far && far > 0, "{near} {far}");
        let cornered = mopup("k11/12/7n4/12/12/12/12/12/5N6/12/D11/RH4K5 b - 1");
        assert!(cornered > far, "{cornered} {far}");
        // Gote far ahead: the same, from sente's side (negative).
        assert!(mopup("rh4k5/12/12/12/12/5n6/12/5d6/12/7N4/6K5/12 b - 1") < 0);
        // An even game, and a large lead with many defenders left: none.
        assert_eq!(mopup(Variant::chu().spec.start_sfen), 0);
        let without_lion =
            Variant::chu()
                .spec
                .start_sfen
                .replacen("mvrhdqndhrvm", "mvrhdq1dhrvm", 1);
        assert_eq!(mopup(&without_lion), 0);
    }

    #[test]
    fn another_mopup_lead_acts_from_that_lead_and_is_built_once() {
        let sho = Variant::sho();
        let ev = Evaluator::for_variant(sho);
        // King and crown prince against a lone king: a win (mate or stalemate) with a lead
        // of 500, below sho's own threshold.
        let pos = Position::from_sfen(sho, "9/9/2K6/9/9/9/+e8/1k7/9 b - 1").unwrap();
        assert_eq!(ev.breakdown(&pos).mopup, 0);
        let lead = |mopup_lead| EvalOptions {
            mopup_lead,
            ..EvalOptions::default()
        };
        let from_450 = ev.with_options(lead(450));
        assert!(
            from_450.breakdown(&pos).mopup < 0,
            "gote is the strong side"
        );
        assert!(std::ptr::eq(from_450, ev.with_options(lead(450))));
        assert!(std::ptr::eq(ev, ev.with_options(lead(0))));
        let trading = EvalOptions {
            trade_down_pct: 30,
            ..lead(450)
        };
        assert!(!std::ptr::eq(from_450, ev.with_options(trading)));
        // Only the mop-up differs.
        let start = Position::startpos(sho);
        assert_eq!(from_450.evaluate(&start), ev.evaluate(&start));
    }

    #[test]
    fn a_lions_prey_is_the_dearest_neighbour_but_a_royal() {
        let chu = Variant::chu();
        let ev = Evaluator::for_variant(chu);
        let preying = ev.with_options(EvalOptions {
            lion_prey_pct: 50,
            ..EvalOptions::default()
        });
        let lion_safety = |ev: &Evaluator, sfen: &str| {
            ev.breakdown(&Position::from_sfen(chu, sfen).unwrap())
                .lion_safety
        };
        // Gote's lion on 6f; next to it sente's king (7g), gold (6g) and dragon (5e); a
        // rook two squares away (6h) is no neighbour.
        let crowded = "11k/12/12/12/7D4/6n5/5KG5/6R5/12/12/12/12 b - 1";
        let dragon = ev.value(chu.kind_by_sfen("d").unwrap());
        assert!(dragon > ev.value(chu.kind_by_sfen("g").unwrap()));
        assert_eq!(
            lion_safety(preying, crowded) - lion_safety(ev, crowded),
            -dragon * 50 / 100
        );
        // The king alone next to the lion: no prey. Off in the built-in evaluator.
        let king_only = "11k/12/12/12/12/6n5/5K6/6R5/12/12/12/12 b - 1";
        assert_eq!(lion_safety(preying, king_only), lion_safety(ev, king_only));
        assert_eq!(ev.weights.lion_prey_pct, 0);
        // Colours mirror: gote's dragon next to sente's lion counts for sente.
        let mirrored = "12/12/12/12/5r6/5gk5/5N6/4d7/12/12/12/K11 w - 1";
        assert_eq!(
            lion_safety(preying, mirrored) - lion_safety(ev, mirrored),
            dragon * 50 / 100
        );
    }

    #[test]
    fn the_attack_next_to_a_royal_grows_with_the_squares_attacked() {
        let chu = Variant::chu();
        let ev = Evaluator::for_variant(chu);
        assert_eq!(ev.weights.royal_zone_attack, 0);
        let pressing = ev.with_options(EvalOptions {
            royal_zone_attack: 20,
            ..EvalOptions::default()
        });
        // The squares next to `color`'s royal that the other side's pieces attack, from
        // each piece's own attacks (not the reverse test the evaluator uses).
        let attacked_next_to = |pos: &Position, color: Color| -> i32 {
            let royal = pos.royals(color).iter().next().unwrap();
            let mut attacked = Bitboard::EMPTY;
            for sq in pos.occupied(color.flip()) {
                attacked |= pos.attacks_from(sq);
            }
            (attacked & ev.near1[royal.index()]).count() as i32
        };
        let extra = |sfen: &str| {
            let pos = Position::from_sfen(chu, sfen).unwrap();
            let (s, g) = (
                attacked_next_to(&pos, Color::Gote),
                attacked_next_to(&pos, Color::Sente),
            );
            let gained = pressing.breakdown(&pos).royal_safety - ev.breakdown(&pos).royal_safety;
            (s, g, gained)
        };
        // Sente's rook (2c) and dragon (1e) bear on the three squares next to gote's king
        // in the corner; gote's lone gold bears on nothing near sente's king.
        let (s, g, gained) = extra("11k/12/10R1/12/11D/12/12/12/g11/12/12/6K5 b - 1");
        assert_eq!(s, 3);
        assert_eq!(g, 0);
        assert_eq!(gained, 20 * s * s / 4);
        // Colours mirrored: the same for gote.
        let (s2, g2, gained2) = extra("5k6/12/12/11G/12/12/12/d11/12/1r10/12/K11 w - 1");
        assert_eq!((s2, g2), (0, s));
        assert_eq!(gained2, -gained);
    }

    #[test]
    fn trading_down_adds_to_a_lead_as_material_goes() {
        let chu = Variant::chu();
        let ev = Evaluator::for_variant(chu);
        let trading = ev.with_options(EvalOptions {
            trade_down_pct: 50,
            ..EvalOptions::default()
        });
        let breakdown =
            |ev: &Evaluator, sfen: &str| ev.breakdown(&Position::from_sfen(chu, sfen).unwrap());
        // Off in the built-in evaluator, and nothing at the start (no material gone).
        let start = chu.spec.start_sfen;
        assert_eq!(breakdown(trading, start).trade_down, 0);
        // Sente a lion up in the start position; then a horse each gone as well.
        let lion_up = start.replacen("mvrhdqndhrvm", "mvrhdq1dhrvm", 1);
        let after_trade = lion_up
            .replacen("mvrhdq1dhrvm", "mvrhdq1d1rvm", 1)
            .replacen("MVRHDNQDHRVM", "MVRHDNQD1RVM", 1);
        assert_eq!(breakdown(ev, &after_trade).trade_down, 0);
        let (before, after) = (
            breakdown(trading, &lion_up),
            breakdown(trading, &after_trade),
        );
        assert!(
            before.trade_down > 0 && after.trade_down > before.trade_down,
            "{before:?} {after:?}"
        );
        // The same lead for gote: the same term, from sente's side.
        let gote_ahead = start.replacen("MVRHDNQDHRVM", "MVRHD1QDHRVM", 1);
        assert_eq!(
            breakdown(trading, &gote_ahead).trade_down,
            -before.trade_down
        );
        // Nearly all gone: a king and a lion against a king get nearly half the lion again.
        let lion_and_king = "k11/12/12/12/12/5N6/12/12/12/12/12/11K b - 1";
        let endgame = breakdown(trading, lion_and_king);
        let lion = ev.value(chu.kind_by_sfen("n").unwrap());
        let king = ev.value(chu.kind_by_sfen("k").unwrap());
        let start_material = ev.start_material as i64;
        let gone = start_material - (lion + 2 * king) as i64;
        let expected = lion as i64 * 50 * gone / (100 * start_material);
        assert_eq!(endgame.trade_down as i64, expected);
        assert!(endgame.total() > breakdown(ev, lion_and_king).total());
    }

    #[test]
    fn quiet_plies_take_the_evaluation_towards_a_draw() {
        let chu = Variant::chu();
        let ev = Evaluator::for_variant(chu);
        let damping = ev.with_options(EvalOptions {
            quiet_damping_pct: 50,
            ..EvalOptions::default()
        });
        // Sente a lion up; then eight king steps without a capture or a promotion.
        let mut pos =
            Position::from_sfen(chu, "k11/12/12/12/12/5N6/12/12/12/12/12/11K b - 1").unwrap();
        let fresh = damping.breakdown(&pos);
        assert_eq!(fresh.quiet_damping, 0);
        assert_eq!(fresh.total(), ev.breakdown(&pos).total());
        for step in ["1l1k", "12a12b", "1k1l", "12b12a"].iter().cycle().take(8) {
            let mv = pos.parse_usi_move(step).unwrap();
            pos.make_move(mv);
        }
        assert_eq!(pos.quiet_plies(), 8);
        let (plain, damped) = (ev.breakdown(&pos), damping.breakdown(&pos));
        assert_eq!(plain.quiet_damping, 0);
        // 50% at the limit of 200 plies, so 2% after 8 of them.
        assert_eq!(damped.quiet_damping, -(plain.total() * 2 / 100));
        assert!(damped.total() > 0 && damped.total() < plain.total());
        // The search's evaluation agrees with the breakdown's total.
        assert_eq!(damping.evaluate(&pos), damped.total());
    }

    #[test]
    fn a_variant_without_an_evaluation_on_trial_keeps_its_own_under_the_option() {
        // tests/it/variant_data.rs plays one that has one.
        let candidate = EvalOptions {
            candidate: true,
            ..EvalOptions::default()
        };
        for variant in [Variant::chu(), Variant::sho()] {
            assert!(variant.spec.eval_candidate.is_none(), "{}", variant.name());
            let pos = Position::from_sfen(variant, variant.spec.start_sfen).unwrap();
            let (own, asked) = (
                Evaluator::for_variant(variant),
                Evaluator::for_variant(variant).with_options(candidate),
            );
            assert_eq!(asked.evaluate(&pos), own.evaluate(&pos));
            assert_eq!(asked.values, own.values);
            assert_eq!(asked.mopup, own.mopup);
        }
    }

    #[test]
    fn promoted_twins_alike_values_a_promoted_gold_as_a_rook() {
        let chu = Variant::chu();
        let ev = Evaluator::for_variant(chu);
        let twins = |promoted_twins| {
            ev.with_options(EvalOptions {
                promoted_twins,
                ..EvalOptions::default()
            })
        };
        let (alike, fitted_gains) = (
            twins(PromotedTwins::Alike),
            twins(PromotedTwins::AlikeFittedGains),
        );
        // Sente's promoted gold against gote's rook, each on the other's square.
        let pos =
            Position::from_sfen(chu, "k11/12/12/12/5r6/12/12/6+G5/12/12/12/11K b - 1").unwrap();
        assert!(
            ev.breakdown(&pos).material < 0,
            "the fit: a rook is worth more"
        );
        assert_eq!(alike.breakdown(&pos).material, 0);
        assert_eq!(fitted_gains.breakdown(&pos).material, 0);
        assert!(std::ptr::eq(alike, twins(PromotedTwins::Alike)));
        // A gold in the promotion zone: the gain to a rook's value, or the fit's gain.
        let gold_in_zone = "k11/12/12/6G5/12/12/12/12/12/12/12/11K b - 1";
        let gold = Position::from_sfen(chu, gold_in_zone).unwrap();
        let promotion = |ev: &Evaluator| ev.breakdown(&gold).promotion;
        assert_eq!(promotion(fitted_gains), promotion(ev));
        assert!(promotion(alike) > promotion(ev), "{}", promotion(ev));
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
