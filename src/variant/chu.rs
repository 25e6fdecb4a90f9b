//! Chu shogi as data: 21 kinds at the start, 39 with the promoted ones (lishogi's rules,
//! `shared/rules/chushogi.md`). Rays are listed F, FR, R, BR, B, BL, L, FL.

use super::movement::short::*;
use super::movement::Movement;
use super::{
    BareKingRule, KindSpec, PerpetualRule, PromotionRule, RuleSet, VariantSpec, XboardSpec,
};

/// Shorthand for [`KindSpec::new`].
const fn k(
    name: &'static str,
    sfen: &'static str,
    promotes_to: Option<&'static str>,
    movement: Movement,
) -> KindSpec {
    KindSpec::new(name, sfen, promotes_to, movement)
}

const fn r(rays: [super::movement::Ray; 8]) -> Movement {
    Movement::rays(rays)
}

// Movements shared by a base piece and the promoted piece that moves like it.
const GOLD: Movement = r([S, S, S, N, S, N, S, S]);
const ELEPHANT: Movement = r([S, S, S, S, N, S, S, S]);
const KING: Movement = r([S; 8]);
const BISHOP: Movement = r([N, X, N, X, N, X, N, X]);
const ROOK: Movement = r([X, N, X, N, X, N, X, N]);
const SIDE_MOVER: Movement = r([S, N, X, N, S, N, X, N]);
const VERTICAL_MOVER: Movement = r([X, N, S, N, X, N, S, N]);
const HORSE: Movement = r([S, X, S, X, S, X, S, X]);
const DRAGON: Movement = r([X, S, X, S, X, S, X, S]);
const QUEEN: Movement = r([X; 8]);

/// The 39 chu shogi kinds. Order is the kind index (stable: hash keys and tables use it).
pub const KINDS: [KindSpec; 39] = [
    KindSpec {
        weak: true,
        ..k("pawn", "p", Some("+p"), r([S, N, N, N, N, N, N, N]))
    },
    KindSpec {
        weak: true,
        ..k("go-between", "i", Some("+i"), r([S, N, N, N, S, N, N, N]))
    },
    k("lance", "l", Some("+l"), r([X, N, N, N, N, N, N, N])),
    k(
        "ferocious leopard",
        "f",
        Some("+f"),
        r([S, S, N, S, S, S, N, S]),
    ),
    k(
        "copper general",
        "c",
        Some("+c"),
        r([S, S, N, N, S, N, N, S]),
    ),
    k(
        "silver general",
        "s",
        Some("+s"),
        r([S, S, N, S, N, S, N, S]),
    ),
    k("gold general", "g", Some("+g"), GOLD),
    k("drunk elephant", "e", Some("+e"), ELEPHANT),
    KindSpec {
        royal: true,
        ..k("king", "k", None, KING)
    },
    k(
        "reverse chariot",
        "a",
        Some("+a"),
        r([X, N, N, N, X, N, N, N]),
    ),
    k("bishop", "b", Some("+b"), BISHOP),
    k("blind tiger", "t", Some("+t"), r([N, S, S, S, S, S, S, S])),
    k("kirin", "o", Some("+o"), r([J, S, J, S, J, S, J, S])),
    k("phoenix", "x", Some("+x"), r([S, J, S, J, S, J, S, J])),
    k("side mover", "m", Some("+m"), SIDE_MOVER),
    k("vertical mover", "v", Some("+v"), VERTICAL_MOVER),
    k("rook", "r", Some("+r"), ROOK),
    k("dragon horse", "h", Some("+h"), HORSE),
    k("dragon king", "d", Some("+d"), DRAGON),
    KindSpec {
        lion: true,
        ..k("lion", "n", None, Movement::lion())
    },
    k("free king", "q", None, QUEEN),
    k("tokin", "+p", None, GOLD),
    k("promoted go-between", "+i", None, ELEPHANT),
    k("white horse", "+l", None, r([X, X, N, N, X, N, N, X])),
    k("promoted leopard", "+f", None, BISHOP),
    k("promoted copper", "+c", None, SIDE_MOVER),
    k("promoted silver", "+s", None, VERTICAL_MOVER),
    k("promoted gold", "+g", None, ROOK),
    KindSpec {
        royal: true,
        ..k("crown prince", "+e", None, KING)
    },
    k("whale", "+a", None, r([X, N, N, X, X, X, N, N])),
    k("promoted bishop", "+b", None, HORSE),
    k("flying stag", "+t", None, r([X, S, S, S, X, S, S, S])),
    KindSpec {
        lion: true,
        ..k("promoted kirin", "+o", None, Movement::lion())
    },
    k("promoted phoenix", "+x", None, QUEEN),
    k("free boar", "+m", None, r([N, X, X, X, N, X, X, X])),
    k("flying ox", "+v", None, r([X, X, N, X, X, X, N, X])),
    k("promoted rook", "+r", None, DRAGON),
    k("horned falcon", "+h", None, r([L, X, X, X, X, X, X, X])),
    k("soaring eagle", "+d", None, r([X, L, X, X, X, X, X, L])),
];

/// Chu shogi as lishogi plays it.
pub const SPEC: VariantSpec = VariantSpec {
    name: "chushogi",
    files: 12,
    ranks: 12,
    zone_depth: 4,
    kinds: &KINDS,
    start_sfen: "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1",
    rules: RuleSet {
        promotion: PromotionRule::EnterOrCaptureInZone,
        lone_royal_check: false,
        bare_king: BareKingRule::Chu,
        perpetual: PerpetualRule::CheckOrAttack,
        move_limit_plies: 200,
        counter_strike: true,
        perft_stops_at_game_end: true,
    },
    xboard: XboardSpec {
        names: &["chu"],
        setup: None,
    },
};
