//! Game variants as data: board size, zone, piece kinds with their movement, SFEN letters,
//! start position and rule flags. Everything above this layer reads a [`Variant`]; nothing
//! asks "is this chu?".
//!
//! A [`VariantSpec`] is the hand-written description (`chu.rs`, `sho.rs`); [`Variant`] is the
//! spec compiled once into lookup tables (`tables.rs`) and kept for the life of the program.

pub mod chu;
pub mod eval_values;
pub mod movement;
pub mod sho;
pub mod tables;

use crate::core::{Bitboard, Color, Square};
use movement::Movement;
use std::sync::OnceLock;
pub use tables::Tables;

/// Most kinds any variant may have (kind indices fit 6 bits; dai shogi needs about 60).
pub const MAX_KINDS: usize = 64;

/// A piece kind's index into its variant's kind table.
pub type Kind = u8;

/// One piece kind as written in a variant's data file.
#[derive(Clone, Copy, Debug)]
pub struct KindSpec {
    /// English name, for messages.
    pub name: &'static str,
    /// SFEN letters for gote (lowercase), with `+` for promoted kinds: `"n"`, `"+o"`.
    pub sfen: &'static str,
    /// SFEN of the kind it promotes to, if any.
    pub promotes_to: Option<&'static str>,
    /// How it moves.
    pub movement: Movement,
    /// A royal: losing the last one loses the game (king, crown prince).
    pub royal: bool,
    /// A lion for the lion-trading rules (lion, promoted kirin; not falcon or eagle).
    pub lion: bool,
    /// Pawn-like: does not count against a bare king, and is not a capture that licenses
    /// taking a protected lion (pawn, go-between).
    pub weak: bool,
    /// Promotion is forced on the last this-many ranks (sho's pawn, lance, knight).
    pub forced_promotion_ranks: u8,
    /// The name in a KIF move (`獅子` in chu, as lishogi writes it; `歩` in sho).
    pub kif_name: &'static str,
    /// The name in a KIF board diagram, after `v` for gote (`獅`; `成角` where the one
    /// kanji would be another kind's, as lishogi writes chu diagrams).
    pub kif_board_name: &'static str,
}

impl KindSpec {
    /// A promoted kind (its SFEN letters begin with `+`).
    pub fn is_promoted(&self) -> bool {
        self.sfen.starts_with('+')
    }

    /// The kind's one-kanji name, as one-kanji piece sets draw it: its board-diagram name
    /// without the `成` that a diagram puts before a promoted kind whose kanji another kind
    /// has (`成馬` -> `馬`: a set draws promoted kinds in red, which tells them apart).
    pub fn one_kanji(&self) -> &'static str {
        self.kif_board_name
            .strip_prefix('成')
            .unwrap_or(self.kif_board_name)
    }

    /// A kind with no special flags (the variant files set `royal`, `lion`, `weak` and forced
    /// promotion with struct update syntax).
    pub const fn new(
        name: &'static str,
        sfen: &'static str,
        promotes_to: Option<&'static str>,
        movement: Movement,
    ) -> KindSpec {
        KindSpec {
            name,
            sfen,
            promotes_to,
            movement,
            royal: false,
            lion: false,
            weak: false,
            forced_promotion_ranks: 0,
            kif_name: "？",
            kif_board_name: "？",
        }
    }

    /// Whether a piece of this kind plays exactly as one of `other`: the same moves, the
    /// same promotion (or none) and the same rule flags. Such kinds differ only by how a
    /// piece came to be (sho's gold and the four pieces that promote to a gold's moves).
    pub fn plays_as(&self, other: &KindSpec) -> bool {
        self.movement == other.movement
            && self.promotes_to == other.promotes_to
            && (self.royal, self.lion, self.weak) == (other.royal, other.lion, other.weak)
            && self.forced_promotion_ranks == other.forced_promotion_ranks
    }

    /// The kind with its KIF names: in moves, and in board diagrams.
    pub const fn kanji(self, kif_name: &'static str, kif_board_name: &'static str) -> KindSpec {
        KindSpec {
            kif_name,
            kif_board_name,
            ..self
        }
    }
}

/// How a variant's KIF writes a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KifStyle {
    /// lishogi's chu: Arabic file and kanji rank, two-kanji names, the origin as `（←7八）`,
    /// a lion's double move on two lines.
    Chu,
    /// Standard shogi's: full-width file, short names, the origin as `(77)`.
    Shogi,
}

/// When a move may promote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PromotionRule {
    /// Chu: entering the zone, or capturing on a move that starts or ends in it.
    EnterOrCaptureInZone,
    /// Shogi: any move that starts or ends in the zone.
    StartOrEndInZone,
}

