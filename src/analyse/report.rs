//! `shishi analyse --report DIR`: one self-contained HTML page per analysed game, for a
//! person to open in a browser with no network: the players and the result, each side's
//! summary, an evaluation graph (SVG, sente's view, winning chances from -1 to +1, mates at
//! the edge), the critical moments, the move list in KIF notation with the judgements, and
//! a 12 x 12 (or 9 x 9) board with kanji pieces that shows the position after the chosen
//! move, that move, and the best move the analysis preferred.
//!
//! The page is built from the per-ply JSON results of the run (fresh or read back by
//! `--resume`), so a report always shows what the output file says.

use super::results::PlyResult;
use super::summary::SideSummary;
use super::{winning_chances, Judgement, Thresholds};
use crate::core::{Color, Move, Square};
use crate::position::notation::MoveError;
use crate::position::Position;
use crate::records::kif::kanji_number;
use crate::records::{kif_line, kif_line_marked, GameResult};
use serde::Serialize;
use std::fmt::Write as _;

/// One analysed game, as the report shows it.
pub struct GameReport<'a> {
    /// The record's id (the page's name and title).
    pub id: &'a str,
    /// The position the game started from.
    pub start: Position,
    /// The moves, USI.
    pub moves: &'a [String],
    /// Each ply's result (`None` for a ply that was not analysed).
    pub results: &'a [Option<PlyResult>],
    /// Sente's and gote's names.
    pub names: (&'a str, &'a str),
    /// The KIF header tags of the input (event, start time, time control, ...).
    pub header: &'a [(String, String)],
    /// How the game ended.
    pub result: GameResult,
    /// Each side's figures (sente, gote).
    pub summary: &'a [SideSummary; 2],
    /// The judgement thresholds the run used (named on the page).
    pub thresholds: Thresholds,
    /// Each move's thinking time, ms, where the input has them (else empty).
    pub times_ms: &'a [Option<u64>],
}

/// The evaluation graph's size in SVG units.
const GRAPH_WIDTH: f64 = 760.0;
const GRAPH_HEIGHT: f64 = 180.0;

/// A move's squares as board indices: origin, the lion's mid square, destination.
type MoveSquares = (usize, Option<usize>, usize);

/// What the page knows of one ply.
pub(super) struct PlyView {
    /// The mover.
    pub(super) mover: Color,
    /// The move in KIF notation.
    pub(super) kif: String,
    /// The move's squares (origin, the lion's mid square, destination), as board indices.
    pub(super) squares: MoveSquares,
    /// The score after the move from sente's view (None: not analysed).
    pub(super) eval: Option<i32>,
    /// The move's judgement, if it has one.
    pub(super) judgement: Option<Judgement>,
    /// Winning chances given away, hundredths.
    pub(super) chances_lost: i64,
    /// The best line from the position before the move, for a judged move.
    pub(super) best: Option<BestLine>,
    /// The move's thinking time, ms, where the input has it.
    pub(super) time_ms: Option<u64>,
    /// A mate the solver proved or the search found, as the KIF comment says it (`N手詰`).
    pub(super) mate_note: Option<String>,
}

/// The best line of a judged move, to be played out on the board step by step.
pub(super) struct BestLine {
    /// The whole line in KIF notation, each move after its mover's mark (☗, ☖).
    pub(super) text: String,
    /// Each move: its KIF text (with the mark), its squares, and the board after it.
    steps: Vec<(String, MoveSquares, Vec<i32>)>,
}

/// How many moves of a best line the page plays out.
const BEST_LINE_STEPS: usize = 6;

/// The data the page's script reads (`report.js`), written into the page as JSON. The
/// fields of each type are in the order of their JSON names, as the page has always had
/// them.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PageData {
    /// The board before each ply and after the last: a cell per square (see `board_cells`).
    boards: Vec<Vec<i32>>,
    /// The files' names from the left (`12` to `1` in chu).
    file_names: Vec<String>,
    files: usize,
    kinds: Vec<KindData>,
    plies: Vec<PlyData>,
    /// The ranks' names from the top (`一` on).
    rank_names: Vec<String>,
    ranks: usize,
}

