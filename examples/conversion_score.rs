//! Measures the conversion of won endgames: from each position of a file in the form of
//! `data/endgames/conversion.txt` (`variant|SFEN|ply limit|what`, the side to move far
//! ahead), Shishi plays both sides at NODES a move; a line is won when the side to move wins
//! within the limit (or MAX_PLIES, when given). Prints each line and the total won.
//! The search uses each line's variant's constants; `NAME=VALUE` arguments set search
//! parameters over them, as the engine's `Tune_NAME` options do (e.g. `mopup_lead=450`).
//!
//! Usage: `cargo run --release --example conversion_score -- FILE NODES [MAX_PLIES]
//! [NAME=VALUE...]` (e.g. `data/endgames/blitz-leads.txt 10000`: blitz games drawn far
//! ahead; `data/endgames/middle-leads.txt 10000 trade_down_pct=50`: middlegame leads, with
//! trading down).

use shishi::position::Position;
use shishi::search::{Limits, Request, SearchOptions, Searcher};
use shishi::variant::Variant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: conversion_score FILE NODES [MAX_PLIES] [NAME=VALUE...]";
    let path = args.first().unwrap_or_else(|| fail(usage));
    let nodes: u64 = args
        .get(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| fail(usage));
    let (given, rest): (Vec<&String>, Vec<&String>) =
        args.iter().skip(2).partition(|a| a.contains('='));
    let max_plies: Option<usize> = match rest.as_slice() {
        [] => None,
        [plies] => Some(plies.parse().unwrap_or_else(|_| fail(usage))),
        _ => fail(usage),
    };
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| fail(&format!("{path}: {e}")));
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let (mut lines, mut won, mut won_plies) = (0, 0, 0);
    for (n, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split('|').collect();
        let bad = |what: &str| -> ! { fail(&format!("{path} line {}: {what}", n + 1)) };
        if fields.len() != 4 {
            bad("want variant|SFEN|ply limit|what");
        }
        let variant = Variant::by_name(fields[0]).unwrap_or_else(|| bad("unknown variant"));
        let mut pos =
            Position::from_sfen(variant, fields[1]).unwrap_or_else(|e| bad(&e.to_string()));
        let limit =
            max_plies.unwrap_or_else(|| fields[2].parse().unwrap_or_else(|_| bad("ply limit")));
        let mut options = SearchOptions::for_variant(variant);
        for setting in &given {
            let (name, value) = setting.split_once('=').expect("partitioned on '='");
            let value = value
                .parse()
                .unwrap_or_else(|_| fail(&format!("{setting}: not a number")));
            options
                .params
                .set(name, value)
                .unwrap_or_else(|e| fail(&e.to_string()));
        }
        let request = Request::play(limits.clone()).with_options(options);
        let strong = pos.side_to_move();
        let outcome = Searcher::new(16).play_out(&mut pos, &request, limit);
        let plies = pos.history().len();
        lines += 1;
        let verdict = match outcome {
            Some(o) if o.winner == Some(strong) => {
                won += 1;
                won_plies += plies;
                format!("won ({}) in {plies} plies", o.reason.describe())
            }
            Some(o) => format!("not won: {} after {plies} plies", o.reason.describe()),
            None => format!("not won within {plies} plies"),
        };
        println!("line {}: {verdict} | {}", n + 1, fields[3]);
    }
    let mean = won_plies.checked_div(won).unwrap_or(0);
    println!(
        "won {won} of {lines} at {nodes} nodes a move (a won line took {mean} plies on average)"
    );
}

/// Says what is wrong and stops (a measuring tool: nothing to keep).
fn fail(message: &str) -> ! {
    eprintln!("conversion_score: {message}");
    std::process::exit(2)
}
