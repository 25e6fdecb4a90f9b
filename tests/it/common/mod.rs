//! A test harness that drives the built `shishi` binary over pipes, with timeouts; and
//! temporary folders that tests leave nothing of.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// A running engine process.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    pub seen: Vec<String>,
}

impl Engine {
    pub fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_shishi"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start shishi");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            stdin: child.stdin.take(),
            child,
            lines: rx,
            seen: Vec::new(),
        }
    }

    /// A started engine that has answered `usi` with `usiok` (its `id` and `option` lines
    /// are in `seen`).
    pub fn start_usi() -> Engine {
        let mut e = Engine::start();
        e.send("usi");
        e.until(5.0, |l| l == "usiok");
        e
    }

    /// The engine's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn send(&mut self, text: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(text.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    /// Reads lines until one satisfies `pred`; panics after `secs` seconds.
    pub fn until(&mut self, secs: f64, pred: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + Duration::from_secs_f64(secs);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if pred(&line) {
                        return line;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("timed out; seen so far: {:#?}", self.seen)
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("engine closed stdout; seen: {:#?}", self.seen)
                }
            }
        }
    }

    pub fn bestmove(&mut self, secs: f64) -> String {
        self.until(secs, |l| l.starts_with("bestmove"))
            .split_whitespace()
            .nth(1)
            .unwrap()
            .to_string()
    }

    /// The last line seen so far that starts with `prefix`.
    pub fn last_seen(&self, prefix: &str) -> Option<&str> {
        self.seen
            .iter()
            .rev()
            .find(|l| l.starts_with(prefix))
            .map(String::as_str)
    }

    /// The node count of the last `info depth DEPTH` line seen so far.
    pub fn nodes_at_depth(&self, depth: u32) -> Option<u64> {
        self.last_seen(&format!("info depth {depth} "))
            .and_then(|l| l.split_whitespace().skip_while(|w| *w != "nodes").nth(1))
            .and_then(|n| n.parse().ok())
    }

    /// No line at all for `secs` seconds matching `pred`.
    pub fn quiet_for(&mut self, secs: f64, pred: impl Fn(&str) -> bool) {
        let deadline = Instant::now() + Duration::from_secs_f64(secs);
        while let Ok(line) = self
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            assert!(!pred(&line), "unexpected line: {line}");
            self.seen.push(line);
        }
    }

    pub fn close_and_wait(mut self, secs: f64) -> i32 {
        drop(self.stdin.take());
        let deadline = Instant::now() + Duration::from_secs_f64(secs);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code().unwrap_or(-1);
            }
            assert!(Instant::now() < deadline, "engine did not exit after EOF");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Text percent-encoded on one line (every byte but ASCII letters and digits), as a page
/// sends a KIF file with `kifread` and `review ... kif`.
pub fn percent_encode(text: &str) -> String {
    text.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// A new empty folder in the system's temporary folder, named after the test process and
/// `name`; it and everything in it are removed when it is dropped, even when the test
/// fails, so that test runs leave nothing behind.
pub struct TempDir(std::path::PathBuf);

impl TempDir {
    pub fn new(prefix: &str, name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("{prefix}-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        TempDir(dir)
    }
}

impl std::ops::Deref for TempDir {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        &self.0
    }
}

impl AsRef<std::path::Path> for TempDir {
    fn as_ref(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
