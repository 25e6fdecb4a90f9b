//! A tiny scripted USI engine for the match runner's tests (`tests/it/match_runner.rs`):
//! it plays random legal moves, and can be told to misbehave after some moves (play an
//! illegal move, crash, hang, or close its output and live on), or print lines that are not
//! UTF-8. An example, so that it
//! is built with the tests (`cargo test` builds the examples) and never ships in the
//! `shishi` binary.
//!
//!     testengine [--behaviour random|illegal|crash|hang|closeout|longword|shiftjis] [--after N] [--seed S]

use shishi::core::rng::Rng;
use shishi::position::{GenMode, Position};
use shishi::variant::Variant;
use std::io::{BufRead, Write};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
            .map(String::as_str)
    };
    let behaviour = match value("--behaviour").unwrap_or("random") {
        "random" => Behaviour::Random,
        "illegal" => Behaviour::Illegal,
        "crash" => Behaviour::Crash,
        "hang" => Behaviour::Hang,
        "closeout" => Behaviour::CloseOutput,
        "longword" => Behaviour::LongWord,
        "shiftjis" => Behaviour::ShiftJis,
        other => {
            eprintln!("testengine: unknown behaviour '{other}'");
            std::process::exit(2);
        }
    };
    let after = value("--after").and_then(|v| v.parse().ok()).unwrap_or(0);
    let seed = value("--seed").and_then(|v| v.parse().ok()).unwrap_or(1);
    run(behaviour, after, seed);
}

/// How the test engine behaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Behaviour {
    /// Random legal moves, always.
    Random,
    /// An illegal move after `after` moves of its own.
    Illegal,
    /// Exits after `after` moves.
    Crash,
    /// Stops answering after `after` moves.
    Hang,
    /// Closes its output after `after` moves and lives on (until its input ends).
    CloseOutput,
    /// Answers with a one-megabyte word after `after` moves.
    LongWord,
    /// Random legal moves, each after an `info string` in Shift-JIS (not UTF-8).
    ShiftJis,
}

/// Runs the test engine on stdin/stdout.
fn run(behaviour: Behaviour, after: usize, seed: u64) {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    let mut variant = Variant::chu();
    let mut pos = Position::startpos(variant);
    let mut rng = Rng::new(seed);
    let mut played = 0;
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        let reply = match words.first().copied() {
            Some("usi") => Some("id name testengine\nid author shishi tests\nusiok".to_string()),
            Some("isready") => Some("readyok".to_string()),
            Some("setoption") if words.get(2) == Some(&"USI_Variant") => {
                variant = words
                    .get(4)
                    .and_then(|v| Variant::by_name(v))
                    .unwrap_or(variant);
                None
            }
            Some("position") => {
                let rest = line.trim_start_matches("position").trim();
                let (setup, moves) = rest.split_once("moves").unwrap_or((rest, ""));
                let sfen = setup.trim().trim_start_matches("sfen").trim();
                pos = Position::from_sfen(variant, if sfen.is_empty() { "startpos" } else { sfen })
                    .unwrap_or_else(|_| Position::startpos(variant));
                let _ = pos.play_usi_moves(moves.split_whitespace());
                None
            }
            Some("go") => {
                played += 1;
                if played > after {
                    match behaviour {
                        Behaviour::Illegal => Some("bestmove 1a1a".to_string()),
                        Behaviour::Crash => std::process::exit(3),
                        Behaviour::Hang => {
                            std::thread::sleep(std::time::Duration::from_secs(3600));
                            None
                        }
                        Behaviour::CloseOutput => {
                            close_stdout();
                            None
                        }
                        Behaviour::LongWord => {
                            Some(format!("bestmove {}\"}}", "x".repeat(1 << 20)))
                        }
                        Behaviour::ShiftJis => {
                            // 投了 in Shift-JIS.
                            let _ = out.write_all(b"info string \x93\x8a\x97\xb9\n");
                            Some(random_move(&mut pos, &mut rng))
                        }
                        Behaviour::Random => Some(random_move(&mut pos, &mut rng)),
                    }
                } else {
                    Some(random_move(&mut pos, &mut rng))
                }
            }
            Some("quit") => break,
            _ => None,
        };
        if let Some(text) = reply {
            let _ = writeln!(out, "{text}");
            let _ = out.flush();
        }
    }
}

fn random_move(pos: &mut Position, rng: &mut Rng) -> String {
    let mut moves = Vec::new();
    pos.legal_moves(GenMode::Search, &mut moves);
    if moves.is_empty() {
        return "bestmove resign".to_string();
    }
    let mv = moves[rng.below(moves.len())];
    format!(
        "info depth 1 score cp 0 pv {0}\nbestmove {0}",
        pos.move_to_usi(mv)
    )
}

/// Closes the process's standard output (its descriptor, not only Rust's handle).
#[cfg(unix)]
fn close_stdout() {
    use std::os::fd::FromRawFd;
    // SAFETY: descriptor 1 is this process's stdout; nothing writes to it after this.
    drop(unsafe { std::fs::File::from_raw_fd(1) });
}

#[cfg(not(unix))]
fn close_stdout() {}
