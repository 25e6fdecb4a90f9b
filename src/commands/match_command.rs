//! `shishi match`: its arguments and its flow, from the command line to the match runner
//! (`shishi::tournament`, which runs engines as child processes: not in a WebAssembly
//! build).

use anyhow::{Context, Result};
use shishi::tournament::time_control::{MAX_MOVETIME_MS, MAX_TIME_MARGIN_MS};
use shishi::variant::Variant;
use std::io::Write;

/// `shishi match` arguments (spellings as cutechess-cli and fastchess users expect).
#[derive(clap::Args)]
pub struct MatchArgs {
    /// An engine (two or more): cmd=PATH, then any of proto=usi|cecp, name=NAME, arg=ARG,
    /// option.NAME=VALUE and tc=BASE+INC, comma-separated. proto is usi by default (an
    /// XBoard engine such as HaChu needs proto=cecp); name defaults to the file name; arg and
    /// option are repeatable; option.NAME=VALUE is a USI setoption (for CECP an option,
    /// memory or cores command); tc gives this engine its own Fischer clock (time odds).
    #[arg(long = "engine", required = true)]
    engines: Vec<String>,
    /// chushogi or shoshogi.
    #[arg(long, default_value = "chushogi")]
    variant: String,
    /// Games per pairing.
    #[arg(long, default_value_t = 2)]
    games: usize,
    /// Games played at once (1 to 256).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    concurrency: u16,
    /// Fischer clock: BASE+INC in seconds, e.g. 60+1.
    #[arg(long, conflicts_with_all = ["byoyomi", "movetime", "nodes"])]
    tc: Option<String>,
    /// Byoyomi clock: MAIN+BYOYOMI in seconds, e.g. 10+1.
    #[arg(long, conflicts_with_all = ["movetime", "nodes"])]
    byoyomi: Option<String>,
    /// Fixed time per move in ms (1 to a week).
    #[arg(long, conflicts_with = "nodes",
          value_parser = clap::value_parser!(u64).range(1..=MAX_MOVETIME_MS))]
    movetime: Option<u64>,
    /// Fixed nodes per move (USI engines; 1 or more).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// Openings: one per line, an SFEN [moves ...] or USI moves from the start.
    #[arg(long)]
    openings: Option<std::path::PathBuf>,
    /// Play each opening twice, colours swapped.
    #[arg(long)]
    repeat: bool,
    /// The first engine plays every other engine (instead of a round robin).
    #[arg(long)]
    gauntlet: bool,
    /// Stop when an SPRT decides: elo0=0,elo1=5,alpha=0.05,beta=0.05,min_games=40; add
    /// carry=W-L-D to count an earlier run's games of the same test with this match's.
    #[arg(long)]
    sprt: Option<String>,
    /// JSON-lines record file (appended).
    #[arg(long)]
    jsonl: Option<std::path::PathBuf>,
    /// Continue the match recorded in the --jsonl file (same arguments): its games count,
    /// and only the scheduled games it lacks are played.
    #[arg(long, requires = "jsonl")]
    resume: bool,
    /// Folder for a KIF file per game.
    #[arg(long)]
    kif: Option<std::path::PathBuf>,
    /// PGN file (appended).
    #[arg(long)]
    pgn: Option<std::path::PathBuf>,
    /// Plies after which a game is drawn (0: no limit but the rules').
    #[arg(long, default_value_t = 1000)]
    max_plies: usize,
    /// Hash memory in MB for each XBoard engine that asks for it (feature memory=1), sent
    /// as XBoard does with `memory N` unless its --engine has option.memory; XBoard engines
    /// that offer smp=1 are sent `cores 1` likewise. USI engines keep their own hash unless
    /// given option.USI_Hash.
    #[arg(long, default_value_t = shishi::tournament::engine::DEFAULT_HASH_MB,
          value_parser = clap::value_parser!(u64).range(1..=65536))]
    hash: u64,
    /// Milliseconds an engine may go over its clock before it loses on time (0 to an hour).
    #[arg(long, default_value_t = 100,
          value_parser = clap::value_parser!(u64).range(0..=MAX_TIME_MARGIN_MS))]
    timemargin: u64,
}

