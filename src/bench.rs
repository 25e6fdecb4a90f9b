//! `shishi bench`: a fixed set of positions searched to a fixed depth with one thread and a
//! fresh hash table each, so that its node count is a signature of the search's behaviour
//! (kept in `BENCH`; a commit that changes it says `Bench: N`).
//!
//! Chu positions come from two real lishogi games (the move lists of jh85/chushogi's
//! `tests/chushogi_cases.tsv`, which records lishogi games ply by ply), at the opening, the
//! middle game and the endgame, plus two hand-made lion and falcon/eagle positions of our
//! perft data. No sho game collection exists; its positions are the start, a common opening
//! and a promotion-rich endgame.

use crate::position::Position;
use crate::search::params::{GivenParams, SearchParams};
use crate::search::{Limits, Request, SearchControl, SearchOptions, Searcher, Silent};
use crate::variant::Variant;
use std::time::{Duration, Instant};

/// Default bench depth.
pub const DEFAULT_DEPTH: i32 = 8;

/// `(variant, SFEN, moves)` of the bench positions.
pub const POSITIONS: &[(&str, &str, &str)] = &[
    ("chushogi", "startpos", ""),
    ("chushogi", "startpos", "8i8h 4c4b 5i5h 3c4c 10i10h 2d2e 7j6h 11d11e 3i3h 6c6e 2i2h 12d12e 11i11h 12e12f 12i12h 11e11f 1i1h 1d1e 1j1i 1c1d 12j12i 11c11d 6h6g 1e1f 2l2k 9c9b 2k1j 10b9c 1j2i 12c12d 11l11k 2c2d 11k12j 5c6c 12j11i 4c5c 6i6h 3b4c 4h4g 10d10e 4i4h 11d10d 4j4i 4e4f 6g4f 9e9f 3l4k 12d11d 3h3g 4b3c 2i3h"),
    ("chushogi", "startpos", "5i5h 6c6e 4j7g 5d5e 3k6h 8d8e 7i7h 7b5d 6h5g 7d7e 7g6h 6e5f 5g2d+ 2c2d 6h2d+ 1d1e 2d1e 1c1d 6j10f 5f7d 1e2e 6d6e 7j8h 10d10e 10f2f 3a2b 2e4g 5c6c 8h10g 11d11e 7k7i 4a4b 10g12f 12d12e 12f11e12e 10e10f 7i7g 10f10g 3l3k 12c12d 12e12g 12d12e 12g12h 12e12f 7g7e 9c7e 4g6e 6c6e 2f4d 4c4d 10i10h 10g10h 11i11h 10h10i+ 10j10i 12f5f 12h10j 10c10i+ 10j10i10j 8c10c"),
    ("chushogi", "startpos", "5i5h 6c6e 4j7g 5d5e 3k6h 8d8e 7i7h 7b5d 6h5g 7d7e 7g6h 6e5f 5g2d+ 2c2d 6h2d+ 1d1e 2d1e 1c1d 6j10f 5f7d 1e2e 6d6e 7j8h 10d10e 10f2f 3a2b 2e4g 5c6c 8h10g 11d11e 7k7i 4a4b 10g12f 12d12e 12f11e12e 10e10f 7i7g 10f10g 3l3k 12c12d 12e12g 12d12e 12g12h 12e12f 7g7e 9c7e 4g6e 6c6e 2f4d 4c4d 10i10h 10g10h 11i11h 10h10i+ 10j10i 12f5f 12h10j 10c10i+ 10j10i10j 8c10c 10j11k 7d6f 11j10j 10c9b 10j10d+ 11c10c 10d11e 11a11b 8j7i 6f4f 12j10j 4f3g 7i8h 3g4h4g 8h8g 4g4f 9j8j 4f6d 3k4j 11b11c 8j6h 10a11b 5j5i 11b12c 6h7g 12c11d 11e8h 7e7f 8h9g 8e8f 7g7f 6e7f 5i6h 7f8g 6h6d+ 7c6d 8i8h 8g3g 6k6j 8b7b 9g11i 9a8b 3i3h 3g2g 2i2h 2g1g 10k8i 10b2j+ 3j2j 1g4g 6j4h 4g6g 8k7j 6g6e 8h8g 6d8d 8g8f 8b7c 4h4g 6e6c 4g2e 2b2c 6l6k 2c2d 2e4g 2d3e 4g2e 2a2b 11i9g 7c7d"),
    ("chushogi", "startpos", "5i5h 6c6e 4j7g 5d5e 3k6h 8d8e 7i7h 7b5d 6h5g 7d7e 7g6h 6e5f 5g2d+ 2c2d 6h2d+ 1d1e 2d1e 1c1d 6j10f 5f7d 1e2e 6d6e 7j8h 10d10e 10f2f 3a2b 2e4g 5c6c 8h10g 11d11e 7k7i 4a4b 10g12f 12d12e 12f11e12e 10e10f 7i7g 10f10g 3l3k 12c12d 12e12g 12d12e 12g12h 12e12f 7g7e 9c7e 4g6e 6c6e 2f4d 4c4d 10i10h 10g10h 11i11h 10h10i+ 10j10i 12f5f 12h10j 10c10i+ 10j10i10j 8c10c 10j11k 7d6f 11j10j 10c9b 10j10d+ 11c10c 10d11e 11a11b 8j7i 6f4f 12j10j 4f3g 7i8h 3g4h4g 8h8g 4g4f 9j8j 4f6d 3k4j 11b11c 8j6h 10a11b 5j5i 11b12c 6h7g 12c11d 11e8h 7e7f 8h9g 8e8f 7g7f 6e7f 5i6h 7f8g 6h6d+ 7c6d 8i8h 8g3g 6k6j 8b7b 9g11i 9a8b 3i3h 3g2g 2i2h 2g1g 10k8i 10b2j+ 3j2j 1g4g 6j4h 4g6g 8k7j 6g6e 8h8g 6d8d 8g8f 8b7c 4h4g 6e6c 4g2e 2b2c 6l6k 2c2d 2e4g 2d3e 4g2e 2a2b 11i9g 7c7d 11k11i 2b2c 2j2i 2c2d 2e4g 4b5c 8f8e 7d8e 7h7g 5c6d 8i6g 6c8c 9g8h 8e8f 12i12h 6d7e 6i6h 3c7c 5h5g 5f6f 6g5h 5d3f 5h6i 3f4f 4g4f 6f4f 12k12i 7e6f 6h6g 6f7g 8h8j 8c8b 6k6j 9b8c 12l12j 5e5f 5g5f 4f5f 6i4g 4d5e 10l11k 3b6e 11i11g 5f4f 4g6e 5e6e 4j3i 6e5f 4i4h 5f6g 11l12k 8d10b 6j5i 10c10j+ 11k10j 10b10j 8l9k 10j10b 8j6l 6g6f 6l6j 5a4b 11g11i 6b5a 9l10k 7b6b 9k9j 7a7b 2h2g 7c6c"),
    ("chushogi", "startpos", "5i5h 6c6e 4j7g 5d5e 3k6h 8d8e 7i7h 7b5d 6h5g 7d7e 7g6h 6e5f 5g2d+ 2c2d 6h2d+ 1d1e 2d1e 1c1d 6j10f 5f7d 1e2e 6d6e 7j8h 10d10e 10f2f 3a2b 2e4g 5c6c 8h10g 11d11e 7k7i 4a4b 10g12f 12d12e 12f11e12e 10e10f 7i7g 10f10g 3l3k 12c12d 12e12g 12d12e 12g12h 12e12f 7g7e 9c7e 4g6e 6c6e 2f4d 4c4d 10i10h 10g10h 11i11h 10h10i+ 10j10i 12f5f 12h10j 10c10i+ 10j10i10j 8c10c 10j11k 7d6f 11j10j 10c9b 10j10d+ 11c10c 10d11e 11a11b 8j7i 6f4f 12j10j 4f3g 7i8h 3g4h4g 8h8g 4g4f 9j8j 4f6d 3k4j 11b11c 8j6h 10a11b 5j5i 11b12c 6h7g 12c11d 11e8h 7e7f 8h9g 8e8f 7g7f 6e7f 5i6h 7f8g 6h6d+ 7c6d 8i8h 8g3g 6k6j 8b7b 9g11i 9a8b 3i3h 3g2g 2i2h 2g1g 10k8i 10b2j+ 3j2j 1g4g 6j4h 4g6g 8k7j 6g6e 8h8g 6d8d 8g8f 8b7c 4h4g 6e6c 4g2e 2b2c 6l6k 2c2d 2e4g 2d3e 4g2e 2a2b 11i9g 7c7d 11k11i 2b2c 2j2i 2c2d 2e4g 4b5c 8f8e 7d8e 7h7g 5c6d 8i6g 6c8c 9g8h 8e8f 12i12h 6d7e 6i6h 3c7c 5h5g 5f6f 6g5h 5d3f 5h6i 3f4f 4g4f 6f4f 12k12i 7e6f 6h6g 6f7g 8h8j 8c8b 6k6j 9b8c 12l12j 5e5f 5g5f 4f5f 6i4g 4d5e 10l11k 3b6e 11i11g 5f4f 4g6e 5e6e 4j3i 6e5f 4i4h 5f6g 11l12k 8d10b 6j5i 10c10j+ 11k10j 10b10j 8l9k 10j10b 8j6l 6g6f 6l6j 5a4b 11g11i 6b5a 9l10k 7b6b 9k9j 7a7b 2h2g 7c6c 7j8j 6f7e 5i6i 8f8g 11i9k 8g7h 6i7j 7g6h 3i2h 8b7c 9h9g 7e7f 9k11i 7f5h 2h3g 7h6i 6j7k 6i7j+ 7k7j 5h7j+ 1j7j 6h6i 7j7i 6i6j 3g4f 4e4f 7i7j 6j5k+ 4l5k 10b4h 2i7i 4h3h 5k5j 7c6d 2l2k 8c10c 5j4i 3h3k 7j7k 3k3f 8j7j 3f2g 7i7b+ 6b7b 5l6k 2g4i 1k1j 4i2k 6k6j 2k8e 7k5k 8e8c 7l7k 6c7c 9j8j 6d6g 12k11j 6g2g 11i11g"),
    ("chushogi", "startpos", "8i8h 5d5e 7j8i 6c5d 8i8g 5d6e 8g7f 6e6f"),
    ("chushogi", "11k/12/12/12/1n3ps5/2P1g1p5/3+D2+H2+h2/8+dP2/7p1GS1/12/12/K11 b - 1", ""),
    ("shoshogi", "startpos", ""),
    ("shoshogi", "startpos", "7g7f 3c3d 8h2b+ 3a2b 2g2f 5c5d 2f2e 5b5c"),
    ("shoshogi", "4k4/7P1/1L7/2N6/8S/9/9/9/4K4 b - 1", ""),
];

