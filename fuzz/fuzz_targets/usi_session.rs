//! A USI session fed any lines (ending with `quit`): never a panic, never a hang. Lines
//! that would only cost time or memory (perft, bench, hash sizes, thread counts) are left
//! out; the integration tests cover them.
//!
//! The first byte picks the state the lines start from, so that the fuzzer reaches the
//! states that a random start rarely gives: the start position, no position at all (the
//! last one was refused), the crowded all-kirin board (whose first iteration cannot finish:
//! `go nodes` / `go depth` must still answer), or a mating problem (`go mate` with its
//! limits).
#![no_main]

use libfuzzer_sys::fuzz_target;
use shishi::session::io::{read_lines, Input, Output};
use shishi::session::Settings;
use shishi::usi::controller::{Controller, Flow};
use std::sync::Arc;
use std::time::Duration;

fn costly(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    ["perft", "bench", "hash", "thread", "multipv"]
        .iter()
        .any(|w| lower.contains(w))
}

/// The starting states the first byte chooses from.
const STARTS: [&str; 4] = [
    "position startpos",
    "position sfen 12/12 b - 1",
    "position sfen KNNNNNNNNNNN/NNNNNNNNNNNN/NNNNNNNNNNNN/NNNNNNNNNNNN/NNNNNNNNNNNN/NNNNNNNNNNNN/\
nnnnnnnnnnnn/nnnnnnnnnnnn/nnnnnnnnnnnn/nnnnnnnnnnnn/nnnnnnnnnnnn/nnnnnnnnnnnk b - 1",
    "position sfen lf1g1tkgt1f1/a1cs1x2s3/2m9/8c3/p1P2p1ei3/6+r5/P2N1n6/A2C8/L3T2GC1+d1/\
7M4/4SO6/1F2GKE2+h2 w - 310",
];

fuzz_target!(|data: &[u8]| {
    let Some((&start, data)) = data.split_first() else {
        return;
    };
    let mut settings = Settings::for_protocol(shishi::session::options::Protocol::Usi);
    settings.move_overhead = Duration::from_millis(10);
    settings.hash_mb = 1;
    let out = Arc::new(Output::to(Box::new(std::io::sink())));
    let Ok(mut controller) = Controller::with_settings(out, settings) else {
        return;
    };
    controller.handle(Input::Line(
        STARTS[usize::from(start) % STARTS.len()].to_string(),
    ));
    let mut inputs = Vec::new();
    read_lines(data, |i| {
        inputs.push(i);
        true
    });
    for input in inputs {
        if matches!(&input, Input::Line(l) if costly(l)) {
            continue;
        }
        if controller.handle(input) == Flow::Quit {
            return;
        }
    }
    controller.handle(Input::Line("quit".into()));
});
