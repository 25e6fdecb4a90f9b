//! Chu shogi as data: 21 kinds at the start, 39 with the promoted ones (lishogi's rules,
//! `shared/rules/chushogi.md`). Rays are listed F, FR, R, BR, B, BL, L, FL.

use super::eval_values::{EvalParams, MopUp, Weights};
use super::movement::short::*;
use super::movement::Movement;
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
        ..k("pawn", "p", Some("+p"), r([S, N, N, N, N, N, N, N])).kanji("歩兵", "歩")
    },
    KindSpec {
        weak: true,
        ..k("go-between", "i", Some("+i"), r([S, N, N, N, S, N, N, N])).kanji("仲人", "仲")
    },
    k("lance", "l", Some("+l"), r([X, N, N, N, N, N, N, N])).kanji("香車", "香"),
    k(
        "ferocious leopard",
        "f",
        Some("+f"),
        r([S, S, N, S, S, S, N, S]),
    )
    .kanji("猛豹", "豹"),
    k(
        "copper general",
        "c",
        Some("+c"),
        r([S, S, N, N, S, N, N, S]),
    )
    .kanji("銅将", "銅"),
    k(
        "silver general",
        "s",
        Some("+s"),
        r([S, S, N, S, N, S, N, S]),
    )
    .kanji("銀将", "銀"),
    k("gold general", "g", Some("+g"), GOLD).kanji("金将", "金"),
    k("drunk elephant", "e", Some("+e"), ELEPHANT).kanji("醉象", "象"),
    KindSpec {
        royal: true,
        ..k("king", "k", None, KING).kanji("玉将", "玉")
    },
    k(
        "reverse chariot",
        "a",
        Some("+a"),
        r([X, N, N, N, X, N, N, N]),
    )
    .kanji("反車", "反"),
    k("bishop", "b", Some("+b"), BISHOP).kanji("角行", "角"),
    k("blind tiger", "t", Some("+t"), r([N, S, S, S, S, S, S, S])).kanji("盲虎", "虎"),
    k("kirin", "o", Some("+o"), r([J, S, J, S, J, S, J, S])).kanji("麒麟", "麒"),
    k("phoenix", "x", Some("+x"), r([S, J, S, J, S, J, S, J])).kanji("鳳凰", "鳳"),
    k("side mover", "m", Some("+m"), SIDE_MOVER).kanji("横行", "横"),
    k("vertical mover", "v", Some("+v"), VERTICAL_MOVER).kanji("竪行", "竪"),
    k("rook", "r", Some("+r"), ROOK).kanji("飛車", "飛"),
    k("dragon horse", "h", Some("+h"), HORSE).kanji("龍馬", "馬"),
    k("dragon king", "d", Some("+d"), DRAGON).kanji("龍王", "龍"),
    KindSpec {
        lion: true,
        ..k("lion", "n", None, Movement::lion()).kanji("獅子", "獅")
    },
    k("free king", "q", None, QUEEN).kanji("奔王", "奔"),
    k("tokin", "+p", None, GOLD).kanji("金将", "杏"),
    k("promoted go-between", "+i", None, ELEPHANT).kanji("醉象", "成象"),
    k("white horse", "+l", None, r([X, X, N, N, X, N, N, X])).kanji("白駒", "駒"),
    k("promoted leopard", "+f", None, BISHOP).kanji("小角", "成角"),
    k("promoted copper", "+c", None, SIDE_MOVER).kanji("横行", "成横"),
    k("promoted silver", "+s", None, VERTICAL_MOVER).kanji("竪行", "成竪"),
    k("promoted gold", "+g", None, ROOK).kanji("成飛", "成飛"),
    KindSpec {
        royal: true,
        ..k("crown prince", "+e", None, KING).kanji("太子", "太")
    },
    k("whale", "+a", None, r([X, N, N, X, X, X, N, N])).kanji("鯨鯢", "鯨"),
    k("promoted bishop", "+b", None, HORSE).kanji("龍馬", "成馬"),
    k("flying stag", "+t", None, r([X, S, S, S, X, S, S, S])).kanji("飛鹿", "鹿"),
    KindSpec {
        lion: true,
        ..k("promoted kirin", "+o", None, Movement::lion()).kanji("獅子", "成獅")
    },
    k("promoted phoenix", "+x", None, QUEEN).kanji("奔王", "成奔"),
    k("free boar", "+m", None, r([N, X, X, X, N, X, X, X])).kanji("奔猪", "猪"),
    k("flying ox", "+v", None, r([X, X, N, X, X, X, N, X])).kanji("飛牛", "牛"),
    k("promoted rook", "+r", None, DRAGON).kanji("龍王", "成龍"),
    k("horned falcon", "+h", None, r([L, X, X, X, X, X, X, X])).kanji("角鷹", "鷹"),
    k("soaring eagle", "+d", None, r([X, L, X, X, X, X, X, L])).kanji("飛鷲", "鷲"),
];

