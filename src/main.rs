//! The `shishi` binary: logging to stderr, the command line, and dispatch. With no
//! subcommand it speaks a protocol on stdin/stdout: USI, or XBoard when the first line is
//! `xboard`.

mod commands;

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
    /// Play a match between engines (USI or XBoard protocol), with our rules as arbiter.
    #[cfg(not(target_family = "wasm"))]
    Match(Box<commands::match_command::MatchArgs>),
    /// Analyse positions or whole games (SFEN lines, JSON lines, KIF) on all cores.
    Analyse(Box<AnalyseArgs>),
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
    /// Texel tuning of the evaluation: training positions from match records, then a fit.
    #[command(subcommand)]
    Tune(TuneCommand),
}

#[derive(Subcommand)]
enum TuneCommand {
    /// Print training lines (`RESULT VARIANT SFEN`, quiet positions) of match records
    /// (JSON lines of `shishi match --jsonl`).
    Extract {
        /// Record files.
        #[arg(required = true)]
        records: Vec<std::path::PathBuf>,
        /// Plies at the start of a game never taken (besides the book's).
        #[arg(long, default_value_t = 16)]
        skip_plies: usize,
        /// Take every n-th ply only.
        #[arg(long, default_value_t = 1)]
        every: usize,
    },
    /// Fit the evaluation parameters to training lines; prints them as the Rust text of
    /// src/eval/params.rs (progress on stderr).
    Fit {
        /// A file of training lines: `RESULT VARIANT SFEN`, RESULT sente's score from 0 to 1
        /// (a game's result, or an expected score as scripts/label.py writes).
        positions: std::path::PathBuf,
        /// At most this many passes over the parameters.
        #[arg(long, default_value_t = 30)]
        passes: usize,
        /// Keep a kind's parameters unless the positions hold this many pieces of it.
        #[arg(long, default_value_t = 2000)]
        min_occurrences: usize,
        /// Hold the last N percent of the positions (whole games) out as a validation set
        /// (its error is reported); 0 to 99, so that some positions are left to fit.
        #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u8).range(0..=99))]
        validation_percent: u8,
    },
    /// Print the search constants a tuner may set (`setoption name Tune_NAME value N`):
    /// `NAME DEFAULT MIN MAX` per line, DEFAULT being the variant's own value.
    SearchParams {
        /// chushogi or shoshogi.
        #[arg(long, default_value = "chushogi")]
        variant: String,
    },
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
            eprintln!("error: {e:#}");
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
        }) => run_perft(depth, &variant, &sfen, &moves, !no_divide, threads),
        Some(Command::Bench {
            depth,
            threads,
            hash,
        }) => run_bench(depth, threads, hash),
        #[cfg(not(target_family = "wasm"))]
        Some(Command::Match(args)) => commands::match_command::run_match(*args),
        Some(Command::Tune(command)) => run_tune(command),
        Some(Command::Analyse(args)) => run_analyse(*args),
        Some(Command::Xboard) => Ok(shishi::cecp::run(None)?),
        Some(Command::Usi) => Ok(shishi::usi::run(None)?),
        None => protocol_by_first_line(),
    }
}

fn run_tune(command: TuneCommand) -> Result<()> {
    match command {
        TuneCommand::SearchParams { variant } => {
            use shishi::search::params::SearchParams;
            let variant = Variant::by_name(&variant)
                .with_context(|| format!("unknown variant '{variant}' (chushogi, shoshogi)"))?;
            let params = SearchParams::for_variant(variant);
            for &(name, _, min, max) in SearchParams::TABLE {
                let value = params.get(name).expect("a name of the table");
                println!("{name} {value} {min} {max}");
            }
            Ok(())
        }
        TuneCommand::Extract {
            records,
            skip_plies,
            every,
        } => run_tune_extract(&records, shishi::tune::ExtractOptions { skip_plies, every }),
        TuneCommand::Fit {
            positions,
            passes,
            min_occurrences,
            validation_percent,
        } => {
            let options = shishi::tune::TuneOptions {
                max_passes: passes,
                min_occurrences,
            };
            run_tune_fit(&positions, &options, usize::from(validation_percent))
        }
    }
}

/// `shishi tune extract`: training lines of every record to stdout; a record that does not
/// read or replay is skipped with a warning naming its file and line.
fn run_tune_extract(
    records: &[std::path::PathBuf],
    options: shishi::tune::ExtractOptions,
) -> Result<()> {
    let (mut games, mut lines) = (0, 0);
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for path in records {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        for (n, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            let where_ = format!("{}:{}", path.display(), n + 1);
            let record: shishi::records::GameRecord = match serde_json::from_str(line) {
                Ok(r) => r,
                Err(e) => {
                    log::warn!("{where_}: not a game record ({e}); skipped");
                    continue;
                }
            };
            match shishi::tune::extract(&record, &options) {
                Ok(found) => {
                    games += 1;
                    lines += found.len();
                    for l in found {
                        writeln!(out, "{l}")?;
                    }
                }
                Err(e) => log::warn!("{where_}: {e}; skipped"),
            }
        }
    }
    out.flush()?;
    log::info!("{lines} training positions from {games} games");
    Ok(())
}

