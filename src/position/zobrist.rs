//! Zobrist keys: one per (colour, kind, square), one for the side to move, and one per
//! counter-strike square (the same board with a different counter-strike square has other
//! legal moves, so it is another position). Generated at compile time by SplitMix64 with a
//! fixed seed, so keys (and bench node counts) are the same on every machine.

use crate::core::{Color, Square};
use crate::variant::{Kind, MAX_KINDS};

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const PIECE_COUNT: usize = 2 * MAX_KINDS * 256;

const fn make_keys<const N: usize>(seed: u64) -> [u64; N] {
    let mut keys = [0u64; N];
    let mut state = seed;
    let mut i = 0;
    while i < N {
        let (s, k) = splitmix(state);
        state = s;
        keys[i] = k;
        i += 1;
    }
    keys
}

static PIECE_KEYS: [u64; PIECE_COUNT] = make_keys(0x5368_6973_6869_0001);
static COUNTER_STRIKE_KEYS: [u64; 256] = make_keys(0x5368_6973_6869_0002);
const SIDE_KEY: u64 = splitmix(0x5368_6973_6869_0003).1;

/// Key of a `color` `kind` on `sq`.
#[inline]
pub fn piece(color: Color, kind: Kind, sq: Square) -> u64 {
    PIECE_KEYS[(color.index() * MAX_KINDS + kind as usize) * 256 + sq.index()]
}

/// Key toggled when gote is to move.
#[inline]
pub fn side() -> u64 {
    SIDE_KEY
}

/// Key of a counter-strike square.
#[inline]
pub fn counter_strike(sq: Square) -> u64 {
    COUNTER_STRIKE_KEYS[sq.index()]
}
