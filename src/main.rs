//! The `shishi` binary: logging to stderr, the command line, and dispatch. With no
//! subcommand it speaks a protocol on stdin/stdout: USI, or XBoard when the first line is
//! `xboard`.

mod commands;

use anyhow::Result;
use clap::{Parser, Subcommand};
use commands::{analyse_command, tools, tune_command};
use shishi::session::io::Input;

#[derive(Parser)]
#[command(
    name = "shishi",
    version,
    about = "A chu shogi and sho shogi engine (USI and XBoard protocols)"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Speak USI on stdin/stdout (the default when no subcommand is given).
    Usi,
    /// Speak the XBoard/WinBoard protocol (CECP v2) on stdin/stdout.
    Xboard,
    /// Count the leaf nodes of the move tree (divide per root move, total last).
    Perft {
        /// Depth in plies.
        depth: u32,
        /// chushogi or shoshogi.
        #[arg(long, default_value = "chushogi")]
        variant: String,
        /// The position: an SFEN, or `startpos`.
        #[arg(long, default_value = "startpos")]
        sfen: String,
        /// USI moves to play first, space separated.
        #[arg(long, default_value = "")]
        moves: String,
        /// Print one `move count` line per root move (the default; kept for scripts).
        #[arg(long)]
        divide: bool,
        /// Only print the total.
        #[arg(long, conflicts_with = "divide")]
        no_divide: bool,
        /// Split the root moves over this many threads.
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// Play a match between engines (USI or XBoard protocol), with our rules as arbiter.
    #[cfg(not(target_family = "wasm"))]
    Match(Box<commands::match_command::MatchArgs>),
    /// Analyse positions or whole games (SFEN lines, JSON lines, KIF) on all cores.
    Analyse(Box<analyse_command::AnalyseArgs>),
    /// Search the fixed bench positions; the last line is `N nodes M nps`.
    Bench {
        /// Depth in plies.
        #[arg(long, default_value_t = shishi::bench::DEFAULT_DEPTH)]
        depth: i32,
        /// Search threads.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Hash table size in MB.
        #[arg(long, default_value_t = 16)]
        hash: usize,
        /// A search constant over the variant's own, NAME=VALUE (repeatable; the names
        /// and ranges: `shishi tune search-params`), to see a setting's node count.
        #[arg(long = "param", value_name = "NAME=VALUE")]
        params: Vec<String>,
    },
    /// Texel tuning of the evaluation: training positions from match records, then a fit.
    #[command(subcommand)]
    Tune(tune_command::TuneCommand),
}

/// Runs the command; an error is printed as one line, `error: ...` with its causes, and
/// the exit code is 1. Never a stack trace: `main` returning the error would print anyhow's
/// debug form, which adds one whenever `RUST_BACKTRACE` is set, and a user who mistyped a
/// path needs the message, not the frames.
fn main() -> std::process::ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info"))
        .target(env_logger::Target::Stderr)
        .init();
    match run(Cli::parse()) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            shishi::tell!("error: {e:#}");
            commands::exit_code(&e)
        }
    }
}

fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Some(Command::Perft {
            depth,
            variant,
            sfen,
            moves,
            divide: _,
            no_divide,
            threads,
        }) => tools::run_perft(depth, &variant, &sfen, &moves, !no_divide, threads),
        Some(Command::Bench {
            depth,
            threads,
            hash,
            params,
        }) => tools::run_bench(depth, threads, hash, &params),
        #[cfg(not(target_family = "wasm"))]
        Some(Command::Match(args)) => commands::match_command::run_match(*args),
        Some(Command::Tune(command)) => tune_command::run_tune(command),
        Some(Command::Analyse(args)) => analyse_command::run_analyse(*args),
        Some(Command::Xboard) => Ok(shishi::cecp::run(None)?),
        Some(Command::Usi) => Ok(shishi::usi::run(None)?),
        None => protocol_by_first_line(),
    }
}

/// Reads the first line and picks the protocol it belongs to.
fn protocol_by_first_line() -> Result<()> {
    // As every later line: any bytes, and an over-long line skipped, never held (the
    // protocol then says so).
    let first = shishi::session::io::read_line(&mut std::io::stdin().lock());
    match first {
        None => {}
        Some(Input::Line(line)) if line.trim() == "xboard" => {
            shishi::cecp::run(Some(Input::Line(line)))?
        }
        first => shishi::usi::run(first)?,
    }
    Ok(())
}