/// `shishi tune fit`: progress on stderr, the tuned tables (with a comment line saying how
/// they were made) on stdout.
fn run_tune_fit(
    positions: &std::path::Path,
    options: &shishi::tune::TuneOptions,
    validation_percent: usize,
) -> Result<()> {
    use shishi::eval::{params::Resolved, Evaluator};
    use shishi::tune;
    let text = std::fs::read_to_string(positions)
        .with_context(|| format!("cannot read {}", positions.display()))?;
    let data = tune::Dataset::parse(&text, &positions.display().to_string())
        .map_err(anyhow::Error::msg)?;
    let variant = data.variant;
    let (train, check) = data.split_tail(validation_percent);
    if train.is_empty() {
        anyhow::bail!(
            "{}: no training positions are left after holding {validation_percent}% out for validation",
            positions.display()
        );
    }
    let start = Resolved::of(variant);
    let scale = tune::fit_scale(&Evaluator::with_params(variant, &start), &train);
    let error_of = |params: &Resolved, set: &tune::Dataset| {
        tune::mean_error(&Evaluator::with_params(variant, params), set, scale)
    };
    let (start_error, start_validation) = (error_of(&start, &train), error_of(&start, &check));
    eprintln!(
        "{} training and {} validation positions ({}); scale {scale:.4}; error {start_error:.6} / validation {start_validation:.6}",
        train.len(),
        check.len(),
        variant.name(),
    );
    let started = Instant::now();
    let tuned = tune::tune(&train, &start, scale, options, |p| {
        eprintln!(
            "pass {}: error {:.6}, validation {:.6}, {} changed, {:.0} s",
            p.pass,
            p.error,
            error_of(&p.params, &check),
            p.changed,
            started.elapsed().as_secs_f64()
        );
    });
    println!(
        "// shishi tune fit {} (scale {scale:.4}, {} positions): error {start_error:.6} -> {:.6}, validation {start_validation:.6} -> {:.6}",
        positions.display(),
        train.len(),
        error_of(&tuned, &train),
        error_of(&tuned, &check)
    );
    print!("{}", tuned.to_rust(variant));
    Ok(())
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

/// `--shard K/N`: the K-th of N interleaved parts of a batch (records K, K + N, ...).
#[derive(Clone, Copy, Debug)]
struct Shard {
    k: usize,
    n: usize,
}

impl std::str::FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> Result<Shard, String> {
        let bad = || format!("'{text}' is not K/N with 1 <= K <= N (for example 2/8)");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let (k, n): (usize, usize) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if k == 0 || k > n {
            return Err(bad());
        }
        Ok(Shard { k, n })
    }
}

impl Shard {
    /// The records of this shard, in input order (after the ids are made unique, so that
    /// every shard names a record as a whole run would).
    fn select<T>(self, records: Vec<T>) -> Vec<T> {
        records
            .into_iter()
            .enumerate()
            .filter(|(i, _)| i % self.n == self.k - 1)
            .map(|(_, r)| r)
            .collect()
    }
}

/// `shishi analyse`'s search per position when no limit is given: about a quarter of a
/// second on one core, so that a 300-ply game takes a few minutes (depth 10 took about
/// 1.7 s a ply, ten minutes a game), and the same result every run.
const DEFAULT_ANALYSIS_NODES: u64 = 200_000;

/// The threads to use for a requested count of `what` (search threads, analysis workers,
/// perft threads): at most as many per core as the engine session allows for `Threads`
/// (more only slow the work down, and 100,000 asked for would start them all); a cut is
/// logged.
fn capped_threads(what: &str, requested: usize) -> usize {
    let usable = shishi::session::usable_threads(requested);
    if usable != requested {
        log::warn!(
            "{requested} {what} asked for; using {usable} (at most {} per core)",
            shishi::session::MAX_THREADS_PER_CORE
        );
    }
    usable
}