/// A piece kind: its KIF name, and whether it is a promoted kind (drawn in red).
#[derive(Serialize)]
struct KindData {
    name: &'static str,
    promoted: bool,
}

/// One ply as the page shows it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PlyData {
    best: Option<BestData>,
    eval: Option<EvalData>,
    judgement: Option<&'static str>,
    kif: String,
    mate: Option<String>,
    mover: &'static str,
    squares: SquaresData,
    time_ms: Option<u64>,
}

impl PlyData {
    fn of(v: &PlyView) -> PlyData {
        PlyData {
            best: v.best.as_ref().map(|b| BestData {
                line: b.text.clone(),
                steps: b
                    .steps
                    .iter()
                    .map(|(kif, sq, board)| StepData {
                        board: board.clone(),
                        kif: kif.clone(),
                        squares: SquaresData::of(*sq),
                    })
                    .collect(),
            }),
            eval: v.eval.map(eval_text),
            judgement: v.judgement.map(Judgement::name),
            kif: v.kif.clone(),
            mate: v.mate_note.clone(),
            mover: v.mover.name(),
            squares: SquaresData::of(v.squares),
            time_ms: v.time_ms,
        }
    }
}

/// A judged move's best line: its text, and its first moves to play out on the board.
#[derive(Serialize)]
struct BestData {
    line: String,
    steps: Vec<StepData>,
}

/// One move of a best line played out: the board after it, its KIF text, its squares.
#[derive(Serialize)]
struct StepData {
    board: Vec<i32>,
    kif: String,
    squares: SquaresData,
}

/// A move's squares as board indices (`mid`: a lion's mid square).
#[derive(Serialize)]
struct SquaresData {
    from: usize,
    mid: Option<usize>,
    to: usize,
}

impl SquaresData {
    fn of(sq: MoveSquares) -> SquaresData {
        SquaresData {
            from: sq.0,
            mid: sq.1,
            to: sq.2,
        }
    }
}

/// An evaluation: sente's winning chances (-1 to 1) and the text.
#[derive(Serialize)]
pub(super) struct EvalData {
    chances: f64,
    text: String,
}