/// How the bare-king rule differs between variants. The rule itself is one (a lone royal
/// against a royal and at least one more counted piece loses; checked for both sides after
/// every move; the bare royal survives while it may take one of exactly two counted
/// pieces); which pieces count comes from the kinds' `weak` flag, and whether that capture
/// must be legal from `lone_royal_check`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BareKingRule {
    /// A bare royal that attacks an enemy royal is not bare yet (chu, as lishogi's server
    /// judges it; sho's reconstructed rules have no such exception).
    pub attacking_a_royal_saves: bool,
}

/// Who loses a fourfold repetition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PerpetualRule {
    /// The side that checked or attacked an enemy piece with every move of the cycle.
    CheckOrAttack,
    /// The side that checked with every move of the cycle.
    Check,
}

/// Rule flags that differ between variants.
#[derive(Clone, Copy, Debug)]
pub struct RuleSet {
    /// When a piece may promote.
    pub promotion: PromotionRule,
    /// A side with exactly one royal may not leave it attacked (sho); otherwise pseudo-legal.
    pub lone_royal_check: bool,
    /// The bare-king rule.
    pub bare_king: BareKingRule,
    /// The repetition rule.
    pub perpetual: PerpetualRule,
    /// Plies without capture or promotion that end the game in a draw (0: none).
    pub move_limit_plies: u32,
    /// The SFEN's third field carries the lion counter-strike square.
    pub counter_strike: bool,
    /// Perft counts no children below a finished game (lishogi's convention for chu);
    /// otherwise it counts every legal move (Fairy-Stockfish's, for sho).
    pub perft_stops_at_game_end: bool,
}

/// The hand-written description of a variant.
#[derive(Clone, Copy, Debug)]
pub struct VariantSpec {
    /// Name as USI's `USI_Variant` spells it.
    pub name: &'static str,
    /// Other names the variant is known by (`chu`), taken wherever a name is (any case).
    pub aliases: &'static [&'static str],
    /// Board width.
    pub files: usize,
    /// Board height.
    pub ranks: usize,
    /// Depth of the promotion zone in ranks.
    pub zone_depth: usize,
    /// Piece kinds, index = [`Kind`].
    pub kinds: &'static [KindSpec],
    /// Start position SFEN.
    pub start_sfen: &'static str,
    /// Rule flags.
    pub rules: RuleSet,
    /// How XBoard knows the variant.
    pub xboard: XboardSpec,
    /// How its KIF writes moves.
    pub kif: KifStyle,
    /// The evaluation's numbers it plays with (its `EVAL`).
    pub eval: &'static eval_values::EvalParams,
    /// An evaluation on trial (a new fit), played in place of `eval` only when the search
    /// option `eval_candidate` asks for it, so that its SPRT runs from one binary; `None`
    /// when there is none.
    pub eval_candidate: Option<&'static eval_values::EvalParams>,
    /// Search constants of its own, by their names in `search::params` (each kept after an
    /// SPRT in this variant; a test checks every name and range); the others keep their
    /// defaults.
    pub search_values: &'static [(&'static str, i64)],
}

/// A variant under XBoard/WinBoard (CECP).
#[derive(Clone, Copy, Debug)]
pub struct XboardSpec {
    /// The names `variant` may use; the first is announced in `feature variants`.
    pub names: &'static [&'static str],
    /// A `setup` line the engine sends after `variant`, when XBoard's own variant of that
    /// name is not this one (sho is played under XBoard's `shogi`, with HaChu's line).
    pub setup: Option<&'static str>,
}

/// Variants are one of each: two are the same when their names are.
impl PartialEq for Variant {
    fn eq(&self, other: &Variant) -> bool {
        self.name() == other.name()
    }
}

impl Eq for Variant {}

/// A compiled variant: the spec plus derived per-kind facts and lookup tables.
pub struct Variant {
    /// The description it was built from.
    pub spec: VariantSpec,
    /// Per kind: the kind it promotes to.
    pub promotion: Vec<Option<Kind>>,
    /// Per kind: every move goes forward (dead on the last rank).
    pub one_way: Vec<bool>,
    /// Kinds that are royal, as a bit mask over kind indices.
    pub royal_mask: u64,
    /// Kinds that are lions.
    pub lion_mask: u64,
    /// Kinds that are weak (pawn, go-between).
    pub weak_mask: u64,
    /// Kinds that only move forward.
    pub one_way_mask: u64,
    /// Lookup tables for move generation and attack detection.
    pub tables: Tables,
}