fn run_bench(depth: i32, threads: usize, hash: usize) -> Result<()> {
    let threads = capped_threads("search threads", threads);
    let (nodes, time) = shishi::bench::run(depth, threads, hash, |line| {
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

/// Reads the first line and picks the protocol it belongs to.
fn protocol_by_first_line() -> Result<()> {
    // Bytes, not a String: a first line that is not UTF-8 is still a line (and an error
    // message from the protocol, not a failed start).
    let mut bytes = Vec::new();
    if std::io::stdin().lock().read_until(b'\n', &mut bytes)? == 0 {
        return Ok(());
    }
    let first = String::from_utf8_lossy(&bytes)
        .trim_end_matches(['\r', '\n'])
        .to_string();
    if first.trim() == "xboard" {
        shishi::cecp::run(Some(first))?;
    } else {
        shishi::usi::run(Some(first))?;
    }
    Ok(())
}

/// Where the results go when stdout is a terminal and no `--output` is given: in `dir` (the
/// working folder), named after the input (`game.analysis.jsonl`, `analysis.jsonl` for
/// stdin), never an existing file (`game.analysis-2.jsonl`, ...); the file is made empty.
fn terminal_output_path(input: &str, dir: &std::path::Path) -> Result<std::path::PathBuf> {
    let stem = match input {
        "-" => "analysis".to_string(),
        path => std::path::Path::new(path)
            .file_stem()
            .map_or("analysis".into(), |s| {
                format!("{}.analysis", s.to_string_lossy())
            }),
    };
    for n in 1.. {
        let name = if n == 1 {
            format!("{stem}.jsonl")
        } else {
            format!("{stem}-{n}.jsonl")
        };
        let path = dir.join(name);
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
        {
            Ok(_) => return Ok(path),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => anyhow::bail!("{}: {e} (name a file with --output)", path.display()),
        }
    }
    unreachable!("some number is free")
}

/// Whether two paths name one file (both exist and resolve to the same place, or are
/// written alike).
fn same_file(a: &std::path::Path, b: &std::path::Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// `shishi analyse` arguments.
#[derive(clap::Args)]
struct AnalyseArgs {
    /// chushogi or shoshogi: the variant of every KIF, and of SFEN and JSON records that
    /// do not say (default: chushogi; a KIF's moves say which variant they are).
    #[arg(long)]
    variant: Option<String>,
    /// Input file (SFEN lines, JSON lines or KIF); `-` or nothing for stdin.
    #[arg(long, default_value = "-")]
    input: String,
    /// Output file for JSON lines (appended); stdout if not given.
    #[arg(long)]
    output: Option<std::path::PathBuf>,
    /// Analyse only every N-th record, starting with the K-th (K/N, 1 <= K <= N): N runs
    /// with K = 1..N split a batch across machines, and their outputs concatenated are the
    /// whole run's.
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    /// Search depth per position (1 to 120).
    #[arg(long, conflicts_with_all = ["nodes", "movetime"],
          value_parser = clap::value_parser!(i32).range(1..=120))]
    depth: Option<i32>,
    /// Nodes per position (with one thread: the same result every run); the default
    /// when no limit is given is 200000.
    #[arg(long, conflicts_with = "movetime", value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// Milliseconds per position.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    movetime: Option<u64>,
    /// Best lines per position (1 to 64).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    multipv: u16,
    /// Positions analysed at once (default: all cores).
    #[arg(long)]
    workers: Option<usize>,
    /// Search threads per position (for deep single analyses).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Hash per search, MB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// Skip what the output file already holds.
    #[arg(long, requires = "output")]
    resume: bool,
    /// In games, start from this ply.
    #[arg(long, default_value_t = 1)]
    from_ply: usize,
    /// Winning chances given away (hundredths of the -1..+1 scale, as lichess judges; 1 to
    /// 200) that make an inaccuracy.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(i32).range(1..=200))]
    inaccuracy: i32,
    /// Winning chances given away that make a mistake (at least --inaccuracy).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(i32).range(1..=200))]
    mistake: i32,
    /// Winning chances given away that make a blunder (at least --mistake).
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(i32).range(1..=200))]
    blunder: i32,
    /// Write each analysed game as an annotated KIF file in this folder.
    #[arg(long)]
    kif: Option<std::path::PathBuf>,
    /// Write each analysed game as an HTML report (graph, board, moves, summary; no network
    /// needed) in this folder.
    #[arg(long, value_name = "DIR")]
    report: Option<std::path::PathBuf>,
    /// Also prove or disprove a mate in each position with the mate solver, this many
    /// milliseconds each (a "mate" field in the output, a note in annotated KIF).
    #[arg(long, value_name = "MS")]
    mate: Option<u64>,
}