/// The page for one game.
pub fn render(game: &GameReport) -> Result<String, MoveError> {
    let (views, boards) = ply_views(game)?;
    let variant = game.start.variant();
    let data = PageData {
        boards,
        file_names: (1..=variant.spec.files)
            .rev()
            .map(|f| f.to_string())
            .collect(),
        files: variant.spec.files,
        kinds: variant
            .spec
            .kinds
            .iter()
            .map(|k| KindData {
                name: k.kif_name,
                promoted: k.is_promoted(),
            })
            .collect(),
        plies: views.iter().map(PlyData::of).collect(),
        rank_names: (1..=variant.spec.ranks).map(kanji_number).collect(),
        ranks: variant.spec.ranks,
    };
    // Inside <script>, "</script" would end the element and "<!--" start a comment that
    // swallows it: no `<` is written as itself (JSON reads `\u003c` back as `<`).
    let data = serde_json::to_string(&data)
        .expect("page data is plain")
        .replace('<', "\\u003c");
    let title = format!("{} – {} vs {}", game.id, game.names.0, game.names.1);
    let mut page = String::new();
    let _ = write!(
        page,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
<title>{}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n",
        escape(&title)
    );
    let _ = writeln!(
        page,
        "<header><h1><bdi>{}</bdi> <span class=\"vs\">vs</span> <bdi>{}</bdi></h1><p class=\"result\">{}</p>{}</header>",
        escape(&format!("☗ {}", nonempty(game.names.0, "Sente"))),
        escape(&format!("☖ {}", nonempty(game.names.1, "Gote"))),
        escape(&result_sentence(game.result, game.moves.len())),
        header_list(game)
    );
    page += "<main>\n<section class=\"board-col\">\n<div id=\"board-block\">\
<div id=\"board-wrap\"><div id=\"files\"></div><div id=\"board\"></div><div id=\"ranks\"></div>\
<svg id=\"arrows\"></svg></div>\n<div class=\"nav\"><button id=\"first\" title=\"start\">|◀</button>\
<button id=\"prev\" title=\"back (←)\">◀</button><button id=\"next\" title=\"forward (→)\">▶</button>\
<button id=\"last\" title=\"end\">▶|</button><button id=\"flip\" title=\"turn the board around\">⇅ flip</button></div>\n\
</div>\n<div id=\"position-note\"></div>\n</section>\n\
<section class=\"moves-col\">\n<h2>Moves</h2>\n<ol id=\"moves\"></ol>\n</section>\n\
<section class=\"info-col\">\n";
    page += &summary_table(game.summary);
    let _ = write!(
        page,
        "<h2>Evaluation</h2>\n<p class=\"note\">Sente's winning chances after each move \
(top: sente wins, bottom: gote wins; a mate is at the edge). Click to go to a move.</p>\n{}\n",
        graph_svg(&views)
    );
    page += &time_chart(&views);
    page += &critical_moments(&views, game.results);
    page += "</section>\n</main>\n";
    let _ = writeln!(
        page,
        "<footer>Analysed by Shishi. Scores are from sente's view (+ sente is better), in \
pawns. A move is judged by how much it lowers the mover's chance to win (0-100%, a \
logistic curve of the score, as lichess computes it) against the best move: by at least {} \
points an inaccuracy (?!), {} a mistake (?), {} a blunder (??); a move that keeps a \
forced win is never judged. Accuracy is computed as lichess computes it: each move's \
accuracy from the chance it gave away, then the mean of two means of a side's moves, one \
weighted by how much the evaluation moved around each move, one harmonic.</footer>",
        f64::from(game.thresholds.inaccuracy) / 2.0,
        f64::from(game.thresholds.mistake) / 2.0,
        f64::from(game.thresholds.blunder) / 2.0
    );
    let _ = write!(
        page,
        "<script>\nconst GAME = {data};\n\n{SCRIPT}</script>\n</body>\n</html>\n"
    );
    Ok(page)
}

/// Replays the game: each ply's view, and the board before the first move and after
/// every move (a square: 0 empty, kind + 1 for sente, -(kind + 1) for gote).
fn ply_views(game: &GameReport) -> Result<(Vec<PlyView>, Vec<Vec<i32>>), MoveError> {
    let mut pos = game.start.clone();
    let mut boards = vec![board_cells(&pos)];
    let mut views = Vec::new();
    let mut last_to = None;
    for (i, text) in game.moves.iter().enumerate() {
        let played = pos.parse_usi_path(text)?;
        let result = game.results.get(i).and_then(Option::as_ref);
        let time_ms = game.times_ms.get(i).copied().flatten();
        views.push(ply_view(&mut pos, played, result, last_to, time_ms));
        last_to = Some(played.to());
        pos.make_move(played);
        boards.push(board_cells(&pos));
    }
    Ok((views, boards))
}

