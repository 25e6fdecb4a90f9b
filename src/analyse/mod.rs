//! `shishi analyse`: batch analysis of positions and games, on all cores.
//!
//! Positions are independent, so rayon runs them across `workers` threads, each search with
//! a small table of its own, cleared before every search so that results do not depend on
//! the order of work (one thread and a node limit give the same output every run). A game
//! is analysed ply by ply; each move is compared with the best move and judged (inaccuracy,
//! mistake, blunder). Output is JSON lines, written as results come; `--resume` skips what
//! the output file already holds. Games can also be written as annotated KIF files.

pub mod input;
pub mod judgement;
mod output;
mod progress;
pub mod report;
pub mod results;
mod search;
pub mod summary;
pub mod verdict;

pub use judgement::{winning_chances, Judgement, Thresholds};
pub use output::{after_move_view, done_results, kif_file_name, Done, ResultKey};
pub use progress::{GameSummary, Outcome};
pub use search::Analysis;

use crate::position::Position;
use crate::search::{Limits, Searcher};
use crate::variant::Variant;
use input::Job;
use judgement::as_cp;
use output::*;
use progress::*;
use rayon::prelude::*;
use results::{LineResult, PlyResult, PositionResult, ResultLine, ScoreValue, SummaryLine};
use search::{prove, pv_text, search};
use std::io::Write;
use std::sync::Mutex;

/// How to analyse.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Search limits of every position (depth, nodes or movetime).
    pub limits: Limits,
    /// Lines per position.
    pub multipv: usize,
    /// Positions analysed at once.
    pub workers: usize,
    /// Search threads per position.
    pub threads: usize,
    /// Hash per search, MB.
    pub hash_mb: usize,
    /// In games, start at this ply (1 = the first move).
    pub from_ply: usize,
    /// Judgement thresholds.
    pub thresholds: Thresholds,
    /// Where to write annotated KIF files (games only).
    pub kif_dir: Option<std::path::PathBuf>,
    /// Write each analysed game as an HTML report in this folder.
    pub report_dir: Option<std::path::PathBuf>,
    /// Show a progress bar on stderr.
    pub progress: bool,
    /// Time for the mate solver in each position (`--mate`); `None`: no mate solving.
    pub mate: Option<std::time::Duration>,
}

/// Analyses `jobs`, writing one JSON line per position or ply to `out`; `done` holds the
/// results of an earlier run (`--resume`), which are not searched again. Returns what the
/// run did (the searches, each game's summary, the files written), or an error before any
/// work when a searcher cannot be had.
pub fn run(
    jobs: &[Job],
    settings: &Settings,
    out: &Mutex<Box<dyn Write + Send>>,
    done: &Done,
) -> Result<Outcome, String> {
    // The table size is the user's: check once that it can be had at all.
    drop(Searcher::try_new(settings.hash_mb).map_err(|e| e.to_string())?);
    let total: usize = jobs
        .iter()
        .map(|job| match job {
            Job::Position { .. } => usize::from(
                job_position(job)
                    .is_ok_and(|(id, pos)| !done.contains_key(&position_key(id, &pos))),
            ),
            Job::Game { .. } => ply_keys(job)
                .unwrap_or_default()
                .iter()
                .skip(settings.from_ply.max(1) - 1)
                .filter(|k| !done.contains_key(k))
                .count(),
        })
        .sum();
    let bar = progress_bar(settings.progress, total);
    let lines = ProgressLines::new(
        settings.progress && bar.is_hidden(),
        total,
        PROGRESS_LINE_EVERY,
    );
    let emit = |line: &ResultLine| {
        let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
        match serde_json::to_string(line) {
            Ok(text) => {
                let _ = writeln!(w, "{text}");
            }
            Err(e) => log::error!("a result line could not be written: {e}"),
        }
        let _ = w.flush();
        // A game's summary line is no position.
        if !matches!(line, ResultLine::Summary(_)) {
            bar.inc(1);
            if let Some(line) = lines.one_more() {
                eprintln!("{line}");
            }
        }
    };
    let finished = Mutex::new(Outcome::default());
    let shared = Run {
        settings,
        done,
        emit: &emit,
        finished: &finished,
    };
    let work = |job: &Job| {
        let Ok(mut searcher) = Searcher::try_new(settings.hash_mb) else {
            log::error!("{}: no memory for the hash table; skipped", job.id());
            return;
        };
        let result = match job {
            Job::Position { .. } => analyse_position(&mut searcher, job, &shared),
            Job::Game { .. } => analyse_game(&mut searcher, job, &shared),
        };
        if let Err(e) = result {
            log::error!("{}: {e}; skipped", job.id());
        }
    };
    match rayon::ThreadPoolBuilder::new()
        .num_threads(settings.workers.max(1))
        .build()
    {
        Ok(pool) => pool.install(|| jobs.par_iter().for_each(work)),
        Err(_) => jobs.iter().for_each(work),
    }
    bar.finish_and_clear();
    let mut outcome = finished.into_inner().unwrap_or_else(|e| e.into_inner());
    outcome.searches = total;
    Ok(outcome)
}

