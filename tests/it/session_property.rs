//! A property test of the engine session under USI: random command sequences (options at
//! any time, go / go mate / stop / ponderhit / position interleaved, variant switches
//! mid-game, bad positions, no position at all, a crowded board) driven in-process. After
//! each sequence: the engine is alive, every `go` got exactly one `bestmove` and every `go
//! mate` exactly one `checkmate`, each legal in its position (or `resign` / `nomate` where
//! there is no position or the game is over), and every `isready` was answered.

use shishi::core::rng::Rng;
use shishi::position::{GenMode, Position};
use shishi::session::io::{Captured, Input, Output};
use shishi::usi::controller::{Controller, Flow};
use shishi::variant::Variant;
use std::sync::Arc;
use std::time::Duration;

/// What the test believes the engine holds.
struct Model {
    variant: &'static Variant,
    position: Option<Position>,
}

fn random_game(variant: &'static Variant, plies: usize, rng: &mut Rng) -> (Position, Vec<String>) {
    let mut pos = Position::startpos(variant);
    let mut moves = Vec::new();
    for _ in 0..plies {
        if pos.outcome().is_some() {
            break;
        }
        let mut legal = Vec::new();
        pos.legal_moves(GenMode::Search, &mut legal);
        let mv = legal[rng.below(legal.len())];
        moves.push(pos.move_to_usi(mv));
        pos.make_move(mv);
    }
    (pos, moves)
}

/// What a `go` line asks for, with the position it searches.
enum Go {
    /// A search: answered by `bestmove`.
    Search(Option<Position>),
    /// The mate solver: answered by `checkmate`.
    Mate(Option<Position>),
}

/// A random `go mate` line: every limit it takes, and malformed ones.
fn go_mate(rng: &mut Rng) -> String {
    [
        format!("go mate {}", rng.below(60)),
        "go mate infinite".to_string(),
        format!("go mate {} nodes {}", 10 + rng.below(50), rng.below(5000)),
        format!("go mate infinite nodes {}", 1 + rng.below(3000)),
        format!("go mate {} searchmoves 7i7h 6d6e", 10 + rng.below(50)),
        "go mate".to_string(),
        "go mate x".to_string(),
        format!("go mate {} depth 3 movetime 20", rng.below(40)),
    ][rng.below(8)]
    .clone()
}

/// One random command, and the model's state after it. Returns the line and, for a `go`,
/// what it asks for.
fn command(model: &mut Model, rng: &mut Rng) -> (String, Option<Go>) {
    match rng.below(22) {
        0..=3 => {
            let (pos, moves) = random_game(model.variant, rng.below(12), rng);
            model.position = Some(pos);
            (format!("position startpos moves {}", moves.join(" ")), None)
        }
        4 => {
            let (_, moves) = random_game(model.variant, rng.below(6), rng);
            model.position = None;
            (
                format!("position startpos moves {} 1a1a", moves.join(" ")),
                None,
            )
        }
        5 => {
            model.position = None;
            ("position sfen 12/12 b - 1".to_string(), None)
        }
        6 => {
            let v = if rng.below(2) == 0 {
                Variant::chu()
            } else {
                Variant::sho()
            };
            if v != model.variant || model.position.is_none() {
                model.variant = v;
                model.position = Some(Position::startpos(v));
            }
            (
                format!("setoption name USI_Variant value {}", v.name()),
                None,
            )
        }
        7 => {
            let option = [
                format!("Threads value {}", 1 + rng.below(3)),
                format!("MultiPV value {}", 1 + rng.below(3)),
                format!("USI_Hash value {}", 1 + rng.below(8)),
                "Clear Hash".to_string(),
                format!("AvoidRepetition value {}", rng.below(2) == 0),
                format!("USI_Ponder value {}", rng.below(2) == 0),
                "Move_Overhead value 10.0".to_string(),
                "USI_AnalyseMode value true".to_string(),
            ][rng.below(8)]
            .clone();
            (format!("setoption name {option}"), None)
        }
        8..=12 => {
            let go = [
                format!("go depth {}", 1 + rng.below(3)),
                format!("go nodes {}", 100 + rng.below(3000)),
                format!("go movetime {}", 5 + rng.below(40)),
                "go infinite".to_string(),
                format!("go ponder movetime {}", 5 + rng.below(30)),
                format!("go btime {0} wtime {0} byoyomi 20", rng.below(50)),
            ][rng.below(6)]
            .clone();
            (go, Some(Go::Search(model.position.clone())))
        }
        19 | 20 => (go_mate(rng), Some(Go::Mate(model.position.clone()))),
        13 | 14 => ("stop".to_string(), None),
        15 => ("ponderhit".to_string(), None),
        16 | 17 => ("isready".to_string(), None),
        18 => ("usinewgame".to_string(), None),
        _ => ("wait".to_string(), None),
    }
}

fn check_checkmate(answer: &str, position: &Option<Position>, history: &str) {
    let first = answer.split_whitespace().nth(1).unwrap_or("");
    match (position, first) {
        (_, "nomate" | "timeout") => {}
        (None, _) => panic!("a checkmate line without a position: {answer}\n{history}"),
        (Some(pos), mv) => {
            assert!(
                pos.clone().parse_usi_move(mv).is_ok(),
                "{answer}: {history}"
            )
        }
    }
}