/// One position's result.
pub struct BenchLine {
    /// Index in [`POSITIONS`].
    pub index: usize,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub time: Duration,
    /// The best move in USI.
    pub best: String,
}

/// Runs the bench; `each` is told about every position as it finishes. `given`: search
/// constants set over each variant's own (a setting's node count, to compare with the
/// signature). An error when the hash table cannot be had.
pub fn run(
    depth: i32,
    threads: usize,
    hash_mb: usize,
    given: &GivenParams,
    mut each: impl FnMut(&BenchLine),
) -> Result<(u64, Duration), crate::search::tt::NoMemory> {
    let mut total = 0;
    let mut time = Duration::ZERO;
    for (index, (variant, sfen, moves)) in POSITIONS.iter().enumerate() {
        let variant = Variant::by_name(variant).expect("bench variant");
        let mut pos = Position::from_sfen(variant, sfen).expect("bench SFEN");
        pos.play_usi_moves(moves.split_whitespace())
            .expect("bench moves");
        let mut searcher = Searcher::try_new(hash_mb)?;
        let request = Request::play(Limits {
            depth: Some(depth),
            ..Limits::default()
        })
        .with_options(SearchOptions {
            threads,
            params: given.over(SearchParams::for_variant(variant)),
            ..SearchOptions::default()
        });
        let control = SearchControl::new(false);
        let start = Instant::now();
        let result = searcher.search(&pos, &request, &control, &Silent);
        let elapsed = start.elapsed();
        let best = result
            .best
            .map_or("none".to_string(), |m| pos.move_to_usi(m));
        total += result.nodes;
        time += elapsed;
        each(&BenchLine {
            index,
            nodes: result.nodes,
            time: elapsed,
            best,
        });
    }
    Ok((total, time))
}
