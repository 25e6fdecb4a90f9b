//! The engine on one thread: the browser build for a page that is not cross-origin
//! isolated (wasm32-wasip1, no threads and no shared memory). The search runs in the thread
//! that reads the input, so the input is read in two ways:
//! - between commands the front-end's loop waits for a line ([`read_blocking`]: the page's
//!   worker suspends the module until a message comes, with JavaScript Promise
//!   Integration);
//! - during a search, about every 10 ms, the search's stop test lets the input in
//!   ([`poll_during_search`], registered with `control::input_poll`): the commands that end
//!   a search in the other builds ([`ENDS_A_SEARCH`]: `stop`, a new `go`, ...) stop it and
//!   `ponderhit` releases it at once; every line, those too, is handed on to the
//!   front-end, which takes it when the search has answered (so `isready` is answered
//!   then, after the `bestmove`).

use super::input::{Input, MAX_LINE_BYTES};
use crate::control::SearchControl;
use std::cell::RefCell;
use std::io::Read;
use std::sync::mpsc::Sender;

#[allow(unsafe_code)]
#[link(wasm_import_module = "shishi")]
extern "C" {
    /// Lets the page's messages in (the worker's event loop runs while the module waits)
    /// and says how many bytes of input are waiting to be read.
    fn input_waiting() -> u32;
}

/// The input on its way to the front-end.
struct Pump {
    /// Bytes read that are not yet a whole line.
    partial: Vec<u8>,
    /// The length of an over-long line being skipped, if one is.
    skipping: Option<usize>,
    /// Hands a line on to the front-end; false when it is gone.
    deliver: Box<dyn FnMut(Input) -> bool>,
    /// The input has ended.
    ended: bool,
}

thread_local! {
    static PUMP: RefCell<Option<Pump>> = const { RefCell::new(None) };
}

/// Hands the input, a line at a time, wrapped by `wrap`, to `events` (in place of the
/// reader thread of the other builds), and lets a search hear it.
pub fn start_input<E: 'static>(events: Sender<E>, wrap: fn(Input) -> E) {
    PUMP.with(|p| {
        *p.borrow_mut() = Some(Pump {
            partial: Vec::new(),
            skipping: None,
            deliver: Box::new(move |input| events.send(wrap(input)).is_ok()),
            ended: false,
        })
    });
    crate::control::input_poll::register(poll_during_search);
}

/// Waits for input and hands on the whole lines read; false once the input has ended.
pub fn read_blocking() -> bool {
    read_some(None)
}

/// During a search: reads what has come in, if anything, acting on `control` at once.
#[allow(unsafe_code)]
fn poll_during_search(control: &SearchControl) {
    // SAFETY: an import of the page's worker (shishi.worker.js) that takes no arguments
    // and only reports a count.
    if unsafe { input_waiting() } > 0 {
        read_some(Some(control));
    }
}

/// Reads once from stdin (blocking when nothing has come) and hands on each whole line;
/// with a running search's `control`, a line that stops or releases it does so first.
fn read_some(control: Option<&SearchControl>) -> bool {
    // Larger than stdin's own buffer, so that std reads straight from the descriptor and
    // keeps nothing back.
    let mut buf = vec![0u8; 64 * 1024];
    let read = std::io::stdin().read(&mut buf).unwrap_or(0);
    PUMP.with(|p| {
        let mut pump = p.borrow_mut();
        let Some(pump) = pump.as_mut() else {
            return false;
        };
        if pump.ended {
            return false;
        }
        if read == 0 {
            pump.ended = true;
            (pump.deliver)(Input::Eof);
            return false;
        }
        pump.take(&buf[..read], control);
        true
    })
}

impl Pump {
    /// Takes bytes read: whole lines are handed on, the rest kept.
    fn take(&mut self, bytes: &[u8], control: Option<&SearchControl>) {
        for &b in bytes {
            if b != b'\n' {
                match &mut self.skipping {
                    Some(length) => *length += 1,
                    None if self.partial.len() >= MAX_LINE_BYTES => {
                        self.skipping = Some(self.partial.len() + 1);
                        self.partial = Vec::new();
                    }
                    None => self.partial.push(b),
                }
                continue;
            }
            if let Some(length) = self.skipping.take() {
                (self.deliver)(Input::Overlong(length));
                continue;
            }
            let text = String::from_utf8_lossy(&self.partial);
            let line = text.trim_end_matches('\r').to_string();
            self.partial.clear();
            if let Some(control) = control {
                act_at_once(&line, control);
            }
            (self.deliver)(Input::Line(line));
        }
    }
}

/// The commands that end a running search when their front-end takes them (USI's `stop`,
/// `quit`, a new `go`, `usinewgame`, `gameover`; XBoard's `?`, `exit`, `quit`, `analyze` and
/// its game commands): here the search ends as soon as they come, so that the front-end,
/// which takes them when the search has answered, finds it ended as it would have ended it.
const ENDS_A_SEARCH: &[&str] = &[
    "stop",
    "quit",
    "go",
    "usinewgame",
    "gameover",
    "?",
    "exit",
    "analyze",
    "new",
    "variant",
    "force",
    "playother",
    "result",
    "undo",
    "remove",
    "usermove",
    "setboard",
];

/// What a line does to a running search before the front-end sees it.
fn act_at_once(line: &str, control: &SearchControl) {
    let command = line.split_whitespace().next().unwrap_or("");
    if command == "ponderhit" {
        control.ponderhit();
    } else if ENDS_A_SEARCH.contains(&command) {
        control.stop();
    }
}
