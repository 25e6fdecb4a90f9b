//! The shape of a variant's evaluation parameters: values and placement per kind, the
//! weights that are not per kind, the mop-up terms. Each variant's numbers are its data
//! (`chu::EVAL`, `sho::EVAL`, hung off its spec as `VariantSpec::eval`); `eval` reads them
//! and `shishi tune fit` prints new ones in this shape.
//!
//! Piece values started from HaChu's published tables (H.G. Muller; chu: pawn 40, lion
//! 1000; sho: pawn 80), rescaled so that a pawn is 100 centipawns; a promoted piece was
//! valued as the piece it moves like. Keys are SFEN letters, so the tables read as the
//! variant data.

/// The evaluation parameters of one variant.
#[derive(Debug)]
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
    /// Trading down: the share (percent) of any material lead added to it once all the
    /// start's material is gone, in proportion to the share gone (at half gone, half of
    /// it), so that the side ahead gains by even trades and the side behind by avoiding
    /// them. It acts at every lead, unlike the terms above: fewer defenders bring the bare
    /// king nearer and leave the side behind fewer threats. 0: none.
    pub trade_pct: i32,
    /// Making progress: the share (percent) of the whole evaluation taken away once the
    /// plies without a capture or a promotion reach the variant's move limit (a draw),
    /// in proportion to those plies (at half the limit, half of it). A side ahead then
    /// gains by a capture or a promotion, which starts the count again, instead of
    /// shuffling into the draw it cannot see. 0: none (and none without a move limit).
    pub quiet_damping_pct: i32,
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
    /// Share (percent) of the value of the dearest piece next to an enemy lion lost: the
    /// lion takes a neighbour without moving (igui) or two in one turn, and no guard of
    /// theirs can answer an igui. Royals are left out (a royal next to a lion is the
    /// search's to see).
    pub lion_prey_pct: i32,
    /// Pressure on an enemy royal: with `n` of the squares next to it attacked by our
    /// pieces, `royal_zone_attack * n * n / 4` (the danger grows with the attack's
    /// concentration: one attacked square is a nuisance, five are a mating net). 0: none.
    /// A search of a few plies sees a mate only when it is close; this tells it earlier
    /// that the royal's surroundings are falling to the enemy.
    pub royal_zone_attack: i32,
    /// Opening development: per ranging piece moved off its two back ranks while much
    /// material is on the board.
    pub development: i32,
}

impl Weights {
    /// The names of the weights, in the order of [`Weights::to_vec`].
    pub const NAMES: [&'static str; 9] = [
        "tempo",
        "mobility_eighths",
        "promotion_potential_pct",
        "royal_attacker",
        "royal_guard",
        "lion_hunted_pct",
        "lion_prey_pct",
        "royal_zone_attack",
        "development",
    ];

    /// The weights in the order of [`Weights::NAMES`].
    pub fn to_vec(self) -> Vec<i32> {
        vec![
            self.tempo,
            self.mobility_eighths,
            self.promotion_potential_pct,
            self.royal_attacker,
            self.royal_guard,
            self.lion_hunted_pct,
            self.lion_prey_pct,
            self.royal_zone_attack,
            self.development,
        ]
    }

    /// The weights from numbers in the order of [`Weights::NAMES`].
    pub fn from_slice(v: &[i32]) -> Weights {
        Weights {
            tempo: v[0],
            mobility_eighths: v[1],
            promotion_potential_pct: v[2],
            royal_attacker: v[3],
            royal_guard: v[4],
            lion_hunted_pct: v[5],
            lion_prey_pct: v[6],
            royal_zone_attack: v[7],
            development: v[8],
        }
    }
}