/// Chu shogi as lishogi plays it.
pub const SPEC: VariantSpec = VariantSpec {
    name: "chushogi",
    aliases: &["chu"],
    files: 12,
    ranks: 12,
    zone_depth: 4,
    kinds: &KINDS,
    start_sfen: "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1",
    rules: RuleSet {
        promotion: PromotionRule::EnterOrCaptureInZone,
        lone_royal_check: false,
        bare_king: BareKingRule {
            attacking_a_royal_saves: true,
        },
        perpetual: PerpetualRule::CheckOrAttack,
        move_limit_plies: 200,
        counter_strike: true,
        perft_stops_at_game_end: true,
    },
    xboard: XboardSpec {
        names: &["chu"],
        setup: None,
    },
    kif: KifStyle::Chu,
    eval: &EVAL,
    eval_candidate: None,
    // Chu's clock: under sudden death main time is shared over the moves left to us until
    // ply 365 (a chu game's median length in self-play), never fewer than 50; with any main
    // time (increments too) the move overhead is set aside for the next 20 moves only. The
    // fixed 70-move horizon spent as much at the opening as in a long ending and kept 700 ms
    // of a 2.5 s clock unspent. The SPRTs (at sudden death, and the 20-move reserve with an
    // increment at 2+0.02) are in docs/tuning.md.
    search_values: &[
        ("overhead_reserve_moves", 20),
        ("sudden_death_game_plies", 365),
        ("sudden_death_moves_to_go", 50),
    ],
};

/// Chu shogi. The second Texel fit by `shishi tune fit` (scripts/measure/texel.sh's last two
/// steps), from the first (983 self-play games at 1 s + 0.02 s), on the quiet positions of
/// 1,183 self-play games at 8 s + 0.08 s (issue 59's SPRT records of 2026-12-07); the mop-up
/// is the first fit's (the fit leaves it alone). Its SPRTs are in docs/tuning.md:
/// shishi tune fit positions.txt (scale 0.2016, 286086 positions): error 0.126360 -> 0.118199, validation 0.130897 -> 0.122133
pub const EVAL: EvalParams = EvalParams {
    values: &[
        ("p", 100),
        ("i", 10),
        ("l", 244),
        ("f", 142),
        ("c", 90),
        ("s", 388),
        ("g", 233),
        ("e", 270),
        ("k", 700),
        ("a", 555),
        ("b", 976),
        ("t", 72),
        ("o", 610),
        ("x", 713),
        ("m", 432),
        ("v", 943),
        ("r", 1298),
        ("h", 1563),
        ("d", 1768),
        ("n", 2591),
        ("q", 1714),
        ("+p", 253),
        ("+i", 903),
        ("+l", 886),
        ("+f", 573),
        ("+c", 617),
        ("+s", 501),
        ("+g", 445),
        ("+e", 675),
        ("+a", 747),
        ("+b", 1162),
        ("+t", 446),
        ("+o", 2591),
        ("+x", 1714),
        ("+m", 996),
        ("+v", 1340),
        ("+r", 1378),
        ("+h", 1834),
        ("+d", 1713),
    ],
    placement: &[
        ("p", -35, 10),
        ("i", -5, 5),
        ("l", 3, -50),
        ("f", 11, -46),
        ("c", -1, 28),
        ("s", 8, 7),
        ("g", -35, 21),
        ("e", 50, 36),
        ("k", -50, -50),
        ("a", 6, -10),
        ("b", 26, -48),
        ("t", 31, 17),
        ("o", 14, 13),
        ("x", 48, 7),
        ("m", 21, 50),
        ("v", 50, -50),
        ("r", 16, -25),
        ("h", -1, -25),
        ("d", -12, -18),
        ("n", 21, -3),
        ("q", 7, 13),
        ("+p", 50, 7),
        ("+i", 28, 25),
        ("+l", 50, -6),
        ("+f", 23, -25),
        ("+c", 14, -34),
        ("+s", -50, -22),
        ("+g", -50, -1),
        ("+e", -36, -31),
        ("+a", -2, 20),
        ("+b", -44, -7),
        ("+t", 6, 16),
        ("+o", 21, -3),
        ("+x", 7, 13),
        ("+m", 36, 26),
        ("+v", 20, -12),
        ("+r", 50, -12),
        ("+h", 9, -2),
        ("+d", 35, 26),
    ],
    weights: Weights {
        tempo: 5,
        mobility_eighths: 64,
        promotion_potential_pct: 17,
        royal_attacker: 49,
        royal_guard: 30,
        lion_hunted_pct: 2,
        lion_prey_pct: 0,
        royal_zone_attack: 0,
        development: 3,
    },
    mopup: MopUp {
        lead: 1000,
        max_defenders: 4,
        closeness: 4,
        edge: 10,
        trade_pct: 0,
        quiet_damping_pct: 0,
    },
};