/// What the page knows of the move `played` from `pos` (`last_to`: the square of the move
/// before), with its analysis's `result` if it has one.
pub(super) fn ply_view(
    pos: &mut Position,
    played: Move,
    result: Option<&PlyResult>,
    last_to: Option<Square>,
    time_ms: Option<u64>,
) -> PlyView {
    let mover = pos.side_to_move();
    let sente_view = |s: i32| if mover == Color::Sente { s } else { -s };
    let best = result
        .and_then(|r| r.bestmove.as_deref())
        .and_then(|usi| pos.clone().parse_usi_path(usi).ok())
        .map(|best| {
            // The best line as the result gives it (its first move the best move).
            let line: Vec<Move> = result
                .and_then(|r| r.pv.as_deref())
                .map(|pv| {
                    let mut p = pos.clone();
                    pv.split_whitespace()
                        .take(BEST_LINE_STEPS)
                        .map_while(|m| {
                            let mv = p.parse_usi_path(m).ok()?;
                            p.make_move(mv);
                            Some(mv)
                        })
                        .collect()
                })
                .filter(|l: &Vec<Move>| {
                    l.first().map(|&m| pos.canonical(m)) == Some(pos.canonical(best))
                })
                .unwrap_or_else(|| vec![best]);
            best_line(pos, &line, last_to)
        });
    let judgement = result.and_then(|r| r.judgement);
    PlyView {
        mover,
        kif: kif_line(pos, &[played], last_to),
        squares: move_squares(pos, played),
        eval: result
            .and_then(|r| r.played_score)
            .map(|s| sente_view(s.score())),
        chances_lost: result.and_then(|r| r.chances_lost).map_or(0, i64::from),
        // A move as good as the best needs no arrow to another.
        best: best.filter(|_| judgement.is_some()),
        judgement,
        mate_note: result.and_then(|r| r.mate.as_ref()).and_then(|m| m.note()),
        time_ms,
    }
}

/// A best line from `pos` played out: its text, and each move's text, squares and board.
fn best_line(pos: &Position, line: &[Move], mut last_to: Option<Square>) -> BestLine {
    let text = kif_line_marked(pos, line, last_to);
    let mut p = pos.clone();
    let mut steps = Vec::new();
    for &mv in line {
        let kif = kif_line_marked(&p, &[mv], last_to);
        let squares = move_squares(&p, mv);
        last_to = Some(mv.to());
        p.make_move(mv);
        steps.push((kif, squares, board_cells(&p)));
    }
    BestLine { text, steps }
}

/// The board as the page draws it (see [`ply_views`]).
fn board_cells(pos: &Position) -> Vec<i32> {
    let spec = &pos.variant().spec;
    let mut cells = Vec::with_capacity(spec.files * spec.ranks);
    for y in 0..spec.ranks {
        for x in 0..spec.files {
            let p = pos.piece_on(Square::new(x, y));
            cells.push(if p.is_empty() {
                0
            } else if p.color() == Color::Sente {
                i32::from(p.kind()) + 1
            } else {
                -(i32::from(p.kind()) + 1)
            });
        }
    }
    cells
}

/// A move's squares as board indices (row-major from the top left, sente's view).
fn move_squares(pos: &Position, mv: Move) -> MoveSquares {
    let files = pos.variant().spec.files;
    let index = |s: Square| s.y() * files + s.x();
    (index(mv.from()), mv.mid().map(index), index(mv.to()))
}

/// A score from sente's view as the page writes it: the annotated KIF's text (`+1.28`,
/// `先手の7手詰`), a mate with its side in English too, and sente's winning chances.
pub(super) fn eval_text(score: i32) -> EvalData {
    let text = super::kif_comments::after_move_view(score, Color::Sente);
    match crate::core::score::mate_plies(score) {
        Some(p) if p > 0 => EvalData {
            chances: 1.0,
            text: format!("{text} (sente mates)"),
        },
        Some(_) => EvalData {
            chances: -1.0,
            text: format!("{text} (gote mates)"),
        },
        None => EvalData {
            chances: winning_chances(score),
            text,
        },
    }
}

fn nonempty<'a>(s: &'a str, default: &'a str) -> &'a str {
    if s.trim().is_empty() {
        default
    } else {
        s
    }
}

/// The result as a sentence.
fn result_sentence(result: GameResult, plies: usize) -> String {
    match result {
        GameResult::SenteWon => format!("Sente won in {plies} moves (まで{plies}手で先手の勝ち)"),
        GameResult::GoteWon => format!("Gote won in {plies} moves (まで{plies}手で後手の勝ち)"),
        GameResult::Draw => format!("Draw after {plies} moves (まで{plies}手で引き分け)"),
        GameResult::Unfinished => format!("Unfinished after {plies} moves (まで{plies}手で中断)"),
    }
}

