//! The USI front-end (lishogi's chu dialect): a reader thread turns stdin lines into events,
//! the [`controller::Controller`] handles them, and every protocol line goes to stdout
//! through one [`response::Output`]. See protocol-docs/usi.md.

pub mod command;
pub mod controller;
pub mod options;
pub mod response;

use controller::{Controller, Event, Flow};
use response::Output;
use std::io::BufRead;
use std::sync::mpsc;
use std::sync::Arc;

/// Longest input line accepted (longer ones are reported and skipped).
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Runs the USI loop on stdin/stdout until `quit` or end of input. `first` is a line
/// already read (by the protocol detection in `main`).
pub fn run(first: Option<String>) {
    let (tx, rx) = mpsc::channel();
    let reader_tx = tx.clone();
    std::thread::Builder::new()
        .name("usi-reader".into())
        .spawn(move || {
            let eof_tx = reader_tx.clone();
            read_lines(
                std::io::stdin().lock(),
                |l| reader_tx.send(Event::Line(l)).is_ok(),
                move || {
                    let _ = eof_tx.send(Event::Eof);
                },
            )
        })
        .expect("spawn the input reader");
    let out = Arc::new(Output::stdout());
    let mut controller = Controller::new(out, tx);
    if let Some(line) = first {
        if controller.handle(Event::Line(line)) == Flow::Quit {
            return;
        }
    }
    while let Ok(event) = rx.recv() {
        if controller.handle(event) == Flow::Quit {
            break;
        }
    }
}

/// Reads lines (any bytes: invalid UTF-8 is replaced, CR LF accepted) and hands each to
/// `line`, then calls `eof` at the end. A line longer than [`MAX_LINE_BYTES`] is skipped and
/// reported as the line `__overlong N`. Stops early when `line` returns false (the receiver
/// is gone). Shared by the USI and XBoard front-ends.
pub fn read_lines<R: BufRead>(
    mut input: R,
    mut line: impl FnMut(String) -> bool,
    eof: impl FnOnce(),
) {
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let mut limited = std::io::Read::take(&mut input, MAX_LINE_BYTES as u64 + 1);
        match limited.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => break,
            Ok(_) => {
                let complete = buf.ends_with(b"\n");
                if !complete && buf.len() > MAX_LINE_BYTES {
                    // Skip the rest of the over-long line.
                    let mut rest = Vec::new();
                    let _ = input.read_until(b'\n', &mut rest);
                    if !line(format!("__overlong {}", buf.len())) {
                        return;
                    }
                    continue;
                }
                if !line(String::from_utf8_lossy(&buf).into_owned()) {
                    return;
                }
            }
        }
    }
    eof();
}
