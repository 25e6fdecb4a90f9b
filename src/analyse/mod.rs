//! `shishi analyse`: batch analysis of positions and games, on all cores.
//!
//! Positions are independent, so rayon runs them across `workers` threads, each search with
//! a small table of its own, cleared before every search so that results do not depend on
//! the order of work (one thread and a node limit give the same output every run). A game
//! is analysed ply by ply; each move is compared with the best move and judged (inaccuracy,
//! mistake, blunder). Output is JSON lines, written as results come; `--resume` skips what
//! the output file already holds. Games can also be written as annotated KIF files.

pub mod error;
mod files;
pub mod input;
pub mod judgement;
mod kif_comments;
mod output;
mod progress;
pub mod report;
pub mod results;
mod resume;
pub mod review;
mod search;
mod settings;
pub mod summary;
pub mod verdict;

pub use error::{AnalyseError, ResultLineProblem};
pub use files::{create_numbered, kif_file_name, NewFile};
pub use judgement::{winning_chances, Judgement, Thresholds};
pub use kif_comments::after_move_view;
pub use progress::{GameSummary, RunSummary};
pub use resume::{done_results, EarlierResults, ResultKey};
pub use search::Analysis;
pub use settings::AnalysisSettings;

use crate::position::Position;
use crate::records;
use crate::search::Searcher;
use input::{GameJob, Job, PositionJob};
use judgement::as_cp;
use kif_comments::{comment_from_result, ply_comment, with_mate_note};
use output::{game_result, write_game_kif, write_game_report};
use progress::*;
use rayon::prelude::*;
use results::{LineResult, PlyResult, PositionResult, ResultLine, ScoreValue, SummaryLine};
use resume::game_fingerprint;
use search::{prove, pv_text, search};
use std::io::Write;
use std::sync::Mutex;

/// Analyses `jobs`, writing one JSON line per position or ply to `out`; `done` holds the
/// results of an earlier run (`--resume`), which are not searched again. Returns what the
/// run did (the searches, each game's summary, the files written), or an error before any
/// work when a searcher cannot be had.
pub fn run(
    jobs: &[Job],
    settings: &AnalysisSettings,
    out: &Mutex<Box<dyn Write + Send>>,
    done: &EarlierResults,
) -> Result<RunSummary, AnalyseError> {
    // The table size is the user's: check once that it can be had at all.
    drop(Searcher::try_new(settings.hash_mb)?);
    let total: usize = jobs
        .iter()
        .map(|job| match job {
            Job::Position(p) => usize::from(
                job_position(p).is_ok_and(|pos| !done.contains_key(&position_key(&p.id, &pos))),
            ),
            Job::Game(g) => ply_keys(g)
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
                crate::tell!("{line}");
            }
        }
    };
    let finished = Mutex::new(RunSummary::default());
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
            Job::Position(p) => analyse_position(&mut searcher, p, &shared),
            Job::Game(g) => analyse_game(&mut searcher, g, &shared),
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

/// The position a position job analyses (its moves played).
pub(crate) fn job_position(job: &PositionJob) -> Result<Position, AnalyseError> {
    let mut pos = Position::from_sfen(job.variant, &job.sfen)?;
    pos.play_usi_moves(job.moves.iter().map(String::as_str))?;
    Ok(pos)
}

/// The key of a position job's result.
pub(crate) fn position_key(id: &str, pos: &Position) -> ResultKey {
    ResultKey::Position {
        id: id.to_string(),
        sfen: pos.to_sfen(),
    }
}

/// The keys of a game job's plies' results, in order.
pub(crate) fn ply_keys(job: &GameJob) -> Result<Vec<ResultKey>, AnalyseError> {
    let (id, moves) = (&job.id, &job.game.moves);
    let mut pos = Position::from_sfen(job.game.variant, &job.game.start_sfen)?;
    let mut keys = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        keys.push(ResultKey::Ply {
            id: id.clone(),
            ply: i as u64 + 1,
            sfen: pos.to_sfen(),
            played: text.clone(),
        });
        let mv = pos.parse_usi_path(text)?;
        pos.make_move(mv);
    }
    Ok(keys)
}

/// What every job of a run shares: the settings, the earlier results, the writer.
pub(crate) struct Run<'a> {
    settings: &'a AnalysisSettings,
    done: &'a EarlierResults,
    emit: &'a (dyn Fn(&ResultLine) + Sync),
    /// What the run has finished, for its closing words.
    finished: &'a Mutex<RunSummary>,
}