/// The input's header tags as a definition list.
fn header_list(game: &GameReport) -> String {
    if game.header.is_empty() {
        return String::new();
    }
    let items: String = game
        .header
        .iter()
        .map(|(k, v)| format!("<dt>{}</dt><dd>{}</dd>", escape(k), escape(v)))
        .collect();
    format!("<dl class=\"tags\">{items}</dl>")
}

/// Each side's counts, average loss and accuracy.
fn summary_table(summary: &[SideSummary; 2]) -> String {
    let row = |label: &str, cell: &dyn Fn(&SideSummary) -> String| {
        format!(
            "<tr><th>{label}</th><td>{}</td><td>{}</td></tr>",
            cell(&summary[0]),
            cell(&summary[1])
        )
    };
    format!(
        "<h2>Summary</h2>\n<table class=\"summary\"><tr><th></th><th>☗ Sente</th><th>☖ Gote</th></tr>{}{}{}{}{}{}</table>\n",
        row("Moves analysed", &|s| s.moves.to_string()),
        row(
            "<span class=\"inaccuracy\">Inaccuracies ?! 疑問手</span>",
            &|s| s.inaccuracies.to_string()
        ),
        row("<span class=\"mistake\">Mistakes ? 悪手</span>", &|s| s.mistakes.to_string()),
        row("<span class=\"blunder\">Blunders ?? 大悪手</span>", &|s| s.blunders.to_string()),
        row("Average centipawn loss", &|s| {
            s.average_cp_loss.map_or("–".into(), |l| format!("{l:.1}"))
        }),
        row("Accuracy", &|s| s.accuracy.map_or("–".into(), |a| format!("{a:.1}%"))),
    )
}

/// The evaluation graph: sente's winning chances after each move, a dot for each judged
/// move (in its colour) and for each mate; a click picks the nearest move (the script).
fn graph_svg(views: &[PlyView]) -> String {
    let n = views.len().max(1) as f64;
    let x = |ply: usize| ply as f64 / n * GRAPH_WIDTH;
    let y = |chances: f64| (1.0 - chances) / 2.0 * GRAPH_HEIGHT;
    let chances = |v: &PlyView| v.eval.map(winning_chances);
    // The graph starts even, at the start position.
    let mut points = vec![(0usize, 0.0f64)];
    for (i, v) in views.iter().enumerate() {
        if let Some(c) = chances(v) {
            points.push((i + 1, c));
        }
    }
    let line: String = points
        .iter()
        .map(|&(p, c)| format!("{:.1},{:.1}", x(p), y(c)))
        .collect::<Vec<_>>()
        .join(" ");
    let last_x = points.last().map_or(0.0, |&(p, _)| x(p));
    let mid = y(0.0);
    let mut svg = format!(
        "<svg id=\"graph\" viewBox=\"0 0 {GRAPH_WIDTH} {GRAPH_HEIGHT}\" preserveAspectRatio=\"none\" \
role=\"img\" aria-label=\"evaluation graph\">\
<rect class=\"gote-side\" x=\"0\" y=\"0\" width=\"{GRAPH_WIDTH}\" height=\"{GRAPH_HEIGHT}\"/>\
<polygon class=\"sente-area\" points=\"0,{GRAPH_HEIGHT} {line} {last_x:.1},{GRAPH_HEIGHT}\"/>\
<line class=\"axis\" x1=\"0\" y1=\"{mid}\" x2=\"{GRAPH_WIDTH}\" y2=\"{mid}\"/>\
<polyline class=\"eval-line\" points=\"{line}\"/>"
    );
    for (i, v) in views.iter().enumerate() {
        let Some(c) = chances(v) else { continue };
        let mate = v
            .eval
            .is_some_and(|s| crate::core::score::mate_plies(s).is_some());
        let class = match (v.judgement, mate) {
            (Some(j), _) => j.name(),
            (None, true) => "mate",
            _ => continue,
        };
        let _ = write!(
            svg,
            "<circle class=\"dot {class}\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"4\"><title>{}. {}</title></circle>",
            x(i + 1),
            y(c),
            i + 1,
            escape(&v.kif)
        );
    }
    svg += "<line id=\"graph-cursor\" x1=\"0\" y1=\"0\" x2=\"0\" y2=\"180\"/></svg>";
    svg
}

