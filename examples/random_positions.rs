//! Prints the positions of random games, one per line: `SFEN<TAB>sorted perft-mode moves`.
//! Input for the oracle differential test (`scripts/checks/oracle-diff.sh`).
//!
//! Usage: `cargo run --release --example random_positions -- VARIANT GAMES SEED [MAX_PLIES]`

use shishi::core::rng::Rng;
use shishi::position::notation::move_to_usi;
use shishi::position::Position;
use shishi::variant::Variant;
use std::io::{BufWriter, Write};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: random_positions VARIANT GAMES SEED [MAX_PLIES]";
    let variant = args.first().and_then(|v| Variant::by_name(v)).expect(usage);
    let games: usize = args.get(1).and_then(|s| s.parse().ok()).expect(usage);
    let seed: u64 = args.get(2).and_then(|s| s.parse().ok()).expect(usage);
    let max_plies: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(400);
    let mut rng = Rng::new(seed);
    let mut out = BufWriter::new(std::io::stdout().lock());
    for game in 0..games {
        let mut pos = Position::startpos(variant);
        for _ in 0..max_plies {
            let mut moves: Vec<String> = pos
                .perft_moves()
                .into_iter()
                .map(|m| move_to_usi(variant, m))
                .collect();
            moves.sort();
            writeln!(out, "{}\t{}\t{}", game, pos.to_sfen(), moves.join(" ")).expect("stdout");
            if pos.board_outcome().is_some() {
                break;
            }
            match pos.random_move(&mut rng) {
                Some(mv) => pos.make_move(mv),
                None => break,
            }
        }
    }
}