pub(crate) fn analyse_position(
    searcher: &mut Searcher,
    job: &PositionJob,
    run: &Run,
) -> Result<(), AnalyseError> {
    let (settings, done, emit) = (run.settings, run.done, run.emit);
    let (id, pos) = (&job.id, job_position(job)?);
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

pub(crate) fn analyse_game(
    searcher: &mut Searcher,
    job: &GameJob,
    run: &Run,
) -> Result<(), AnalyseError> {
    let (plies, mut end) = analyse_plies(searcher, job, run)?;
    finish_game(job, &mut end, plies, run)
}

/// Whether the task the analysis runs as (a page's review) was stopped.
fn stopped(settings: &AnalysisSettings) -> bool {
    settings.task.as_ref().is_some_and(|t| t.is_stopped())
}

/// A game's plies analysed in order, each result emitted as it comes (or taken from an
/// earlier run), and the position at the game's end. When the analysis's task is stopped
/// the ply being searched is dropped (its search was cut short) and no later ply is
/// analysed: those plies are `None`.
fn analyse_plies(
    searcher: &mut Searcher,
    job: &GameJob,
    run: &Run,
) -> Result<(Vec<Option<Ply>>, Position), AnalyseError> {
    let (settings, done) = (run.settings, run.done);
    let (id, moves) = (&job.id, &job.game.moves);
    let mut pos = Position::from_sfen(job.game.variant, &job.game.start_sfen)?;
    // Each ply's key for --resume: one home for what identifies a ply's result.
    let keys = ply_keys(job)?;
    let mut plies: Vec<Option<Ply>> = vec![None; moves.len()];
    let mut rejudged = 0;
    let mut last_to = None;
    // The search of the next position, made by the last ply's verdict.
    let mut next_before: Option<Analysis> = None;
    for (i, text) in moves.iter().enumerate() {
        let ply = i + 1;
        let played = pos.parse_usi_path(text)?;
        if ply >= settings.from_ply.max(1) && !stopped(settings) {
            plies[i] = match done.get(&keys[i]) {
                Some(ResultLine::Ply(earlier)) => {
                    next_before = None;
                    let resumed = earlier_ply(earlier, &pos, last_to, settings);
                    rejudged += usize::from(resumed.result.judgement != earlier.judgement);
                    Some(resumed)
                }
                _ => {
                    let at = PlyAt {
                        id,
                        ply,
                        text,
                        played,
                        last_to,
                    };
                    let (fresh, after) =
                        analyse_ply(searcher, &pos, &at, next_before.take(), settings);
                    // A search cut short by the task's stop is no result.
                    (!stopped(settings)).then(|| {
                        (run.emit)(&ResultLine::Ply(fresh.result.clone()));
                        next_before = after;
                        fresh
                    })
                }
            };
        }
        last_to = Some(played.to());
        pos.make_move(played);
    }
    if rejudged > 0 {
        log::warn!(
            "{id}: {rejudged} resumed plies judged anew by this run's thresholds (the report, KIF \
             and table use them; the results file keeps the earlier run's lines)"
        );
    }
    Ok((plies, pos))
}

/// One analysed ply: its result line, its KIF comment, and what the summary counts.
#[derive(Clone, Debug)]
pub(crate) struct Ply {
    result: PlyResult,
    comment: String,
    judged: Option<summary::JudgedMove>,
}

/// Where a ply stands in its game.
struct PlyAt<'a> {
    id: &'a str,
    ply: usize,
    text: &'a str,
    played: crate::core::Move,
    /// The square of the move before (for `仝` in the KIF notation).
    last_to: Option<crate::core::Square>,
}

/// A ply an earlier run analysed (`--resume`): its result line, judged by this run's
/// thresholds (its stored scores say how much the move gave away; the judgement stored
/// was the earlier run's), and its mate note kept only when the line replays as legal
/// moves of its position.
fn earlier_ply(
    earlier: &PlyResult,
    pos: &Position,
    last_to: Option<crate::core::Square>,
    settings: &AnalysisSettings,
) -> Ply {
    let mut result = earlier.clone();
    let scores = earlier.best_score.zip(earlier.played_score);
    if let Some((best, played)) = scores {
        let (lost, judgement) =
            judgement::judge(best.score(), played.score(), &settings.thresholds);
        result.chances_lost = Some(lost);
        result.judgement = judgement;
    }
    if result.mate.as_ref().is_some_and(|m| !m.replays_in(pos)) {
        log::warn!(
            "{} ply {}: the resumed mate line is not legal moves of its position; left out",
            earlier.id,
            earlier.ply
        );
        result.mate = None;
    }
    Ply {
        comment: comment_from_result(&result, pos.variant(), last_to).unwrap_or_default(),
        judged: scores.map(|(best, played)| summary::JudgedMove {
            mover: pos.side_to_move(),
            best: best.score(),
            played: played.score(),
            judgement: result.judgement,
        }),
        result,
    }
}