/// Each move's thinking time as bars (sente's up, gote's down), when the input has times.
fn time_chart(views: &[PlyView]) -> String {
    let times: Vec<u64> = views.iter().filter_map(|v| v.time_ms).collect();
    let longest = times.iter().copied().max().unwrap_or(0);
    if longest == 0 {
        return String::new();
    }
    let scale = time_chart_scale(&times);
    let n = views.len().max(1) as f64;
    let half = TIME_CHART_HEIGHT / 2.0;
    let width = (GRAPH_WIDTH / n).max(1.0);
    let mut bars = String::new();
    for (i, v) in views.iter().enumerate() {
        let Some(ms) = v.time_ms else { continue };
        // A time beyond the scale is drawn full and marked as cut, not as the measure of
        // every other bar.
        let h = (ms as f64 / scale as f64).min(1.0) * (half - 2.0);
        let cut = if ms > scale { " cut" } else { "" };
        let (y, class) = if v.mover == Color::Sente {
            (half - h, "sente-time")
        } else {
            (half, "gote-time")
        };
        let _ = write!(
            bars,
            "<rect class=\"{class}{cut}\" x=\"{:.1}\" y=\"{y:.1}\" width=\"{:.1}\" height=\"{h:.1}\">\
<title>{}. {} {}</title></rect>",
            i as f64 / n * GRAPH_WIDTH,
            (width - 0.5).max(0.5),
            i + 1,
            escape(&v.kif),
            seconds(ms)
        );
    }
    let cut_note = if scale < longest {
        format!(
            " Bars are drawn up to {}; longer ones reach the edge (in dark red).",
            seconds(scale)
        )
    } else {
        String::new()
    };
    format!(
        "<h2>Time per move</h2>\n<p class=\"note\">Sente's moves above the line, gote's below; \
the longest took {}.{cut_note} Click to go to a move.</p>\n<svg id=\"times\" viewBox=\"0 0 {GRAPH_WIDTH} \
{TIME_CHART_HEIGHT}\" preserveAspectRatio=\"none\" role=\"img\" aria-label=\"time per move\">\
<line class=\"axis\" x1=\"0\" y1=\"{half}\" x2=\"{GRAPH_WIDTH}\" y2=\"{half}\"/>{bars}\
<line id=\"times-cursor\" x1=\"0\" y1=\"0\" x2=\"0\" y2=\"{TIME_CHART_HEIGHT}\"/></svg>\n",
        seconds(longest)
    )
}

/// The time the chart's full bar stands for: the longest time, unless (among three times or
/// more) it is more than four times the next longest (a clock that jumped, a record's absurd
/// value): then four times that, so that one such time does not flatten every other bar.
fn time_chart_scale(times: &[u64]) -> u64 {
    let mut sorted = times.to_vec();
    sorted.sort_unstable();
    let longest = sorted.last().copied().unwrap_or(0);
    if sorted.len() < 3 {
        return longest.max(1);
    }
    let next = sorted[sorted.len() - 2];
    longest.min(next.saturating_mul(4)).max(1)
}

/// A move's time as a person reads it: `1.5 s`, `12 min 5 s`, or `over a day`.
fn seconds(ms: u64) -> String {
    match ms {
        ms if ms < 60_000 => format!("{:.1} s", ms as f64 / 1000.0),
        ms if ms < 86_400_000 => format!("{} min {} s", ms / 60_000, ms % 60_000 / 1000),
        _ => "over a day".to_string(),
    }
}

/// The time chart's height in SVG units.
const TIME_CHART_HEIGHT: f64 = 90.0;

