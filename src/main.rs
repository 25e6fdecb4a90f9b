//! The `shishi` binary: logging to stderr, the command line, and dispatch. With no
//! subcommand it speaks a protocol on stdin/stdout: USI, or XBoard when the first line is
//! `xboard`.

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use shishi::position::Position;
use shishi::variant::Variant;
use std::io::BufRead;
use std::io::Write;
use std::time::Instant;

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
    },
}

fn main() -> Result<()> {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Perft {
            depth,
            variant,
            sfen,
            moves,
            divide: _,
            no_divide,
            threads,
        }) => run_perft(depth, &variant, &sfen, &moves, !no_divide, threads),
        Some(Command::Bench {
            depth,
            threads,
            hash,
        }) => run_bench(depth, threads, hash),
        Some(Command::Xboard) => {
            shishi::cecp::run(None);
            Ok(())
        }
        Some(Command::Usi) => {
            shishi::usi::run(None);
            Ok(())
        }
        None => protocol_by_first_line(),
    }
}

fn run_perft(
    depth: u32,
    variant: &str,
    sfen: &str,
    moves: &str,
    divide: bool,
    threads: usize,
) -> Result<()> {
    let variant = Variant::by_name(variant)
        .with_context(|| format!("unknown variant '{variant}' (chushogi, shoshogi)"))?;
    let mut pos = Position::from_sfen(variant, sfen)?;
    pos.play_usi_moves(moves.split_whitespace())?;
    let start = Instant::now();
    let lines = shishi::perft::divide(&pos, depth, threads.max(1));
    let total: u64 = if depth == 0 {
        1
    } else {
        lines.iter().map(|(_, n)| n).sum()
    };
    let elapsed = start.elapsed();
    let mut out = std::io::stdout().lock();
    if divide {
        for (mv, n) in &lines {
            writeln!(out, "{mv} {n}")?;
        }
    }
    writeln!(out, "nodes {total}")?;
    out.flush()?;
    let secs = elapsed.as_secs_f64();
    log::info!(
        "perft {depth}: {total} nodes in {secs:.3} s ({:.0} nodes/s, {threads} thread(s))",
        total as f64 / secs.max(1e-9)
    );
    Ok(())
}

fn run_bench(depth: i32, threads: usize, hash: usize) -> Result<()> {
    let (nodes, time) = shishi::bench::run(depth, threads, hash, |line| {
        log::info!(
            "position {:2}: {:>10} nodes {:>8.3} s  bestmove {}",
            line.index + 1,
            line.nodes,
            line.time.as_secs_f64(),
            line.best
        );
    });
    let nps = (nodes as f64 / time.as_secs_f64().max(1e-9)) as u64;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{nodes} nodes {nps} nps")?;
    out.flush()?;
    Ok(())
}

/// Reads the first line and picks the protocol it belongs to.
fn protocol_by_first_line() -> Result<()> {
    let mut first = String::new();
    if std::io::stdin().lock().read_line(&mut first)? == 0 {
        return Ok(());
    }
    if first.trim() == "xboard" {
        shishi::cecp::run(Some(first));
    } else {
        shishi::usi::run(Some(first));
    }
    Ok(())
}
