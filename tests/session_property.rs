//! A property test of the engine session under USI: random command sequences (options at
//! any time, go / stop / ponderhit / position interleaved, variant switches mid-game, bad
//! positions) driven in-process. After each sequence: the engine is alive, every `go` got
//! exactly one `bestmove`, every bestmove is legal in its `go`'s position (or `resign`
//! where there is no position or the game is over), and every `isready` was answered.

use shishi::core::rng::Rng;
use shishi::position::{GenMode, Position};
use shishi::session::io::{Input, Output};
use shishi::usi::controller::{Controller, Flow};
use shishi::variant::Variant;
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A sink the test can read back.
#[derive(Clone, Default)]
struct Sink(Arc<Mutex<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

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

/// One random command, and the model's state after it. Returns the line and, for a `go`,
/// the position it searches.
fn command(model: &mut Model, rng: &mut Rng) -> (String, Option<Option<Position>>) {
    match rng.below(20) {
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
            (go, Some(model.position.clone()))
        }
        13 | 14 => ("stop".to_string(), None),
        15 => ("ponderhit".to_string(), None),
        16 | 17 => ("isready".to_string(), None),
        18 => ("usinewgame".to_string(), None),
        _ => ("wait".to_string(), None),
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

#[test]
fn random_sessions_keep_every_promise() {
    for seed in 1..=48u64 {
        let mut rng = Rng::new(seed);
        let sink = Sink::default();
        let mut controller =
            Controller::new(Arc::new(Output::to(Box::new(sink.clone())))).expect("a session");
        let mut model = Model {
            variant: Variant::chu(),
            position: Some(Position::startpos(Variant::chu())),
        };
        let (mut gos, mut readies, mut history) = (Vec::new(), 0, String::new());
        for _ in 0..40 {
            let (line, go) = command(&mut model, &mut rng);
            history += &format!("{line}\n");
            if line == "wait" {
                std::thread::sleep(Duration::from_millis(rng.below(30) as u64));
                continue;
            }
            readies += usize::from(line == "isready");
            if let Some(position) = go {
                gos.push(position);
            }
            assert_eq!(controller.handle(Input::Line(line)), Flow::Continue);
        }
        assert_eq!(controller.handle(Input::Line("quit".into())), Flow::Quit);
        let output = String::from_utf8(sink.0.lock().unwrap().clone()).unwrap();
        let bestmoves: Vec<&str> = output
            .lines()
            .filter(|l| l.starts_with("bestmove"))
            .collect();
        assert_eq!(
            bestmoves.len(),
            gos.len(),
            "seed {seed}:\n{history}\n{output}"
        );
        for (answer, position) in bestmoves.iter().zip(&gos) {
            check_bestmove(answer, position, &format!("seed {seed}:\n{history}"));
        }
        let readyoks = output.lines().filter(|&l| l == "readyok").count();
        assert_eq!(readyoks, readies, "seed {seed}");
    }
}