/// The position a job starts from.
pub(crate) fn start_position(variant: &str, sfen: &str) -> Result<Position, String> {
    let variant = Variant::by_name(variant).ok_or_else(|| format!("unknown variant {variant}"))?;
    Position::from_sfen(variant, sfen).map_err(|e| e.to_string())
}

/// A position job's id and the position it analyses (its moves played).
pub(crate) fn job_position(job: &Job) -> Result<(&str, Position), String> {
    let Job::Position {
        id,
        variant,
        sfen,
        moves,
    } = job
    else {
        unreachable!("called for positions only");
    };
    let mut pos = start_position(variant, sfen)?;
    pos.play_usi_moves(moves.iter().map(String::as_str))
        .map_err(|e| e.to_string())?;
    Ok((id, pos))
}

/// The key of a position job's result.
pub(crate) fn position_key(id: &str, pos: &Position) -> ResultKey {
    ResultKey::Position {
        id: id.to_string(),
        sfen: pos.to_sfen(),
    }
}

/// The keys of a game job's plies' results, in order.
pub(crate) fn ply_keys(job: &Job) -> Result<Vec<ResultKey>, String> {
    let Job::Game {
        id,
        variant,
        sfen,
        moves,
        ..
    } = job
    else {
        unreachable!("called for games only");
    };
    let mut pos = start_position(variant, sfen)?;
    let mut keys = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        keys.push(ResultKey::Ply {
            id: id.clone(),
            ply: i as u64 + 1,
            sfen: pos.to_sfen(),
            played: text.clone(),
        });
        let mv = pos.parse_usi_path(text).map_err(|e| e.to_string())?;
        pos.make_move(mv);
    }
    Ok(keys)
}

/// What every job of a run shares: the settings, the earlier results, the writer.
pub(crate) struct Run<'a> {
    settings: &'a Settings,
    done: &'a Done,
    emit: &'a (dyn Fn(&ResultLine) + Sync),
    /// What the run has finished, for its closing words.
    finished: &'a Mutex<Outcome>,
}

pub(crate) fn analyse_position(
    searcher: &mut Searcher,
    job: &Job,
    run: &Run,
) -> Result<(), String> {
    let (settings, done, emit) = (run.settings, run.done, run.emit);
    let (id, pos) = job_position(job)?;
    if done.contains_key(&position_key(id, &pos)) {
        return Ok(());
    }
    let a = search(searcher, &pos, settings, settings.multipv);
    let multipv: Vec<LineResult> = a
        .lines
        .iter()
        .map(|l| LineResult {
            first: l.pv.first().map(|&m| pos.move_to_usi(m)),
            score: ScoreValue::of(l.score),
            depth: l.depth,
            pv: pv_text(&pos, &l.pv),
        })
        .collect();
    let best = a.lines.first();
    emit(&ResultLine::Position(PositionResult {
        id: id.to_string(),
        sfen: pos.to_sfen(),
        bestmove: best.and_then(|l| l.pv.first()).map(|&m| pos.move_to_usi(m)),
        score: best.map(|l| ScoreValue::of(l.score)),
        depth: best.map(|l| l.depth),
        nodes: a.nodes,
        pv: best.map(|l| pv_text(&pos, &l.pv)),
        multipv,
        mate: settings.mate.map(|t| prove(searcher, &pos, t)),
    }));
    Ok(())
}

