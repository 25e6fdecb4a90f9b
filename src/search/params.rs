//! Every tunable constant of the search, in one place (the evaluation's weights live in
//! `eval/params.rs`; time management's in `time.rs`). Values are hand-set from the first
//! version unless their doc says otherwise: a change lands only after an SPRT against the
//! values before it passes.
//!
//! Four constants carry values from SPSA (`scripts/measure/spsa.py`), marked "SPSA" in their docs;
//! the runs and the SPRT that accepted them are logged in `docs/tuning.md`, not here, so
//! that this file says only what holds.
//!
//! A variant may give some of them values of its own (`search_values` in its spec, each
//! one kept after an SPRT in that variant): [`SearchParams::for_variant`] is what a search of that
//! variant starts from.
//!
//! They are one [`SearchParams`] value that travels with the search limits, so that a
//! tuner can change them without a rebuild: the engine accepts `setoption name
//! Tune_NAME value N` for every entry of [`SearchParams::TABLE`] (not listed in `usi`'s
//! options, to keep GUIs' option dialogs short), `shishi tune search-params` prints the
//! table, and `scripts/measure/spsa.py` tunes them by self-play.

use crate::variant::Variant;

/// Declares [`SearchParams`], its defaults and its table of names and ranges from one list.
macro_rules! search_params {
    ($( $(#[doc = $doc:expr])+ $field:ident: $ty:ty = $default:expr, $min:expr, $max:expr; )+) => {
        /// Every tunable constant of the search (integers: a fraction is kept in hundredths).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct SearchParams {
            $( $(#[doc = $doc])+ pub $field: $ty, )+
        }

        impl Default for SearchParams {
            fn default() -> SearchParams {
                SearchParams { $( $field: $default, )+ }
            }
        }

        impl SearchParams {
            /// `(name, default, min, max)` of every parameter.
            pub const TABLE: &'static [(&'static str, i64, i64, i64)] =
                &[ $( (stringify!($field), $default as i64, $min, $max), )+ ];

            /// Sets the parameter `name` to `value`; an error if there is no such
            /// parameter or the value is outside its range.
            pub fn set(&mut self, name: &str, value: i64) -> Result<(), ParamError> {
                let Some(&(name, _, min, max)) = Self::TABLE.iter().find(|e| e.0 == name) else {
                    return Err(ParamError::Unknown(name.to_string()));
                };
                if !(min..=max).contains(&value) {
                    return Err(ParamError::OutOfRange { name, value, min, max });
                }
                match name {
                    $( stringify!($field) => self.$field = value as $ty, )+
                    _ => unreachable!("the table lists every field"),
                }
                Ok(())
            }

            /// The value of the parameter `name` (`None`: no such parameter).
            pub fn get(&self, name: &str) -> Option<i64> {
                match name {
                    $( stringify!($field) => Some(self.$field as i64), )+
                    _ => None,
                }
            }
        }
    };
}

/// Why a search constant was not set.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParamError {
    /// No constant has this name.
    #[error("no search parameter {0}")]
    Unknown(String),
    /// The value is outside the constant's range.
    #[error("{name}: {value} is outside {min}..={max}")]
    OutOfRange {
        /// The constant.
        name: &'static str,
        /// The value refused.
        value: i64,
        /// Its smallest value.
        min: i64,
        /// Its largest value.
        max: i64,
    },
}

