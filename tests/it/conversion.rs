//! Converting won endgames: from each position of `data/endgames/conversion.txt` Shishi plays
//! both sides at a fixed node budget, and the side that is far ahead must win (bare king or
//! royal captured) within the ply limit, instead of wandering until the move cap.

use shishi::position::Position;
use shishi::search::{Limits, Request, Searcher};
use shishi::variant::Variant;

/// Nodes per move: small enough for CI, large enough to see a few moves ahead.
const NODES: u64 = 20_000;

#[test]
fn every_won_endgame_is_won_within_its_limit() {
    let text = std::fs::read_to_string("data/endgames/conversion.txt").unwrap();
    let mut failures = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split('|').collect();
        let variant = Variant::by_name(fields[0]).unwrap();
        let mut pos = Position::from_sfen(variant, fields[1]).unwrap();
        let limit: usize = fields[2].parse().unwrap();
        let strong = pos.side_to_move();
        let request = Request::play(Limits {
            nodes: Some(NODES),
            ..Limits::default()
        });
        let outcome = Searcher::new(16).play_out(&mut pos, &request, limit);
        match outcome {
            Some(o) if o.winner == Some(strong) => {
                eprintln!(
                    "line {}: won by {} at move {} ({})",
                    n + 1,
                    o.reason.describe(),
                    pos.history().len(),
                    fields[3]
                );
            }
            other => failures.push(format!(
                "line {} ({}): {:?} after {} plies, at {}",
                n + 1,
                fields[3],
                other,
                pos.history().len(),
                pos.to_sfen()
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