/// The moves that gave away the most winning chances, worst first
/// ([`critical_moments`](super::summary::critical_moments)).
fn critical_moments(views: &[PlyView], results: &[Option<PlyResult>]) -> String {
    let judged: Vec<(usize, &PlyView)> =
        super::summary::critical_moments(results.iter().map(|r| r.as_ref()?.judged_loss()))
            .into_iter()
            .filter_map(|i| Some((i, views.get(i)?)))
            .collect();
    if judged.is_empty() {
        return "<h2>Critical moments</h2>\n<p class=\"note\">No move was judged an inaccuracy or worse.</p>\n".into();
    }
    let items: String = judged
        .iter()
        .map(|(i, v)| {
            format!(
                "<li><a href=\"#\" data-ply=\"{}\">{}. {} {}</a> <span class=\"{}\">{} {}</span>, \
win chance down {} points{}</li>",
                i + 1,
                i + 1,
                v.mover.mark(),
                escape(&v.kif),
                v.judgement.map_or("", Judgement::name),
                v.judgement.map_or("", Judgement::name),
                v.judgement.map_or("", Judgement::kanji),
                super::judgement::chance_points(v.chances_lost),
                v.best
                    .as_ref()
                    .map(|b| format!("; best {}", escape(&b.text)))
                    .unwrap_or_default()
            )
        })
        .collect();
    format!("<h2>Critical moments</h2>\n<ol class=\"critical\">{items}</ol>\n")
}