/// Analyses and judges one ply (`before`: the search of `pos` when the last ply made it).
/// Also returns the search of the position after the move, for the next ply (one line:
/// with `--multipv` the next position is searched again for its lines).
fn analyse_ply(
    searcher: &mut Searcher,
    pos: &Position,
    at: &PlyAt,
    before: Option<Analysis>,
    settings: &AnalysisSettings,
) -> (Ply, Option<Analysis>) {
    let a = before.unwrap_or_else(|| search(searcher, pos, settings, settings.multipv));
    let mut result = PlyResult {
        id: at.id.to_string(),
        ply: at.ply as u64,
        sfen: pos.to_sfen(),
        played: at.text.to_string(),
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
    };
    if a.lines.is_empty() {
        // No iteration finished (a very small budget): no score is known, and none is
        // made up.
        let ply = Ply {
            result,
            comment: String::new(),
            judged: None,
        };
        return (ply, None);
    }
    let v = verdict::judge_ply(searcher, pos, at.played, &a, settings);
    let (best, played) = (v.best.score, v.played.score);
    let mate = settings.mate.map(|t| prove(searcher, pos, t));
    let best_line = Some((&v.best.line[..], best));
    let comment = with_mate_note(
        ply_comment(pos, at.last_to, played, best_line, v.judgement),
        mate.as_ref(),
    );
    result.played_score = Some(ScoreValue::of(played));
    result.bestmove = Some(pos.move_to_usi(v.best.mv));
    result.best_score = Some(ScoreValue::of(best));
    result.loss = Some((as_cp(best) - as_cp(played)).max(0));
    result.chances_lost = Some(v.chances_lost);
    result.judgement = v.judgement;
    result.depth = Some(a.lines[0].depth);
    result.nodes = v.nodes;
    result.pv = Some(pv_text(pos, &v.best.line));
    result.mate = mate;
    let judged = summary::JudgedMove {
        mover: pos.side_to_move(),
        best,
        played,
        judgement: v.judgement,
    };
    let after = if settings.multipv == 1 { v.after } else { None };
    let ply = Ply {
        result,
        comment,
        judged: Some(judged),
    };
    (ply, after)
}

/// What a game's analysis comes to: each side's figures, how the game ended, and each
/// ply's KIF comment and result (empty and `None` for a ply not analysed).
pub(crate) struct GameEnd {
    summary: [summary::SideSummary; 2],
    result: records::GameResult,
    comments: Vec<String>,
    results: Vec<Option<PlyResult>>,
}

/// Sums up a game's analysed plies (`end`: the position after its last move).
pub(crate) fn game_end(job: &GameJob, end: &mut Position, plies: Vec<Option<Ply>>) -> GameEnd {
    let judged: Vec<summary::JudgedMove> =
        plies.iter().flatten().filter_map(|p| p.judged).collect();
    let (comments, results) = plies
        .into_iter()
        .map(|p| match p {
            Some(p) => (p.comment, Some(p.result)),
            None => (String::new(), None),
        })
        .unzip();
    GameEnd {
        summary: summary::summarise(&judged),
        result: game_result(job, end),
        comments,
        results,
    }
}

/// A game's summary line: its id, fingerprint and each side's figures.
pub(crate) fn summary_line(job: &GameJob, summary: &[summary::SideSummary; 2]) -> SummaryLine {
    let game = &job.game;
    SummaryLine {
        id: job.id.clone(),
        game: game_fingerprint(game.variant.name(), &game.start_sfen, &game.moves),
        summary: summary::GameFigures {
            sente: summary[0],
            gote: summary[1],
        },
    }
}

/// A game's end: its summary line (once: a resumed run that finds it keeps it), its KIF and
/// report, and its figures for the run's closing table.
fn finish_game(
    job: &GameJob,
    end: &mut Position,
    plies: Vec<Option<Ply>>,
    run: &Run,
) -> Result<(), AnalyseError> {
    let settings = run.settings;
    let GameEnd {
        summary,
        result,
        comments,
        results,
    } = game_end(job, end, plies);
    let line = summary_line(job, &summary);
    let key = ResultKey::Summary {
        id: line.id.clone(),
        game: line.game.clone(),
    };
    if !run.done.contains_key(&key) {
        (run.emit)(&ResultLine::Summary(line));
    }
    let mut files = Vec::new();
    if let Some(dir) = &settings.kif_dir {
        files.push(write_game_kif(dir, job, result, comments)?);
    }
    if let Some(dir) = &settings.report_dir {
        files.push(write_game_report(
            dir, job, result, &results, &summary, settings,
        )?);
    }
    let mut finished = run.finished.lock().unwrap_or_else(|e| e.into_inner());
    let players = &job.game.players;
    finished.games.push(GameSummary {
        id: job.id.clone(),
        names: (players.sente.clone(), players.gote.clone()),
        sides: summary,
    });
    finished.files.extend(files);
    Ok(())
}
