//! `shishi tune`: Texel tuning's commands (extract training lines, fit the evaluation, list
//! the search constants) from the command line to `shishi::tune`.

use anyhow::{Context, Result};
use clap::Subcommand;
use shishi::variant::Variant;
use std::io::Write;
use std::time::Instant;

#[derive(Subcommand)]
pub enum TuneCommand {
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
    /// a variant's `EVAL` in src/variant/ (progress on stderr).
    Fit {
        /// A file of training lines: `RESULT VARIANT SFEN`, RESULT sente's score from 0 to 1
        /// (a game's result, or an expected score as scripts/measure/label.py writes).
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

pub fn run_tune(command: TuneCommand) -> Result<()> {
    match command {
        TuneCommand::SearchParams { variant } => {
            use shishi::search::params::SearchParams;
            let variant = Variant::by_name(&variant)
                .with_context(|| format!("unknown variant '{variant}' (chushogi, shoshogi)"))?;
            let params = SearchParams::for_variant(variant);
            for &(name, _, min, max) in SearchParams::TABLE {
                let value = params.get(name).expect("a name of the table");
                let _ = writeln!(std::io::stdout(), "{name} {value} {min} {max}");
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
pub fn run_tune_extract(
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
pub fn run_tune_fit(
    positions: &std::path::Path,
    options: &shishi::tune::TuneOptions,
    validation_percent: usize,
) -> Result<()> {
    use shishi::eval::{params::Resolved, Evaluator};
    use shishi::tune;
    let text = std::fs::read_to_string(positions)
        .with_context(|| format!("cannot read {}", positions.display()))?;
    let data = tune::Dataset::parse(&text, &positions.display().to_string())?;
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
    shishi::tell!(
        "{} training and {} validation positions ({}); scale {scale:.4}; error {start_error:.6} / validation {start_validation:.6}",
        train.len(),
        check.len(),
        variant.name(),
    );
    let started = Instant::now();
    let tuned = tune::tune(&train, &start, scale, options, |p| {
        shishi::tell!(
            "pass {}: error {:.6}, validation {:.6}, {} changed, {:.0} s",
            p.pass,
            p.error,
            error_of(&p.params, &check),
            p.changed,
            started.elapsed().as_secs_f64()
        );
    });
    let _ = writeln!(
        std::io::stdout(),
        "// shishi tune fit {} (scale {scale:.4}, {} positions): error {start_error:.6} -> {:.6}, validation {start_validation:.6} -> {:.6}",
        positions.display(),
        train.len(),
        error_of(&tuned, &train),
        error_of(&tuned, &check)
    );
    let _ = write!(std::io::stdout(), "{}", tuned.to_rust(variant));
    Ok(())
}
