//! A USI session fed any lines (ending with `quit`): never a panic, never a hang. Lines
//! that would only cost time or memory (perft, bench, hash sizes, thread counts) are left
//! out; the integration tests cover them.
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

fuzz_target!(|data: &[u8]| {
    let mut settings = Settings::new(Duration::from_millis(10));
    settings.hash_mb = 1;
    let out = Arc::new(Output::to(Box::new(std::io::sink())));
    let Ok(mut controller) = Controller::with_settings(out, settings) else {
        return;
    };
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