fn check_bestmove(answer: &str, position: &Option<Position>, history: &str) {
    let mv = answer.split_whitespace().nth(1).unwrap_or("");
    match position {
        None => assert_eq!(mv, "resign", "{history}"),
        Some(pos) => {
            let mut pos = pos.clone();
            if mv == "resign" {
                assert!(pos.outcome().is_some(), "resigned a live game: {history}");
            } else {
                assert!(pos.parse_usi_move(mv).is_ok(), "{mv} is illegal: {history}");
            }
        }
    }
}

/// Runs `commands` random commands from `seed` on a fresh controller (`setup` lines
/// first, after which the engine holds `position`) and checks every promise of the module
/// doc.
fn run_session(
    seed: u64,
    commands: usize,
    setup: Vec<(String, Option<Go>)>,
    position: Option<Position>,
) {
    let mut rng = Rng::new(seed);
    let sink = Captured::default();
    let mut controller =
        Controller::new(Arc::new(Output::to(Box::new(sink.clone())))).expect("a session");
    let mut model = Model {
        variant: Variant::chu(),
        position: Some(Position::startpos(Variant::chu())),
    };
    let (mut searches, mut mates, mut readies, mut history) =
        (Vec::new(), Vec::new(), 0, String::new());
    let mut lines = setup;
    model.position = position;
    for _ in 0..commands {
        lines.push(command(&mut model, &mut rng));
    }
    for (line, go) in lines {
        history += &format!("{line}\n");
        if line == "wait" {
            std::thread::sleep(Duration::from_millis(rng.below(30) as u64));
            continue;
        }
        readies += usize::from(line == "isready");
        match go {
            Some(Go::Search(position)) => searches.push(position),
            Some(Go::Mate(position)) => mates.push(position),
            None => {}
        }
        assert_eq!(controller.handle(Input::Line(line)), Flow::Continue);
    }
    assert_eq!(controller.handle(Input::Line("quit".into())), Flow::Quit);
    let output = sink.take();
    // Everything printed is UTF-8 (Captured reads it lossily: no replacement character).
    assert!(!output.contains('\u{FFFD}'), "{output}");
    let answers = |prefix: &str| -> Vec<String> {
        output
            .lines()
            .filter(|l| l.starts_with(prefix))
            .map(str::to_string)
            .collect()
    };
    let (bestmoves, checkmates) = (answers("bestmove"), answers("checkmate"));
    let context = format!("seed {seed}:\n{history}\n{output}");
    assert_eq!(bestmoves.len(), searches.len(), "{context}");
    assert_eq!(checkmates.len(), mates.len(), "{context}");
    for (answer, position) in bestmoves.iter().zip(&searches) {
        check_bestmove(answer, position, &context);
    }
    for (answer, position) in checkmates.iter().zip(&mates) {
        check_checkmate(answer, position, &context);
    }
    let readyoks = output.lines().filter(|&l| l == "readyok").count();
    assert_eq!(readyoks, readies, "seed {seed}");
}

#[test]
fn random_sessions_keep_every_promise() {
    for seed in 1..=48u64 {
        run_session(
            seed,
            40,
            Vec::new(),
            Some(Position::startpos(Variant::chu())),
        );
    }
}

#[test]
fn random_sessions_without_a_position_keep_every_promise() {
    // The last position was refused: until a good one comes, every go is refused too.
    for seed in 101..=116u64 {
        let refused = ("position sfen 12/12 b - 1".to_string(), None);
        let go = ("go depth 1".to_string(), Some(Go::Search(None)));
        let mate = ("go mate 50".to_string(), Some(Go::Mate(None)));
        run_session(seed, 20, vec![refused, go, mate], None);
    }
}

#[test]
fn random_sessions_on_a_crowded_board_answer_every_go() {
    // The all-kirin board with both kings: a first iteration that cannot finish. Every
    // node or depth limit still answers (after the one-second first-iteration cap).
    let crowded = "KNNNNNNNNNNN/NNNNNNNNNNNN/NNNNNNNNNNNN/NNNNNNNNNNNN/NNNNNNNNNNNN/\
NNNNNNNNNNNN/nnnnnnnnnnnn/nnnnnnnnnnnn/nnnnnnnnnnnn/nnnnnnnnnnnn/nnnnnnnnnnnn/nnnnnnnnnnnk b - 1";
    let pos = Position::from_sfen(Variant::chu(), crowded).unwrap();
    for seed in 201..=203u64 {
        let setup = vec![
            (format!("position sfen {crowded}"), None),
            (
                "go nodes 1".to_string(),
                Some(Go::Search(Some(pos.clone()))),
            ),
            (
                "go depth 2".to_string(),
                Some(Go::Search(Some(pos.clone()))),
            ),
            (
                "go mate 200 nodes 5000".to_string(),
                Some(Go::Mate(Some(pos.clone()))),
            ),
        ];
        let started = std::time::Instant::now();
        run_session(seed, 8, setup, Some(pos.clone()));
        assert!(started.elapsed() < Duration::from_secs(60), "seed {seed}");
    }
}
