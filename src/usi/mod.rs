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
        .spawn(move || read_lines(std::io::stdin().lock(), &reader_tx))
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

/// Reads lines (any bytes: invalid UTF-8 is replaced, CR LF accepted) and sends them on;
/// sends `Eof` at the end. A line longer than [`MAX_LINE_BYTES`] becomes an error line.
pub fn read_lines<R: BufRead>(mut input: R, tx: &mpsc::Sender<Event>) {
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
                    let _ = tx.send(Event::Line(format!("__overlong {}", buf.len())));
                    continue;
                }
                if tx
                    .send(Event::Line(String::from_utf8_lossy(&buf).into_owned()))
                    .is_err()
                {
                    return;
                }
            }
        }
    }
    let _ = tx.send(Event::Eof);
}
