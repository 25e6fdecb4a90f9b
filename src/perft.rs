//! Perft: count the leaf nodes of the legal-move tree to a fixed depth, the standard proof
//! that move generation is right. Counts follow the variant's convention (see
//! `GenMode::Perft` and `RuleSet::perft_stops_at_game_end`).
//!
//! Bulk counting: at depth 1 the legal moves are counted without being played.

use crate::core::Move;
use crate::position::{GenMode, Position};
use rayon::prelude::*;

/// Leaf nodes `depth` plies below `pos`.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    let mut buffers: Vec<Vec<Move>> = (0..depth.max(1)).map(|_| Vec::with_capacity(512)).collect();
    perft_inner(pos, depth, &mut buffers)
}

fn perft_inner(pos: &mut Position, depth: u32, buffers: &mut [Vec<Move>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.perft_stops_here() {
        return 0;
    }
    let (moves, rest) = buffers.split_first_mut().expect("one buffer per ply");
    pos.legal_moves(GenMode::Perft, moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut nodes = 0;
    for &mv in moves.iter() {
        pos.make_move(mv);
        nodes += perft_inner(pos, depth - 1, rest);
        pos.unmake_move();
    }
    nodes
}

/// Per root move: the move's USI text (as generated) and its subtree count, sorted by
/// move text. `threads > 1` splits the root moves over a rayon pool of that size.
pub fn divide(pos: &Position, depth: u32, threads: usize) -> Vec<(String, u64)> {
    let mut root = pos.clone();
    if depth == 0 || root.perft_stops_here() {
        return Vec::new();
    }
    let moves = root.perft_moves();
    let count = |mv: &Move| {
        let mut p = pos.clone();
        p.make_move(*mv);
        (
            crate::position::notation::move_to_usi(pos.variant(), *mv),
            perft(&mut p, depth - 1),
        )
    };
    let mut out: Vec<(String, u64)> = if threads > 1 {
        match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            Ok(pool) => pool.install(|| moves.par_iter().map(count).collect()),
            Err(_) => moves.iter().map(count).collect(),
        }
    } else {
        moves.iter().map(count).collect()
    };
    out.sort();
    out
}