pub(crate) fn analyse_game(searcher: &mut Searcher, job: &Job, run: &Run) -> Result<(), String> {
    let (settings, done, emit) = (run.settings, run.done, run.emit);
    let Job::Game {
        id,
        variant,
        sfen,
        moves,
        names,
        ..
    } = job
    else {
        unreachable!("called for games only");
    };
    let mut pos = start_position(variant, sfen)?;
    let mut comments = vec![String::new(); moves.len()];
    let mut last_to = None;
    let mut judged: Vec<summary::JudgedMove> = Vec::new();
    // Each ply's result line, fresh or from an earlier run, for the report.
    let mut ply_results: Vec<Option<PlyResult>> = vec![None; moves.len()];
    // The search of the next position, made by the last ply's verdict.
    let mut next_before: Option<Analysis> = None;
    for (i, text) in moves.iter().enumerate() {
        let ply = i + 1;
        let played = pos.parse_usi_path(text).map_err(|e| e.to_string())?;
        if ply >= settings.from_ply.max(1) {
            let key = ResultKey::Ply {
                id: id.clone(),
                ply: ply as u64,
                sfen: pos.to_sfen(),
                played: text.clone(),
            };
            if let Some(ResultLine::Ply(earlier)) = done.get(&key) {
                next_before = None;
                ply_results[i] = Some(earlier.clone());
                comments[i] =
                    comment_from_result(earlier, pos.variant(), last_to).unwrap_or_default();
                if let (Some(best), Some(played)) = (earlier.best_score, earlier.played_score) {
                    judged.push(summary::JudgedMove {
                        mover: pos.side_to_move(),
                        best: best.score(),
                        played: played.score(),
                        judgement: earlier.judgement,
                    });
                }
            } else {
                // The search of this position: the last ply's look after its move, if the
                // last ply was analysed here.
                let a = match next_before.take() {
                    Some(a) => a,
                    None => search(searcher, &pos, settings, settings.multipv),
                };
                if a.lines.is_empty() {
                    // No iteration finished (a very small budget): no score is known, and
                    // none is made up.
                    emit(&ResultLine::Ply(PlyResult {
                        id: id.clone(),
                        ply: ply as u64,
                        sfen: pos.to_sfen(),
                        played: text.clone(),
                        played_score: None,
                        bestmove: None,
                        best_score: None,
                        loss: None,
                        chances_lost: None,
                        judgement: None,
                        depth: Some(0),
                        nodes: a.nodes,
                        pv: None,
                        mate: None,
                    }));
                    last_to = Some(played.to());
                    pos.make_move(played);
                    continue;
                }
                let v = verdict::judge_ply(searcher, &pos, played, &a, settings);
                let (best_score, played_score) = (v.best.score, v.played.score);
                let loss = (as_cp(best_score) - as_cp(played_score)).max(0);
                judged.push(summary::JudgedMove {
                    mover: pos.side_to_move(),
                    best: best_score,
                    played: played_score,
                    judgement: v.judgement,
                });
                let mate = settings.mate.map(|t| prove(searcher, &pos, t));
                comments[i] = with_mate_note(
                    ply_comment(
                        &pos,
                        last_to,
                        played_score,
                        Some((&v.best.line[..], best_score)),
                        v.judgement,
                    ),
                    mate.as_ref(),
                );
                let result = PlyResult {
                    id: id.clone(),
                    ply: ply as u64,
                    sfen: pos.to_sfen(),
                    played: text.clone(),
                    played_score: Some(ScoreValue::of(played_score)),
                    bestmove: Some(pos.move_to_usi(v.best.mv)),
                    best_score: Some(ScoreValue::of(best_score)),
                    loss: Some(loss),
                    chances_lost: Some(v.chances_lost),
                    judgement: v.judgement,
                    depth: Some(a.lines[0].depth),
                    nodes: v.nodes,
                    pv: Some(pv_text(&pos, &v.best.line)),
                    mate,
                };
                emit(&ResultLine::Ply(result.clone()));
                ply_results[i] = Some(result);
                // Multipv asks for several lines of each position: the look after the move
                // has one, so it stands for the next position only with one line.
                if settings.multipv == 1 {
                    next_before = v.after;
                }
            }
        }
        last_to = Some(played.to());
        pos.make_move(played);
    }
    let summary = summary::summarise(&judged);
    let summary_json = serde_json::json!({ "sente": summary[0].json(), "gote": summary[1].json() });
    // The game's summary line (once: a resumed run that finds it keeps it).
    let game = game_fingerprint(variant, sfen, moves);
    let key = ResultKey::Summary {
        id: id.clone(),
        game: game.clone(),
    };
    if !done.contains_key(&key) {
        emit(&ResultLine::Summary(SummaryLine {
            id: id.clone(),
            game,
            summary: summary_json,
        }));
    }
    log::debug!(
        "{id}: {}",
        ["sente", "gote"]
            .iter()
            .zip(&summary)
            .map(|(side, s)| {
                let j = s.json();
                format!(
                    "{side} {} inaccuracies, {} mistakes, {} blunders, average loss {} cp, accuracy {}%",
                    s.inaccuracies, s.mistakes, s.blunders, j["averageCpLoss"], j["accuracy"]
                )
            })
            .collect::<Vec<_>>()
            .join("; ")
    );
    let result = game_result(job, &mut pos);
    let mut files = Vec::new();
    if let Some(dir) = &settings.kif_dir {
        files.push(write_game_kif(dir, job, result, comments, names)?);
    }
    if let Some(dir) = &settings.report_dir {
        files.push(write_game_report(
            dir,
            job,
            result,
            &ply_results,
            &summary,
            settings,
        )?);
    }
    let mut finished = run.finished.lock().unwrap_or_else(|e| e.into_inner());
    finished.games.push(GameSummary {
        id: id.clone(),
        names: names.clone(),
        sides: summary,
    });
    finished.files.extend(files);
    Ok(())
}