/// Text for HTML: the markup characters escaped, and the characters that reorder text
/// (right-to-left overrides and isolates) dropped, so that a player's name cannot turn the
/// page's text around.
fn escape(s: &str) -> String {
    s.chars()
        .filter(|c| !crate::text::is_bidi_control(*c))
        .collect::<String>()
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The page's style sheet and script: real files beside this one (an editor and a linter
/// read them as CSS and JavaScript), taken into the binary when it is built, so a report
/// still needs no file and no network.
const STYLE: &str = include_str!("report.css");
const SCRIPT: &str = include_str!("report.js");

/// The file name of a game's page (the KIF's name with `.html`).
pub fn report_file_name(id: &str) -> String {
    let kif = super::files::kif_file_name(id);
    format!("{}.html", kif.trim_end_matches(".kif"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;
    use serde_json::{json, Value};

    #[test]
    fn one_absurd_move_time_does_not_flatten_the_others() {
        // Issue 55, case 10: a time of u64::MAX was the measure of every bar.
        let mut times: Vec<u64> = (1..=40).map(|i| i * 500).collect();
        assert_eq!(time_chart_scale(&times), 20_000, "no outlier: the longest");
        times.push(u64::MAX);
        assert_eq!(time_chart_scale(&times), 4 * 20_000);
        assert_eq!(time_chart_scale(&[1000, 2000, u64::MAX, 1500]), 8000);
        assert_eq!(time_chart_scale(&[7000]), 7000);
        assert_eq!(
            time_chart_scale(&[1000, 61_000]),
            61_000,
            "two times: no outlier"
        );
        assert_eq!(seconds(u64::MAX), "over a day");
        assert_eq!(seconds(1500), "1.5 s");
        assert_eq!(seconds(725_000), "12 min 5 s");
        assert_eq!(time_chart_scale(&[0, 0]), 1);
    }

    #[test]
    fn a_page_is_self_contained_and_shows_every_move() {
        let start = Position::startpos(Variant::chu());
        let moves: Vec<String> = ["7i7h", "7d7e", "7j7i6h"].map(String::from).to_vec();
        let line = |v: Value| Some(serde_json::from_value::<PlyResult>(v).unwrap());
        let base = json!({"id": "g1", "ply": 1, "sfen": "-", "played": "-", "bestScore": null,
            "loss": null, "depth": 5, "nodes": 1, "pv": null});
        let with = |fields: Value| {
            let mut v = base.clone();
            v.as_object_mut()
                .unwrap()
                .extend(fields.as_object().unwrap().clone());
            line(v)
        };
        let results = vec![
            with(json!({"playedScore": {"cp": 20}, "bestmove": "7i7h", "judgement": null})),
            with(
                json!({"playedScore": {"cp": -90}, "bestmove": "6d6e", "pv": "6d6e 7h7g",
                        "judgement": "mistake", "chancesLost": 24}),
            ),
            with(
                json!({"playedScore": {"mate": 5}, "bestmove": "7j7i6h", "judgement": null,
                "mate": {"result": "mate", "plies": 1, "line": "<!--<script></script>"}}),
            ),
        ];
        let side = |moves, mistakes, loss, accuracy| SideSummary {
            moves,
            mistakes,
            average_cp_loss: Some(loss),
            accuracy: Some(accuracy),
            ..SideSummary::default()
        };
        let summary = [side(2, 0, 0.0, 100.0), side(1, 1, 110.0, 60.5)];
        let header = vec![("棋戦".to_string(), "<lishogi>".to_string())];
        let page = render(&GameReport {
            id: "g1",
            start,
            moves: &moves,
            results: &results,
            names: ("alice", "bob"),
            header: &header,
            result: GameResult::SenteWon,
            summary: &summary,
            thresholds: Thresholds::default(),
            times_ms: &[Some(1000), None, Some(61_000)],
        })
        .unwrap();
        // Text in the page's data never ends or comments out its script (issue 55,
        // case 5: only `</` was escaped, and `<!--<script>` left the page dead).
        let data = &page[page.find("const GAME = ").unwrap()..];
        let data = &data[..data.find(";\n").unwrap()];
        assert!(!data.contains('<'), "{data}");
        assert!(
            data.contains("\\u003c!--\\u003cscript>\\u003c/script>"),
            "{data}"
        );
        // No network: nothing loaded from elsewhere.
        for outside in ["http://", "https://", "src=", "@import", "<link"] {
            assert!(!page.contains(outside), "{outside}");
        }
        assert!(
            page.contains("&lt;lishogi&gt;"),
            "header values are escaped"
        );
        assert!(page.contains("Sente won in 3 moves"));
        assert!(page.contains("<svg id=\"graph\""));
        // The input's move times as a chart: sente's moves 1 and 3 (61 s, the longest) as
        // bars above the line; gote's move 2 has no time, so no bar.
        assert!(page.contains("<h2>Time per move</h2>"), "{page}");
        assert!(page.contains("the longest took 1 min 1 s."));
        assert!(
            page.contains("<line id=\"times-cursor\""),
            "the chart's cursor"
        );
        assert_eq!(page.matches("class=\"sente-time\"").count(), 2);
        assert_eq!(page.matches("class=\"gote-time\"").count(), 0);
        // The mistake is a dot on the graph and a critical moment with the best line in KIF.
        assert!(page.contains("class=\"dot mistake\""));
        assert!(page.contains("<a href=\"#\" data-ply=\"2\">2. ☖ 7五歩兵 （←7四）</a>"));
        assert!(page.contains("win chance down 12 points; best ☖6五歩兵 （←6四）"));
        // The mate after move 3 is at the top edge, from sente's view, counted from the
        // position after the move (the move's own score counts it from before).
        assert!(page.contains("先手の4手詰"));
        assert!(page.contains("class=\"dot mate\" cx=\"760.0\" cy=\"0.0\""));
        // Four boards (start and after each move) and three plies in the data.
        let data = page.split("const GAME = ").nth(1).unwrap();
        let data: Value = serde_json::from_str(data.split(";\n").next().unwrap()).unwrap();
        assert_eq!(data["boards"].as_array().unwrap().len(), 4);
        assert_eq!(data["plies"].as_array().unwrap().len(), 3);
        assert_eq!(
            data["plies"][2]["kif"],
            "一歩目 7九獅子 （←7十） 二歩目 6八獅子 （←7九）"
        );
        assert_eq!(data["kinds"][19]["name"], "獅子");
    }
}
