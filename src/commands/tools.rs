//! `shishi perft` and `shishi bench`: the rules counted against the references, and the
//! fixed search whose node count is the bench signature.

use super::capped_threads;
use anyhow::{Context, Result};
use shishi::position::Position;
use shishi::search::params::GivenParams;
use shishi::variant::Variant;
use std::io::Write;
use std::time::Instant;

pub fn run_perft(
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
    let threads = capped_threads("perft threads", threads);
    let lines = shishi::perft::divide(&pos, depth, threads);
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

pub fn run_bench(depth: i32, threads: usize, hash: usize, params: &[String]) -> Result<()> {
    let threads = capped_threads("search threads", threads);
    let mut given = GivenParams::default();
    for setting in params {
        let (name, value) = setting
            .split_once('=')
            .ok_or_else(|| anyhow::anyhow!("--param {setting}: expected NAME=VALUE"))?;
        let value: i64 = value
            .trim()
            .parse()
            .map_err(|_| anyhow::anyhow!("--param {setting}: {value:?} is not a whole number"))?;
        given
            .set(name.trim(), value)
            .map_err(|e| anyhow::anyhow!("--param {setting}: {e}"))?;
    }
    let (nodes, time) = shishi::bench::run(depth, threads, hash, &given, |line| {
        log::info!(
            "position {:2}: {:>10} nodes {:>8.3} s  bestmove {}",
            line.index + 1,
            line.nodes,
            line.time.as_secs_f64(),
            line.best
        );
    })
    .map_err(|e| anyhow::anyhow!("{e} (try a smaller --hash)"))?;
    let nps = (nodes as f64 / time.as_secs_f64().max(1e-9)) as u64;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{nodes} nodes {nps} nps")?;
    out.flush()?;
    Ok(())
}