pub fn run_match(a: MatchArgs) -> Result<()> {
    use shishi::tournament::{
        self,
        engine::EngineSpec,
        game::{GameSettings, TimeControl},
        stats::Sprt,
        MatchConfig,
    };
    let variant = Variant::by_name(&a.variant)
        .with_context(|| format!("unknown variant '{}' (chushogi, shoshogi)", a.variant))?;
    let engines = a
        .engines
        .iter()
        .map(|e| {
            EngineSpec::parse(e).map(|spec| EngineSpec {
                hash_mb: a.hash,
                ..spec
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    anyhow::ensure!(engines.len() >= 2, "a match needs two --engine or more");
    let tc = match (&a.tc, &a.byoyomi, a.movetime, a.nodes) {
        (Some(t), _, _, _) => TimeControl::fischer(t)?,
        (_, Some(b), _, _) => TimeControl::byoyomi(b)?,
        (_, _, Some(ms), _) => TimeControl::MoveTime(ms),
        (_, _, _, Some(n)) => TimeControl::Nodes(n),
        _ => TimeControl::Fischer {
            base_ms: 10_000,
            inc_ms: 100,
        },
    };
    let openings = match &a.openings {
        Some(path) => {
            // Read as analyse reads its inputs: a line that is not text is reported by
            // its number and skipped, not the whole book refused.
            let bytes =
                std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
            let name = path.display().to_string();
            let (text, undecoded) = shishi::records::decode_text(&bytes, &name);
            let (openings, errors) = tournament::openings::parse(variant, &text, &name);
            for e in undecoded.iter().chain(&errors) {
                log::warn!("{e}");
            }
            anyhow::ensure!(
                !openings.is_empty(),
                "{}: no usable opening",
                path.display()
            );
            openings
        }
        None => Vec::new(),
    };
    let sprt = a.sprt.as_deref().map(Sprt::parse).transpose()?;
    let config = MatchConfig {
        engines,
        settings: GameSettings {
            variant,
            tc,
            max_plies: a.max_plies,
            time_margin: std::time::Duration::from_millis(a.timemargin),
            live_progress: a.concurrency == 1
                && std::io::IsTerminal::is_terminal(&std::io::stderr()),
        },
        games: a.games,
        concurrency: usize::from(a.concurrency),
        openings,
        repeat: a.repeat,
        gauntlet: a.gauntlet,
        sprt,
        jsonl: a.jsonl,
        resume: a.resume,
        kif_dir: a.kif,
        pgn: a.pgn,
    };
    let summary = tournament::run(config)?;
    let mut out = std::io::stdout().lock();
    write!(out, "{}", tournament::table(&summary))?;
    out.flush()?;
    // Forfeits (a crash, no answer, an illegal move, time) make the results doubtful: the
    // exit code says so, for scripts.
    let forfeits: u32 = summary.standings.iter().map(|s| s.forfeits).sum();
    if forfeits > 0 {
        return Err(anyhow::Error::new(ForfeitsHappened(forfeits)));
    }
    Ok(())
}

/// A match finished, but games were lost by forfeit: exit code [`FORFEIT_EXIT_CODE`].
#[derive(Debug)]
pub struct ForfeitsHappened(u32);

impl std::fmt::Display for ForfeitsHappened {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(
            f,
            "{} game(s) ended by forfeit (the reasons are in the records); exit code {FORFEIT_EXIT_CODE}",
            self.0
        )
    }
}

impl std::error::Error for ForfeitsHappened {}

/// The exit code of a match with forfeits (1 is any other error).
pub const FORFEIT_EXIT_CODE: u8 = 3;