search_params! {
    /// Aspiration window around the last iteration's score (centipawns), from
    /// `aspiration_min_depth` on.
    aspiration_window: i32 = 30, 5, 200;
    /// Depth from which iterations start with an aspiration window.
    aspiration_min_depth: i32 = 4, 2, 10;
    /// A window wider than this becomes a full window.
    aspiration_max: i32 = 1000, 200, 5000;
    /// A mate score is taken as proven once the iteration depth exceeds its distance by
    /// this many plies; a search with limits then ends.
    proven_mate_margin: i32 = 2, 0, 8;
    /// Reverse futility: at most this depth.
    reverse_futility_depth: i32 = 6, 0, 12;
    /// Reverse futility margin per ply of depth (SPSA; hand-set 110).
    reverse_futility_margin: i32 = 137, 20, 400;
    /// Razoring: at most this depth (0: off), a non-PV node whose static evaluation plus
    /// `razor_base + razor_per_depth2 * depth²` is below beta returns its quiescence
    /// score when that stays below beta.
    razor_max_depth: i32 = 0, 0, 6;
    /// See `razor_max_depth`.
    razor_base: i32 = 250, 0, 2000;
    /// See `razor_max_depth`.
    razor_per_depth2: i32 = 150, 0, 1000;
    /// Null move: from this depth on.
    null_move_min_depth: i32 = 3, 1, 8;
    /// Null move reduction: this plus depth / `null_move_depth_divisor`.
    null_move_base_reduction: i32 = 3, 1, 6;
    /// See `null_move_base_reduction` (SPSA; hand-set 4).
    null_move_depth_divisor: i32 = 3, 2, 12;
    /// Null move: one ply more reduction per this much of the static evaluation above
    /// beta, at most three (0: none).
    null_move_eval_divisor: i32 = 0, 0, 1000;
    /// Late-move pruning: at most this depth, quiet moves after `base + factor * depth²`.
    lmp_max_depth: i32 = 3, 0, 8;
    /// See `lmp_max_depth` (SPSA; hand-set 4).
    lmp_base: i32 = 2, 1, 20;
    /// See `lmp_max_depth`.
    lmp_factor: i32 = 3, 1, 12;
    /// Late-move pruning when the static evaluation is not above its value two plies
    /// before ("not improving"): the move count after which quiet moves are skipped, in
    /// percent of the count when improving (100: the same).
    lmp_not_improving_pct: i32 = 100, 30, 100;
    /// Futility pruning: at most this depth (0: off), a quiet move is skipped when the
    /// static evaluation plus `futility_base + futility_per_depth * depth` is at most alpha.
    futility_max_depth: i32 = 0, 0, 12;
    /// See `futility_max_depth`.
    futility_base: i32 = 150, 0, 1000;
    /// See `futility_max_depth`.
    futility_per_depth: i32 = 120, 0, 1000;
    /// SEE pruning: at most this depth (0: off), a quiet move whose exchange loses more
    /// than `see_quiet_factor * depth²` and a capture whose exchange loses more than
    /// `see_capture_factor * depth` are skipped.
    see_prune_max_depth: i32 = 0, 0, 12;
    /// See `see_prune_max_depth`.
    see_quiet_factor: i32 = 30, 0, 500;
    /// See `see_prune_max_depth`.
    see_capture_factor: i32 = 150, 0, 1000;
    /// Check extension: a node whose side to move is in check (its only royal attacked)
    /// is searched this many plies deeper (0: none).
    check_extension: i32 = 0, 0, 1;
    /// Internal iterative reduction: from this depth on (0: never), a node without a hash
    /// move is searched one ply less deep (its move order is poor anyway).
    iir_min_depth: i32 = 0, 0, 12;
    /// Where the reduction is made: 0 before reverse futility and the null move (they see
    /// the reduced depth), 1 after them (only the move loop searches less deep).
    iir_after_pruning: i32 = 0, 0, 1;
    /// The reduction is made only once the search has finished this many iterations (0:
    /// from the first): a short search (a fast clock, 3 to 9 plies a move) keeps its move
    /// order whole, while a long one (analysis in the browser) saves its deep nodes.
    iir_from_iteration: i32 = 0, 0, 30;
    /// Threads spread over depths (1; 0: off). A helper does not start a depth that half
    /// of the other threads already search, or that one has finished; and each thread
    /// shows an iteration it finishes deeper than any shown before, so that the depth shown
    /// is the deepest any thread has finished. Off: each helper starts every other depth
    /// one ply ahead, the threads soon search the same depth, and only the main thread
    /// shows its iterations.
    smp_depth_skip: i32 = 0, 0, 1;
    /// Follow-up history (0: off): quiet moves are ordered by their history plus this
    /// percent of their history as the answer to a move to the square the opponent's last
    /// move went to (`history.rs`), and a cut-off teaches both.
    follow_up_history: i32 = 0, 0, 400;
    /// Late-move reductions: from this depth.
    lmr_min_depth: i32 = 3, 2, 6;
    /// Late-move reductions: after this many moves searched.
    lmr_min_moves: i32 = 3, 1, 10;
    /// Reduction `base + ln(depth) * ln(moves) / divisor`, base in hundredths.
    lmr_base_hundredths: i32 = 50, -100, 200;
    /// See `lmr_base_hundredths`; the divisor in hundredths.
    lmr_divisor_hundredths: i32 = 225, 100, 500;
    /// Once the search has finished `lmr_deep_from_iteration` iterations, this divisor in
    /// place of `lmr_divisor_hundredths` (0: never): a long search (analysis in the
    /// browser) then reduces late moves more and reaches depth sooner, while a short one (a
    /// fast clock, 3 to 9 plies a move) keeps the reductions it was tuned with.
    lmr_deep_divisor_hundredths: i32 = 0, 0, 500;
    /// See `lmr_deep_divisor_hundredths`.
    lmr_deep_from_iteration: i32 = 8, 0, 30;
    /// 1: late quiet moves at the root are reduced as at a PV node below it (and searched
    /// again at full depth when they beat alpha); 0: every root move is searched to the
    /// iteration's depth.
    lmr_root: i32 = 0, 0, 1;
    /// Late-move reductions: this many plies more when the position is not improving.
    lmr_not_improving: i32 = 0, 0, 3;
    /// Late-move reductions: one ply less per this much history of the move, one more per
    /// this much against it (0: history does not change the reduction).
    lmr_history_divisor: i32 = 0, 0, 20_000;
    /// History bonus of a quiet cut-off: `factor * depth²`, at most `history_bonus_max`.
    history_bonus_factor: i32 = 16, 1, 64;
    /// See `history_bonus_factor`.
    history_bonus_max: i32 = 2_000, 200, 8_000;
    /// How many plies of quiescence may answer threats to the royal with all moves.
    qs_check_plies: i32 = 2, 0, 6;
    /// From this quiescence ply on only recaptures (on the square of the last move) are
    /// searched: in a crowded chu position every piece has several even-or-better
    /// captures, and without this bound one `go depth 1` took millions of nodes.
    qs_recapture_only_plies: i32 = 4, 1, 10;
    /// Delta pruning: a capture whose material gain, plus this margin, leaves the standing
    /// evaluation below alpha is not searched (SPSA; hand-set 200).
    qs_delta_margin: i32 = 280, 0, 1000;
    /// 1: a capture left out by delta pruning still bounds what the node is worth (its
    /// standing evaluation plus the gain plus the margin, as Stockfish keeps it), so that a
    /// node that fails low returns no less than that. 0: it returns the best it searched,
    /// which after the pruning can be far below what the node is worth: a null-window
    /// search then fails high in the parent with a score above the parent's full window,
    /// and the re-search that would have shown the truth is skipped (`docs/tuning.md`,
    /// game 2 of the eighth-of-time match).
    qs_delta_bound: i32 = 0, 0, 1;
    /// 1: at a PV node below the root, a late move whose null-window search beat alpha is
    /// searched again with the full window even when it reached beta (as Stockfish does),
    /// so that a fail high that pruning made too high does not cut the PV node unchecked.
    /// 0: only a score inside the window is searched again.
    pv_research_at_beta: i32 = 0, 0, 1;
    /// Contempt: a draw (repetition, move limit, kings alone) is worth this share (percent)
    /// of the root's static evaluation against the side to move at the root, so a side that
    /// is ahead avoids draws, more so the further ahead, and a side behind welcomes them.
    contempt_pct: i32 = 10, 0, 50;
    /// See `contempt_pct`: the largest contempt, in centipawns.
    contempt_max: i32 = 150, 0, 1000;
    /// 1: a repetition met in the search in which one side checked (in chu: or attacked an
    /// enemy piece) with every move since the position's first occurrence is scored as
    /// lost for that side, as the game's fourfold repetition would be; 0: every
    /// repetition is a draw (the side behind may then chase a draw that loses).
    perpetual_loss: i32 = 0, 0, 1;
    /// Per mille of a timed move's planned time that the proof-number solver gets first, to
    /// prove a forced win (0: never). On at 100: it finds mates the search misses and did
    /// no harm in blitz (its SPRT is in `docs/tuning.md`).
    probe_mate_permille: i32 = 100, 0, 1000;
    /// The solver of `probe_mate_permille` tries only when the side to move leads by at
    /// least this much by static evaluation (forced wins come with a large lead; below it
    /// the time is the search's).
    probe_mate_min_lead: i32 = 1000, 0, 20000;
    /// With an increment and no moves-to-go from the GUI: the moves over which the main
    /// time is shared (without one it is 70, in `time.rs`: a flag fall loses). 70 kept a
    /// sho game at 10+0.1 near 4 s of its 10 s to the end while Fairy-Stockfish spent down
    /// to under 1 s; sho shares it over 30.
    increment_moves_to_go: i32 = SearchParams::DEFAULT_INCREMENT_MOVES_TO_GO as i32, 10, 120;
    /// Under sudden death (no increment, no byoyomi, no moves-to-go from the GUI): the
    /// moves over which the main time is shared. A flag fall loses, and chu games run to
    /// 200 moves a side and more, so each move takes this fraction of what is left (chu:
    /// 50, the least of a horizon by the game's length, `sudden_death_game_plies`).
    sudden_death_moves_to_go: i32 = 70, 10, 200;
    /// Under sudden death, 0: the horizon is `sudden_death_moves_to_go` at every move.
    /// Otherwise the plies a game is expected to last: the horizon is then the moves left
    /// to us until that ply, never fewer than `sudden_death_moves_to_go` (chu self-play
    /// games last a median of 365 plies, and from ply 300 on about 100 more), so that the
    /// opening takes a smaller share and the long ending a larger one. Chu: 365.
    sudden_death_game_plies: i32 = 0, 0, 2000;
    /// The move overhead is set aside for at most this many of the moves to come (the
    /// rest of the clock is shared out). At 200 it is set aside for every move of the
    /// horizon: under sudden death a 2.5 s clock then keeps 700 ms that it never spends
    /// while its moves shrink to a millisecond. Chu: 20.
    overhead_reserve_moves: i32 = 200, 0, 200;
    /// 1: after each iteration the soft limit of a clock search is scaled by how settled
    /// the best move is (`time::soft_scale`: how long it has stood, its share of the
    /// nodes, a falling score); 0: the soft limit is fixed.
    time_adjust: i32 = 0, 0, 1;
    /// For tuning the evaluation from the engine: when not 0, the material lead from which
    /// the mop-up terms act, in place of the variant's own (`MopUp::lead` in
    /// `eval/params.rs`); 0 keeps the variant's.
    mopup_lead: i32 = 0, 0, 5000;
    /// When not 0, the trade-down share in place of the variant's (`MopUp::trade_pct` in
    /// `eval/params.rs`: percent of a material lead added once all material is gone, in
    /// proportion to the share gone); 0 keeps the variant's (none in chu and sho).
    trade_down_pct: i32 = 0, 0, 200;
    /// When not 0, the quiet-damping share in place of the variant's
    /// (`MopUp::quiet_damping_pct` in `eval/params.rs`: percent of the evaluation gone once
    /// the plies without a capture or a promotion reach the move limit, in proportion to
    /// them); 0 keeps the variant's (none in chu and sho). At 50: -16.9 +/- 36.4 Elo over
    /// 309 games at 2+0.02, and no fewer 200-ply draws (`docs/tuning.md`): off.
    quiet_damping_pct: i32 = 0, 0, 100;
    /// When not 0, the lion-prey share in place of the variant's (`Weights::lion_prey_pct`
    /// in `eval/params.rs`: percent of the value of the dearest piece next to an enemy
    /// lion lost, as an igui could take it whatever guards it); 0 keeps the variant's (none
    /// in chu and sho). Lost games against HaChu saw its lion eat a piece or two a move
    /// in Shishi's camp while the search, a few plies deep, played on elsewhere.
    lion_prey_pct: i32 = 0, 0, 100;
    /// When not 0, the weight of the attack on the squares next to an enemy royal in
    /// place of the variant's (`Weights::royal_zone_attack` in `eval/params.rs`: with `n`
    /// of them attacked, `weight * n * n / 4`); 0 keeps the variant's (none in chu and
    /// sho). The Fischer quarter's losses to HaChu were sealed by mates the search found
    /// only 7 to 9 plies before the end.
    royal_zone_attack: i32 = 0, 0, 200;
    /// 1: each promoted kind that moves as an unpromoted kind is valued and placed as that
    /// kind (`Resolved::with_promoted_twins_alike` in `eval/params.rs`: chu's first fit valued
    /// the promoted gold, a rook, at 422 and the rook at 910); 2: the same, but the
    /// promotion potential keeps the fit's gains (`eval::PromotedTwins`); 0: the fitted
    /// values. Both lost in chu self-play at 2+0.02 (1: -50 +/- 51 Elo over 175 games; 2:
    /// -90 +/- 65 over 111; `docs/tuning.md`): off.
    promoted_twins_alike: i32 = 0, 0, 2;
    /// 1: the variant's evaluation on trial (`VariantSpec::eval_candidate`; none at present:
    /// chu's second Texel fit was tried so before it became chu's `EVAL`) in place of its
    /// own, for an SPRT from one binary; 0: its own.
    eval_candidate: i32 = 0, 0, 1;
}