fn run_analyse(a: AnalyseArgs) -> Result<()> {
    use shishi::analyse::{self, input, Settings, Thresholds};
    use shishi::search::Limits;
    use std::io::IsTerminal;
    use std::io::Read;
    if !(a.inaccuracy <= a.mistake && a.mistake <= a.blunder) {
        anyhow::bail!(
            "the thresholds must rise: --inaccuracy {} <= --mistake {} <= --blunder {}",
            a.inaccuracy,
            a.mistake,
            a.blunder
        );
    }
    if let Some(output) = &a.output {
        if a.input != "-" && same_file(std::path::Path::new(&a.input), output) {
            anyhow::bail!(
                "--output {} is the input file: the results would be appended to it (name another file)",
                output.display()
            );
        }
    }
    let explicit_variant = a.variant.is_some();
    let variant_name = a.variant.as_deref().unwrap_or("chushogi");
    let variant = Variant::by_name(variant_name)
        .with_context(|| format!("unknown variant '{variant_name}' (chushogi, shoshogi)"))?;
    let (bytes, name) = if a.input == "-" {
        let mut bytes = Vec::new();
        std::io::stdin().read_to_end(&mut bytes)?;
        (bytes, "<stdin>".to_string())
    } else {
        (
            std::fs::read(&a.input).with_context(|| format!("reading {}", a.input))?,
            a.input.clone(),
        )
    };
    let (text, mut errors) = input::decode(&bytes, &name);
    let (mut jobs, parse_errors) = input::parse(&text, &name, variant, explicit_variant);
    errors.extend(parse_errors);
    for e in errors.iter().chain(&input::make_ids_unique(&mut jobs)) {
        log::warn!("{e}");
    }
    if let Some(shard) = a.shard {
        jobs = shard.select(jobs);
    }
    let no_limit = a.depth.is_none() && a.nodes.is_none() && a.movetime.is_none();
    let limits = Limits {
        depth: a.depth,
        nodes: a.nodes.or(no_limit.then_some(DEFAULT_ANALYSIS_NODES)),
        movetime: a.movetime.map(std::time::Duration::from_millis),
        ..Limits::default()
    };
    let settings = Settings {
        limits,
        multipv: usize::from(a.multipv),
        workers: capped_threads(
            "workers",
            a.workers
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        ),
        threads: capped_threads("search threads", a.threads),
        hash_mb: a.hash.max(1),
        from_ply: a.from_ply,
        thresholds: Thresholds {
            inaccuracy: a.inaccuracy,
            mistake: a.mistake,
            blunder: a.blunder,
        },
        kif_dir: a.kif,
        report_dir: a.report,
        progress: true,
        mate: a.mate.map(std::time::Duration::from_millis),
    };
    let done = match (&a.output, a.resume) {
        (Some(path), true) => analyse::done_results(path).map_err(|e| {
            anyhow::anyhow!("{e} (--resume reads the earlier results; nothing was analysed)")
        })?,
        _ => Default::default(),
    };
    // On a terminal the JSON lines would bury the progress: they go to a file of their own.
    let output = match &a.output {
        Some(path) => Some(path.clone()),
        None if std::io::stdout().is_terminal() => {
            let path = terminal_output_path(&a.input, std::path::Path::new(""))?;
            eprintln!(
                "results (JSON lines) go to {} (--output FILE to name the file; pipe stdout to read them there)",
                path.display()
            );
            Some(path)
        }
        None => None,
    };
    let sink: Box<dyn Write + Send> = match &output {
        Some(path) => Box::new(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .with_context(|| format!("opening {}", path.display()))?,
        ),
        None => Box::new(std::io::stdout()),
    };
    let out = std::sync::Mutex::new(sink);
    let start = Instant::now();
    let outcome = analyse::run(&jobs, &settings, &out, &done)
        .map_err(|e| anyhow::anyhow!("{e} (try a smaller --hash)"))?;
    let secs = start.elapsed().as_secs_f64();
    log::info!(
        "{} records ({} skipped as malformed, {} results already there): {} searches in {secs:.1} s, {:.1} positions/s",
        jobs.len(),
        errors.len(),
        done.len(),
        outcome.searches,
        outcome.searches as f64 / secs.max(1e-9)
    );
    // The closing words, for a person: each game's figures and where everything went.
    if !outcome.games.is_empty() {
        eprint!("\n{}", outcome.table());
    }
    for file in &outcome.files {
        let kind = if file.extension().is_some_and(|e| e == "html") {
            "report (open it in a browser)"
        } else {
            "annotated KIF"
        };
        eprintln!("{kind}: {}", file.display());
    }
    if let Some(path) = &output {
        eprintln!("results: {}", path.display());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_on_a_terminal_go_to_a_new_file_named_after_the_input() {
        // Issue 49: on a terminal, JSON flooded the progress line.
        let dir = std::env::temp_dir().join(format!("shishi-main-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let first = terminal_output_path("some/where/game.kif", &dir).unwrap();
        assert_eq!(first, dir.join("game.analysis.jsonl"));
        std::fs::write(&first, "kept").unwrap();
        let second = terminal_output_path("game.kif", &dir).unwrap();
        assert_eq!(second, dir.join("game.analysis-2.jsonl"));
        assert_eq!(std::fs::read_to_string(&first).unwrap(), "kept");
        assert_eq!(
            terminal_output_path("-", &dir).unwrap(),
            dir.join("analysis.jsonl")
        );
    }
}
