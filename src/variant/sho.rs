//! Sho shogi as data: shogi without drops, with the drunk elephant (16 kinds), played as
//! Fairy-Stockfish's `shoshogi` (`shared/rules/shoshogi.md`). Rays are F, FR, R, BR, B, BL, L, FL.

use super::movement::short::*;
use super::movement::{Movement, Ray};
use super::{
    BareKingRule, KifStyle, KindSpec, PerpetualRule, PromotionRule, RuleSet, VariantSpec,
    XboardSpec,
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

const fn r(rays: [Ray; 8]) -> Movement {
    Movement::rays(rays)
}

const GOLD: Movement = r([S, S, S, N, S, N, S, S]);
const KING: Movement = r([S; 8]);

/// The 16 sho shogi kinds. Order is the kind index.
pub const KINDS: [KindSpec; 16] = [
    KindSpec {
        forced_promotion_ranks: 1,
        ..k("pawn", "p", Some("+p"), r([S, N, N, N, N, N, N, N])).kanji("歩", "歩")
    },
    KindSpec {
        forced_promotion_ranks: 1,
        ..k("lance", "l", Some("+l"), r([X, N, N, N, N, N, N, N])).kanji("香", "香")
    },
    KindSpec {
        forced_promotion_ranks: 2,
        ..k(
            "knight",
            "n",
            Some("+n"),
            Movement {
                rays: [N; 8],
                leaps: &[(-1, -2), (1, -2)],
                lion_area: false,
            },
        )
        .kanji("桂", "桂")
    },
    k(
        "silver general",
        "s",
        Some("+s"),
        r([S, S, N, S, N, S, N, S]),
    )
    .kanji("銀", "銀"),
    k("gold general", "g", None, GOLD).kanji("金", "金"),
    KindSpec {
        royal: true,
        ..k("king", "k", None, KING).kanji("玉", "玉")
    },
    k(
        "drunk elephant",
        "e",
        Some("+e"),
        r([S, S, S, S, N, S, S, S]),
    )
    .kanji("象", "象"),
    k("bishop", "b", Some("+b"), r([N, X, N, X, N, X, N, X])).kanji("角", "角"),
    k("rook", "r", Some("+r"), r([X, N, X, N, X, N, X, N])).kanji("飛", "飛"),
    k("tokin", "+p", None, GOLD).kanji("と", "と"),
    k("promoted lance", "+l", None, GOLD).kanji("成香", "杏"),
    k("promoted knight", "+n", None, GOLD).kanji("成桂", "圭"),
    k("promoted silver", "+s", None, GOLD).kanji("成銀", "全"),
    KindSpec {
        royal: true,
        ..k("crown prince", "+e", None, KING).kanji("太子", "太")
    },
    k("dragon horse", "+b", None, r([S, X, S, X, S, X, S, X])).kanji("馬", "馬"),
    k("dragon king", "+r", None, r([X, S, X, S, X, S, X, S])).kanji("龍", "龍"),
];

/// Sho shogi as Fairy-Stockfish plays it.
pub const SPEC: VariantSpec = VariantSpec {
    name: "shoshogi",
    aliases: &["sho"],
    files: 9,
    ranks: 9,
    zone_depth: 3,
    kinds: &KINDS,
    start_sfen: "lnsgkgsnl/1r2e2b1/ppppppppp/9/9/9/PPPPPPPPP/1B2E2R1/LNSGKGSNL b - 1",
    rules: RuleSet {
        promotion: PromotionRule::StartOrEndInZone,
        lone_royal_check: true,
        bare_king: BareKingRule::Sho,
        perpetual: PerpetualRule::Check,
        move_limit_plies: 0,
        counter_strike: false,
        perft_stops_at_game_end: false,
    },
    xboard: XboardSpec {
        names: &["shogi", "sho"],
        setup: Some("setup (PNBRLSE..G.+++++++Kpnbrlse..g.+++++++k) 9x9+0_shogi lnsgkgsnl/1r2e2b1/ppppppppp/9/9/9/PPPPPPPPP/1B2E2R1/LNSGKGSNL w 0 1"),
    },
    kif: KifStyle::Shogi,
    eval_params: "shoshogi",
};
