//! `shishi analyse`: its arguments and its flow, from the command line to the library's
//! batch analysis (`shishi::analyse`): reading the input, checking the settings, where the
//! results go, and the closing words.

use super::capped_threads;
use anyhow::{Context, Result};
use shishi::variant::Variant;
use std::io::Write;
use std::time::Instant;

/// `--shard K/N`: the K-th of N interleaved parts of a batch (records K, K + N, ...).
#[derive(Clone, Copy, Debug)]
pub struct Shard {
    k: usize,
    n: usize,
}

/// A `--shard` value that is not `K/N`.
#[derive(Debug, thiserror::Error)]
#[error("'{0}' is not K/N with 1 <= K <= N (for example 2/8)")]
pub struct BadShard(String);

impl std::str::FromStr for Shard {
    type Err = BadShard;

    fn from_str(text: &str) -> Result<Shard, BadShard> {
        let bad = || BadShard(text.to_string());
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

/// Where the results go when stdout is a terminal and no `--output` is given: in `dir` (the
/// working folder), named after the input (`game.analysis.jsonl`, `analysis.jsonl` for
/// stdin), never an existing file (`game.analysis-2.jsonl`, ...); the file is made empty.
pub fn terminal_output_path(input: &str, dir: &std::path::Path) -> Result<std::path::PathBuf> {
    use shishi::analyse::NewFile;
    let stem = match input {
        "-" => "analysis".to_string(),
        path => std::path::Path::new(path)
            .file_stem()
            .map_or("analysis".into(), |s| {
                format!("{}.analysis", s.to_string_lossy())
            }),
    };
    match shishi::analyse::create_numbered(dir, &stem, "jsonl", |_| false) {
        Ok(file) => Ok(match file {
            NewFile::Created(path, _) | NewFile::Ours(path) => path,
        }),
        Err((path, e)) => anyhow::bail!("{}: {e} (name a file with --output)", path.display()),
    }
}

/// Whether two paths name one file (both exist and resolve to the same place, or are
/// written alike).
pub fn same_file(a: &std::path::Path, b: &std::path::Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// `shishi analyse` arguments.
#[derive(clap::Args)]
pub struct AnalyseArgs {
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
    #[arg(long, default_value_t = shishi::analyse::AnalysisSettings::DEFAULT_HASH_MB)]
    hash: usize,
    /// Skip what the output file already holds.
    #[arg(long, requires = "output")]
    resume: bool,
    /// In games, start from this ply.
    #[arg(long, default_value_t = 1)]
    from_ply: usize,
    /// Winning chances given away (hundredths of the -1..+1 scale, as lichess judges; 1 to
    /// 200) that make an inaccuracy.
    #[arg(long, default_value_t = shishi::analyse::Thresholds::DEFAULT.inaccuracy, value_parser = clap::value_parser!(i32).range(1..=200))]
    inaccuracy: i32,
    /// Winning chances given away that make a mistake (at least --inaccuracy).
    #[arg(long, default_value_t = shishi::analyse::Thresholds::DEFAULT.mistake, value_parser = clap::value_parser!(i32).range(1..=200))]
    mistake: i32,
    /// Winning chances given away that make a blunder (at least --mistake).
    #[arg(long, default_value_t = shishi::analyse::Thresholds::DEFAULT.blunder, value_parser = clap::value_parser!(i32).range(1..=200))]
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

pub fn run_analyse(a: AnalyseArgs) -> Result<()> {
    check_arguments(&a)?;
    let (jobs, malformed) = read_jobs(&a)?;
    check_from_ply(&jobs, a.from_ply)?;
    let done = match (&a.output, a.resume) {
        (Some(path), true) => shishi::analyse::done_results(path).map_err(|e| {
            anyhow::anyhow!("{e} (--resume reads the earlier results; nothing was analysed)")
        })?,
        _ => Default::default(),
    };
    let (output, sink) = open_results(&a)?;
    let settings = settings_of(a);
    let out = std::sync::Mutex::new(sink);
    let start = Instant::now();
    let outcome = shishi::analyse::run(&jobs, &settings, &out, &done).map_err(|e| match e {
        shishi::analyse::AnalyseError::NoMemory(_) => anyhow::anyhow!("{e} (try a smaller --hash)"),
        e => e.into(),
    })?;
    let secs = start.elapsed().as_secs_f64();
    log::info!(
        "{} records ({malformed} skipped as malformed, {} results already there): {} searches in {secs:.1} s, {:.1} positions/s",
        jobs.len(),
        done.len(),
        outcome.searches,
        outcome.searches as f64 / secs.max(1e-9)
    );
    say_where_everything_went(&outcome, output.as_deref());
    Ok(())
}

/// Arguments that cannot work together are refused before anything is read.
fn check_arguments(a: &AnalyseArgs) -> Result<()> {
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
    Ok(())
}

/// Says which games `--from-ply` leaves nothing of, and refuses a run that it leaves
/// nothing of at all (a ply past the end of every game was taken and did nothing).
fn check_from_ply(jobs: &[shishi::analyse::input::Job], from_ply: usize) -> Result<()> {
    use shishi::analyse::input::Job;
    let games: Vec<_> = jobs
        .iter()
        .filter_map(|j| match j {
            Job::Game(g) => Some(g),
            Job::Position(_) => None,
        })
        .collect();
    let short: Vec<_> = games
        .iter()
        .filter(|g| g.game.moves.len() < from_ply)
        .collect();
    for g in &short {
        log::warn!(
            "{}: {} plies; --from-ply {from_ply} leaves none of it to analyse",
            shishi::text::quoted(&g.id),
            g.game.moves.len()
        );
    }
    if !games.is_empty() && short.len() == jobs.len() {
        anyhow::bail!(
            "--from-ply {from_ply} is past the end of every game (the longest has {} plies); nothing was analysed",
            games.iter().map(|g| g.game.moves.len()).max().unwrap_or(0)
        );
    }
    Ok(())
}

/// The jobs of the input (a file or stdin; this shard's), and how many records were
/// skipped as malformed (each said on stderr).
fn read_jobs(a: &AnalyseArgs) -> Result<(Vec<shishi::analyse::input::Job>, usize)> {
    use shishi::analyse::input;
    use std::io::Read;
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
    let (text, mut errors) = shishi::records::decode_text(&bytes, &name);
    let (mut jobs, parse_errors) = input::parse(&text, &name, variant, explicit_variant);
    errors.extend(parse_errors);
    for e in errors.iter().chain(&input::make_ids_unique(&mut jobs)) {
        log::warn!("{e}");
    }
    if let Some(shard) = a.shard {
        jobs = shard.select(jobs);
    }
    Ok((jobs, errors.len()))
}

/// The run's settings from the command line (a node budget when no limit is given).
fn settings_of(a: AnalyseArgs) -> shishi::analyse::AnalysisSettings {
    use shishi::analyse::Thresholds;
    shishi::analyse::AnalysisSettings {
        limits: shishi::analyse::AnalysisSettings::limits(a.depth, a.nodes, a.movetime),
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
        task: None,
    }
}

/// Where the JSON result lines go: `--output`, else stdout, except on a terminal, where
/// they would bury the progress: then a file of their own, named after the input.
fn open_results(a: &AnalyseArgs) -> Result<(Option<std::path::PathBuf>, Box<dyn Write + Send>)> {
    use std::io::IsTerminal;
    let output = match &a.output {
        Some(path) => Some(path.clone()),
        None if std::io::stdout().is_terminal() => {
            let path = terminal_output_path(&a.input, std::path::Path::new(""))?;
            shishi::tell!(
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
    Ok((output, sink))
}

/// The closing words, for a person: each game's figures and where everything went.
fn say_where_everything_went(
    outcome: &shishi::analyse::RunSummary,
    output: Option<&std::path::Path>,
) {
    if !outcome.games.is_empty() {
        shishi::tell_part!("\n{}", outcome.table());
    }
    for file in &outcome.files {
        let kind = if file.extension().is_some_and(|e| e == "html") {
            "report (open it in a browser)"
        } else {
            "annotated KIF"
        };
        shishi::tell!("{kind}: {}", file.display());
    }
    if let Some(path) = output {
        shishi::tell!("results: {}", path.display());
    }
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
        let _ = std::fs::remove_dir_all(&dir);
    }
}