impl Variant {
    fn compile(spec: VariantSpec) -> Variant {
        assert!(spec.kinds.len() <= MAX_KINDS && spec.files <= 16 && spec.ranks <= 16);
        let index_of = |sfen: &str| {
            spec.kinds
                .iter()
                .position(|k| k.sfen == sfen)
                .map(|i| i as Kind)
        };
        let promotion: Vec<Option<Kind>> = spec
            .kinds
            .iter()
            .map(|k| {
                k.promotes_to
                    .map(|p| index_of(p).expect("promoted kind listed in the variant"))
            })
            .collect();
        let one_way: Vec<bool> = spec
            .kinds
            .iter()
            .map(|k| k.movement.only_forward())
            .collect();
        let mask = |f: &dyn Fn(usize) -> bool| {
            (0..spec.kinds.len())
                .filter(|&i| f(i))
                .fold(0u64, |m, i| m | 1 << i)
        };
        let tables = Tables::build(&spec);
        Variant {
            royal_mask: mask(&|i| spec.kinds[i].royal),
            lion_mask: mask(&|i| spec.kinds[i].lion),
            weak_mask: mask(&|i| spec.kinds[i].weak),
            one_way_mask: mask(&|i| one_way[i]),
            promotion,
            one_way,
            spec,
            tables,
        }
    }

    /// The variant called `name` (`chushogi`, `shoshogi`; `chu` and `sho` also work).
    pub fn by_name(name: &str) -> Option<&'static Variant> {
        Variant::all().into_iter().find(|v| {
            std::iter::once(&v.spec.name)
                .chain(v.spec.aliases)
                .any(|n| n.eq_ignore_ascii_case(name))
        })
    }

    /// The variant XBoard calls `name`.
    pub fn by_xboard_name(name: &str) -> Option<&'static Variant> {
        Variant::all()
            .into_iter()
            .find(|v| v.spec.xboard.names.contains(&name))
    }

    /// Where this variant stands in [`Variant::all`] (a small index for per-variant
    /// data); `None` for a variant made with [`Variant::from_spec`].
    pub fn built_in_index(&self) -> Option<usize> {
        Variant::all().iter().position(|v| v.name() == self.name())
    }

    /// A variant from its data alone, beyond the built-in ones: what a new variant's data
    /// file gives before it is added to [`Variant::all`] (the protocols' variant lists).
    /// Everything below the front-ends (positions, SFEN, move generation, perft, the
    /// search and its evaluation) works with it; `tests/it/variant_data.rs` plays a
    /// made-up one. Kept for the life of the program (variants are `'static`). Panics on a
    /// spec that does not hold together (a promotion to a kind it does not list, more than
    /// [`MAX_KINDS`] kinds, a board above 16 x 16), as the built-in ones would.
    pub fn from_spec(spec: VariantSpec) -> &'static Variant {
        Box::leak(Box::new(Variant::compile(spec)))
    }

    /// How many variants the engine plays.
    pub const COUNT: usize = 2;

    /// Every variant the engine plays.
    pub fn all() -> [&'static Variant; Variant::COUNT] {
        [Variant::chu(), Variant::sho()]
    }

    /// Chu shogi.
    pub fn chu() -> &'static Variant {
        static CHU: OnceLock<Variant> = OnceLock::new();
        CHU.get_or_init(|| Variant::compile(chu::SPEC))
    }

    /// Sho shogi.
    pub fn sho() -> &'static Variant {
        static SHO: OnceLock<Variant> = OnceLock::new();
        SHO.get_or_init(|| Variant::compile(sho::SPEC))
    }

    /// The name (`chushogi`, `shoshogi`).
    pub fn name(&self) -> &'static str {
        self.spec.name
    }

    /// The kind a KIF names: by its board-diagram name (`獅`, `成角`), else by its move
    /// name (`獅子`); where two kinds share a move name (`龍馬`), the unpromoted one.
    pub fn kind_by_kif_name(&self, name: &str) -> Option<Kind> {
        let by = |f: fn(&KindSpec) -> &str| self.spec.kinds.iter().position(|k| f(k) == name);
        by(|k| k.kif_board_name)
            .or_else(|| by(|k| k.kif_name))
            .map(|i| i as Kind)
    }

    /// Number of piece kinds.
    pub fn kind_count(&self) -> usize {
        self.spec.kinds.len()
    }

    /// The spec of `kind`.
    pub fn kind(&self, kind: Kind) -> &KindSpec {
        &self.spec.kinds[kind as usize]
    }

    /// The kind whose SFEN letters (lowercase) are `sfen`.
    pub fn kind_by_sfen(&self, sfen: &str) -> Option<Kind> {
        self.spec
            .kinds
            .iter()
            .position(|k| k.sfen == sfen)
            .map(|i| i as Kind)
    }

    /// Whether `kind` is in `mask`.
    #[inline]
    pub fn has(mask: u64, kind: Kind) -> bool {
        mask >> kind & 1 != 0
    }

    /// Whether `sq` is on the board.
    #[inline]
    pub fn on_board(&self, sq: Square) -> bool {
        self.tables.on_board.contains(sq)
    }

    /// The promotion zone of `color`.
    #[inline]
    pub fn zone(&self, color: Color) -> Bitboard {
        self.tables.zone[color.index()]
    }
}

impl std::fmt::Debug for Variant {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "Variant({})", self.name())
    }
}
