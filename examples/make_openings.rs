//! Builds a balanced opening book from shallow searches (how `data/openings/*.txt` were
//! made). For each line: from the start position, each ply picks at random among the moves a
//! 4-ply MultiPV search scores within 30 centipawns of the best; after PLIES plies a 6-ply
//! search must score the position within 60 centipawns of equality, else the line is dropped.
//!
//! Usage: `cargo run --release --example make_openings -- VARIANT COUNT PLIES SEED`

use shishi::core::rng::Rng;
use shishi::position::Position;
use shishi::search::{Info, Limits, Observer, Request, SearchControl, SearchOptions, Searcher};
use shishi::variant::Variant;
use std::collections::HashSet;
use std::sync::Mutex;

struct Lines(Mutex<Vec<Info>>);

impl Observer for Lines {
    fn info(&self, info: &Info) {
        self.0.lock().unwrap().push(info.clone());
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let variant =
        Variant::by_name(args.first().map_or("chushogi", String::as_str)).expect("variant");
    let count: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(50);
    let plies: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(8);
    let mut rng = Rng::new(args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1));
    let mut searcher = Searcher::new(16);
    let mut seen = HashSet::new();
    let mut made = 0;
    while made < count {
        let mut pos = Position::startpos(variant);
        let mut line = Vec::new();
        for _ in 0..plies {
            let lines = Lines(Mutex::new(Vec::new()));
            searcher.search(
                &pos,
                &Request::play(Limits {
                    depth: Some(4),
                    ..Limits::default()
                })
                .with_options(SearchOptions {
                    multipv: 6,
                    ..SearchOptions::default()
                }),
                &SearchControl::new(false),
                &lines,
            );
            let infos = lines.0.into_inner().unwrap();
            let last: Vec<&Info> = infos
                .iter()
                .filter(|i| i.depth == 4 && i.bound.is_none())
                .collect();
            let best = last.iter().map(|i| i.score).max().unwrap_or(0);
            let good: Vec<&&Info> = last.iter().filter(|i| i.score >= best - 30).collect();
            let pick = good[rng.below(good.len())].pv[0];
            line.push(pos.move_to_usi(pick));
            pos.make_move(pick);
        }
        let result = searcher.search(
            &pos,
            &Request::play(Limits {
                depth: Some(6),
                ..Limits::default()
            }),
            &SearchControl::new(false),
            &shishi::search::Silent,
        );
        if result.score.is_some_and(|s| s.abs() <= 60) && seen.insert(pos.key()) {
            println!("{}", line.join(" "));
            made += 1;
        }
    }
}
