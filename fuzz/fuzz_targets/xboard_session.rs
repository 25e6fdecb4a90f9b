//! An XBoard session fed any lines (the end of each search is handed back as the real loop
//! does): never a panic, never a hang. Costly lines are left out as in `usi_session`, and
//! searches are kept short with `sd 2`.
//!
//! The first byte picks the state the lines start from: the start position, no position
//! at all (a refused `setboard`), or the crowded all-kirin board, whose first iteration
//! cannot finish (a depth limit must still end the search).
#![no_main]

use libfuzzer_sys::fuzz_target;
use shishi::cecp::{Controller, Event};
use shishi::session::io::{read_lines, Input, Output};
use shishi::session::Settings;
use std::sync::{mpsc, Arc};
use std::time::Duration;

fn costly(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    ["memory", "cores", "level", "time", "otim", "st ", "sd "]
        .iter()
        .any(|w| lower.contains(w))
}

/// The starting states the first byte chooses from.
const STARTS: [&str; 3] = [
    "new",
    "setboard 12/12 w",
    "setboard KNNNNNNNNNNN/NNNNNNNNNNNN/NNNNNNNNNNNN/NNNNNNNNNNNN/NNNNNNNNNNNN/NNNNNNNNNNNN/\
nnnnnnnnnnnn/nnnnnnnnnnnn/nnnnnnnnnnnn/nnnnnnnnnnnn/nnnnnnnnnnnn/nnnnnnnnnnnk w",
];

fuzz_target!(|data: &[u8]| {
    let Some((&start, data)) = data.split_first() else {
        return;
    };
    let mut settings = Settings::for_protocol(shishi::session::options::Protocol::Xboard);
    settings.move_overhead = Duration::from_millis(10);
    settings.hash_mb = 1;
    let out = Arc::new(Output::to(Box::new(std::io::sink())));
    let (tx, rx) = mpsc::channel();
    let Ok(mut engine) = Controller::with_settings(out, tx, settings) else {
        return;
    };
    // Every search ends within about 10 ms.
    engine.handle(Event::Input(Input::Line("sd 2".into())));
    engine.handle(Event::Input(Input::Line(
        STARTS[usize::from(start) % STARTS.len()].to_string(),
    )));
    let mut inputs = Vec::new();
    read_lines(data, |i| {
        inputs.push(i);
        true
    });
    for input in inputs {
        if matches!(&input, Input::Line(l) if costly(l)) {
            continue;
        }
        if !engine.handle(Event::Input(input)) {
            return;
        }
        while let Ok(event) = rx.try_recv() {
            engine.handle(event);
        }
    }
    engine.handle(Event::Input(Input::Line("quit".into())));
});