impl SearchParams {
    /// The default of `increment_moves_to_go`.
    pub const DEFAULT_INCREMENT_MOVES_TO_GO: u64 = 70;

    /// The values a search of `variant` starts from: the defaults, with the variant's own
    /// values (`VariantSpec::search_values`) over them.
    pub fn for_variant(variant: &Variant) -> SearchParams {
        let mut params = SearchParams::default();
        for &(name, value) in variant.spec.search_values {
            params
                .set(name, value)
                .expect("a test checks every variant's values");
        }
        params
    }
}

/// Values given by name (the `Tune_NAME` options), which stand over whatever a variant's
/// search starts from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GivenParams {
    values: SearchParams,
    /// Bit `i`: entry `i` of [`SearchParams::TABLE`] was given.
    given: u64,
}

impl GivenParams {
    /// Gives `name` the value `value` (checked as [`SearchParams::set`] checks it).
    pub fn set(&mut self, name: &str, value: i64) -> Result<(), ParamError> {
        self.values.set(name, value)?;
        let index = SearchParams::TABLE
            .iter()
            .position(|e| e.0 == name)
            .expect("set found it");
        self.given |= 1 << index;
        Ok(())
    }

    /// `base` with the given values over it.
    pub fn over(&self, mut base: SearchParams) -> SearchParams {
        for (index, &(name, ..)) in SearchParams::TABLE.iter().enumerate() {
            if self.given & (1 << index) != 0 {
                let value = self.values.get(name).expect("a name of the table");
                base.set(name, value).expect("checked when given");
            }
        }
        base
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_value_names_a_parameter_within_its_range() {
        for variant in Variant::all() {
            let params = SearchParams::for_variant(variant);
            for &(name, value) in variant.spec.search_values {
                assert_eq!(params.get(name), Some(value), "{name}");
            }
        }
        // Chu's own values are its sudden-death clock only.
        let mut chu = SearchParams::for_variant(Variant::chu());
        for name in [
            "overhead_reserve_moves",
            "sudden_death_game_plies",
            "sudden_death_moves_to_go",
        ] {
            let default = SearchParams::default().get(name).unwrap();
            chu.set(name, default).unwrap();
        }
        assert_eq!(chu, SearchParams::default());
    }

    #[test]
    fn given_values_stand_over_a_variants_own() {
        assert!(
            SearchParams::TABLE.len() <= 64,
            "GivenParams keeps one bit each"
        );
        let mut given = GivenParams::default();
        let base = SearchParams {
            lmp_base: 7,
            ..SearchParams::default()
        };
        assert_eq!(given.over(base), base);
        given.set("increment_moves_to_go", 25).unwrap();
        assert!(given.set("increment_moves_to_go", 1).is_err());
        let params = given.over(base);
        assert_eq!((params.increment_moves_to_go, params.lmp_base), (25, 7));
    }

    #[test]
    fn parameters_are_set_by_name_within_their_range() {
        let mut p = SearchParams::default();
        assert_eq!(p.reverse_futility_margin, 137);
        p.set("reverse_futility_margin", 150).unwrap();
        assert_eq!(p.reverse_futility_margin, 150);
        assert!(p.set("reverse_futility_margin", 10_000).is_err());
        assert!(p.set("no_such_thing", 1).is_err());
        assert_eq!(p.reverse_futility_margin, 150);
        for &(name, default, min, max) in SearchParams::TABLE {
            assert!(min <= default && default <= max, "{name}");
            let mut q = SearchParams::default();
            q.set(name, default).unwrap();
            assert_eq!(q, SearchParams::default(), "{name}");
        }
    }
}
