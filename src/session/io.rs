//! The protocol streams, shared by the USI and XBoard front-ends: a reader thread that
//! turns stdin into lines (any bytes, CR LF, over-long lines), and the one writer of
//! stdout (one lock and one flush per line, so lines written by the controller and by the
//! search worker never interleave). Logging goes to stderr, never here.

use std::io::{BufRead, Write};
use std::sync::mpsc::{Receiver, Sender};
use std::sync::Mutex;

pub use super::input::{Input, MAX_LINE_BYTES};

/// Reads stdin on a thread of its own and sends each [`Input`], wrapped by `wrap`, to
/// `events`, ending with [`Input::Eof`]. An error if the thread cannot be started.
pub fn spawn_stdin_reader<E: Send + 'static>(
    events: Sender<E>,
    wrap: fn(Input) -> E,
) -> std::io::Result<()> {
    // One thread: no reader thread; [`next_event`] reads when its loop waits.
    #[cfg(single_thread)]
    return {
        super::single_thread::start_input(events, wrap);
        Ok(())
    };
    #[cfg(not(single_thread))]
    std::thread::Builder::new()
        .name("input-reader".into())
        .spawn(move || read_lines(std::io::stdin().lock(), |i| events.send(wrap(i)).is_ok()))
        .map(|_| ())
}

/// The next event of a front-end's loop; `None` when no more can come. On one thread
/// (`single_thread`) it reads the input itself while no event is waiting.
pub fn next_event<E>(events: &Receiver<E>) -> Option<E> {
    #[cfg(single_thread)]
    loop {
        use std::sync::mpsc::TryRecvError;
        match events.try_recv() {
            Ok(event) => return Some(event),
            Err(TryRecvError::Disconnected) => return None,
            // What the search and the worker said first, then the input, a line at a
            // time (the lines still queued belong to the searches they follow).
            Err(TryRecvError::Empty) => {
                if !super::single_thread::deliver_next() && !super::single_thread::read_blocking() {
                    // The input has ended and its `Eof` was handed on.
                    return events.try_recv().ok();
                }
            }
        }
    }
    #[cfg(not(single_thread))]
    events.recv().ok()
}

/// Reads lines and hands each to `each`, then [`Input::Eof`]. Stops early when `each`
/// returns false (the receiver is gone).
pub fn read_lines<R: BufRead>(mut input: R, mut each: impl FnMut(Input) -> bool) {
    while let Some(line) = read_line(&mut input) {
        if !each(line) {
            return;
        }
    }
    each(Input::Eof);
}

/// Reads one line: its text without the line end, or [`Input::Overlong`] for a line over
/// [`MAX_LINE_BYTES`] (skipped, never held); `None` at the end of the input.
pub fn read_line<R: BufRead>(input: &mut R) -> Option<Input> {
    let mut buf = Vec::new();
    let mut limited = std::io::Read::take(&mut *input, MAX_LINE_BYTES as u64 + 1);
    match limited.read_until(b'\n', &mut buf) {
        Ok(0) | Err(_) => None,
        Ok(_) if !buf.ends_with(b"\n") && buf.len() > MAX_LINE_BYTES => {
            let length = buf.len();
            // Nor does the buffer keep the long line's memory.
            drop(buf);
            Some(Input::Overlong(length + skip_line(input)))
        }
        Ok(_) => {
            let text = String::from_utf8_lossy(&buf);
            Some(Input::Line(text.trim_end_matches(['\r', '\n']).to_string()))
        }
    }
}

/// Skips input up to and including the next line end without keeping it (a line of
/// hundreds of megabytes must not be held in memory); the bytes skipped.
fn skip_line<R: BufRead>(input: &mut R) -> usize {
    let mut skipped = 0;
    loop {
        let (used, done) = match input.fill_buf() {
            Ok([]) | Err(_) => return skipped,
            Ok(chunk) => match chunk.iter().position(|&b| b == b'\n') {
                Some(end) => (end + 1, true),
                None => (chunk.len(), false),
            },
        };
        input.consume(used);
        skipped += used;
        if done {
            return skipped;
        }
    }
}

/// The one writer of protocol lines.
pub struct Output {
    out: Mutex<Box<dyn Write + Send>>,
}

impl Output {
    /// Writes to stdout.
    pub fn stdout() -> Output {
        Output::to(Box::new(std::io::stdout()))
    }

    /// Writes to any sink (tests, fuzzing).
    pub fn to(sink: Box<dyn Write + Send>) -> Output {
        Output {
            out: Mutex::new(sink),
        }
    }

    /// Sends one line (a newline is added) and flushes. A closed stdout is ignored: the GUI
    /// is gone, and the engine will see EOF on stdin.
    pub fn line(&self, text: &str) {
        let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(out, "{text}");
        let _ = out.flush();
        log::trace!(">> {text}");
    }
}

/// A sink whose bytes can be read back: given to [`Output::to`], it keeps what a
/// front-end printed (tests, fuzzing, embedding).
#[derive(Clone, Default)]
pub struct Captured(std::sync::Arc<Mutex<Vec<u8>>>);

impl Captured {
    /// What was written since the last call (lossy UTF-8), and forgets it.
    pub fn take(&self) -> String {
        let bytes = std::mem::take(&mut *self.0.lock().unwrap_or_else(|e| e.into_inner()));
        String::from_utf8_lossy(&bytes).into_owned()
    }
}

impl Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines_of(bytes: &[u8]) -> Vec<Input> {
        let mut got = Vec::new();
        read_lines(bytes, |i| {
            got.push(i);
            true
        });
        got
    }

    #[test]
    fn lines_bytes_and_overlong_input() {
        assert_eq!(
            lines_of(b"usi\r\nisready\n\xff\xfe x\nlast"),
            vec![
                Input::Line("usi".into()),
                Input::Line("isready".into()),
                Input::Line("\u{fffd}\u{fffd} x".into()),
                Input::Line("last".into()),
                Input::Eof
            ]
        );
        let mut long = vec![b'a'; MAX_LINE_BYTES + 10];
        long.extend_from_slice(b"\nquit\n");
        let got = lines_of(&long);
        assert_eq!(got.len(), 3, "{:?}", &got[1..]);
        assert!(matches!(got[0], Input::Overlong(n) if n > MAX_LINE_BYTES));
        assert_eq!(got[1], Input::Line("quit".into()));
    }
}
