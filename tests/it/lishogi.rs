//! lishogi's two real clients, replayed exactly as `../shared/protocols/clients.md` §2.6a
//! measured them: Lishogi-Bot playing a whole chu game, and shoginet's analysis job walking
//! a game backwards. Every answer must be legal, in time, and carry what the client reads.

use crate::common::Engine;
use shishi::core::rng::Rng;
use shishi::position::{GenMode, Position};
use shishi::variant::Variant;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn random_reply(pos: &mut Position, rng: &mut Rng) -> Option<String> {
    if pos.outcome().is_some() {
        return None;
    }
    let mut moves = Vec::new();
    pos.legal_moves(GenMode::Search, &mut moves);
    let mv = moves[rng.below(moves.len())];
    let text = pos.move_to_usi(mv);
    pos.make_move(mv);
    Some(text)
}

#[test]
fn lishogi_bot_plays_a_game_as_the_bot_drives_it() {
    let mut e = Engine::start_usi();
    // One setoption per usi_options entry (an empty YAML value arrives as `None`), then
    // isready; never usinewgame.
    for option in [
        "Threads value 1",
        "USI_Hash value 16",
        "Move_Overhead value 100",
        "USI_Ponder value None",
    ] {
        e.send(&format!("setoption name {option}"));
    }
    e.send("isready");
    e.until(5.0, |l| l == "readyok");
    e.send("setoption name USI_Variant value chushogi");
    let mut pos = Position::startpos(Variant::chu());
    let mut moves: Vec<String> = Vec::new();
    let mut rng = Rng::new(11);
    let (mut btime, byoyomi) = (3_000u64, 300u64);
    for turn in 0..14 {
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        // The first move is `go movetime 1000.0` (configured times are floats); later the
        // clock, main time already reduced by byoyomi (never below 0), in both forms.
        let (go, allowed) = if turn == 0 {
            ("go movetime 1000.0".to_string(), 1_000)
        } else if turn % 2 == 0 {
            let b = btime.saturating_sub(byoyomi);
            (
                format!("go btime {b} wtime 3000 byoyomi {byoyomi}"),
                b + byoyomi,
            )
        } else {
            (
                format!("go btime {btime} wtime 3000 binc 100 winc 100"),
                btime,
            )
        };
        let start = Instant::now();
        e.send(&go);
        let answer = e.until(10.0, |l| l.starts_with("bestmove")).clone();
        let took = start.elapsed();
        // Generous slack: the rule is the clock; the machine may be loaded.
        assert!(
            took < Duration::from_millis(allowed + 400),
            "{go}: {took:?}"
        );
        btime = btime.saturating_sub(took.as_millis() as u64) + 100;
        let mv = answer.split_whitespace().nth(1).unwrap().to_string();
        let played = pos
            .parse_usi_move(&mv)
            .unwrap_or_else(|e| panic!("{mv}: {e}"));
        // Pondering as the bot does it in chu: on the position *before* our move, then stop.
        e.send(&format!(
            "go ponder btime {btime} wtime 3000 byoyomi {byoyomi}"
        ));
        std::thread::sleep(Duration::from_millis(50));
        e.send("stop");
        e.until(5.0, |l| l.starts_with("bestmove"));
        pos.make_move(played);
        moves.push(mv);
        match random_reply(&mut pos, &mut rng) {
            Some(reply) => moves.push(reply),
            None => break,
        }
    }
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    e.send("stop");
    e.send("quit");
    assert_eq!(e.close_and_wait(5.0), 0);
}

#[test]
fn log_lines_never_look_like_protocol_lines() {
    // Lishogi-Bot merges stderr into stdout.
    let out = Command::new(env!("CARGO_BIN_EXE_shishi"))
        .env("RUST_LOG", "trace")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            let mut stdin = child.stdin.take().unwrap();
            writeln!(
                stdin,
                "usi\nsetoption name Frob value 1\nposition startpos moves 1a1a"
            )?;
            writeln!(
                stdin,
                "setoption name USI_Hash value 8\ngo depth 3\nisready\nquit"
            )?;
            drop(stdin);
            child.wait_with_output()
        })
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.is_empty(), "trace logging shows the protocol lines");
    for line in stderr.lines() {
        let first = line.split_whitespace().next().unwrap_or("");
        assert!(
            ![
                "info",
                "bestmove",
                "id",
                "option",
                "usiok",
                "readyok",
                "checkmate",
                "move",
                "feature",
                "pong",
                "Error",
                "Illegal",
                "telluser",
            ]
            .contains(&first),
            "a log line that reads as protocol: {line}"
        );
    }
}

/// `(depth, seldepth, score, nodes, nps, time, pv)` fields present on an info line.
fn info_fields(line: &str) -> Vec<String> {
    let t: Vec<&str> = line.split_whitespace().collect();
    ["depth", "seldepth", "score", "nodes", "nps", "time", "pv"]
        .iter()
        .filter(|k| t.contains(k))
        .map(|k| k.to_string())
        .collect()
}

#[test]
fn shoginet_analysis_job_walks_a_game_backwards() {
    // A game that ends: sente takes gote's last royal with its final move.
    let initial = "6k5/12/6G5/12/12/12/12/12/12/pp10/12/6K5 b - 1";
    let game = ["6c6b", "11j11k", "6b6a"];
    let mut e = Engine::start();
    for line in [
        "setoption name USI_Variant value chushogi",
        "setoption name USI_AnalyseMode value true",
        "setoption name Skill_Level value 20",
        "setoption name MultiPV value 1",
        "usinewgame",
    ] {
        e.send(line);
    }
    for ply in (0..=game.len()).rev() {
        e.send("isready");
        e.until(5.0, |l| l == "readyok");
        let prefix = game[..ply].join(" ");
        e.send(&format!("position sfen {initial} moves {prefix}"));
        let from = e.seen.len();
        e.send("go movetime 300 depth 6 nodes 20000");
        e.until(10.0, |l| l.starts_with("bestmove"));
        let last = e.seen[from..]
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth"))
            .unwrap_or_else(|| panic!("ply {ply}: no info line: {:#?}", &e.seen[from..]))
            .clone();
        if ply == game.len() {
            // The game is over: lishogi drops `mate 0` entries.
            assert_eq!(last, "info depth 0 score mate 0");
            continue;
        }
        assert_eq!(info_fields(&last).len(), 7, "ply {ply}: {last}");
        let mut pos = Position::from_sfen(Variant::chu(), initial).unwrap();
        pos.play_usi_moves(game[..ply].iter().copied()).unwrap();
        let pv: Vec<&str> = last.split(" pv ").nth(1).unwrap().split(' ').collect();
        for mv in pv {
            let parsed = pos
                .parse_usi_move(mv)
                .unwrap_or_else(|e| panic!("ply {ply}: {e}"));
            pos.make_move(parsed);
        }
    }
}

#[test]
fn shoginet_ai_moves_at_every_level_are_legal_deterministic_and_weaker_below_20() {
    let positions = [
        "startpos",
        "startpos moves 8i8h 5d5e 7j8i 6c5d 8i8g 5d6e 8g7f 6e6f",
        "sfen 12/6k5/7n4/12/12/6N5/6+F5/12/12/4CTT5/4SKE5/5GF5 b - 1",
        "startpos moves 5i5h 6c6e 4j7g 5d5e 3k6h 8d8e 7i7h 7b5d",
    ];
    let mut e = Engine::start();
    e.send("setoption name USI_Variant value chushogi");
    let play = |e: &mut Engine, level: u8, position: &str| {
        e.send(&format!("setoption name Skill_Level value {level}"));
        e.send("usinewgame");
        e.send(&format!("position {position}"));
        let start = Instant::now();
        e.send("go movetime 2000 depth 4");
        let mv = e.bestmove(10.0);
        assert!(start.elapsed() < Duration::from_millis(2400));
        mv
    };
    let mut differs = 0;
    for position in positions {
        let strongest = play(&mut e, 20, position);
        for level in [0, 3, 8, 14, 19] {
            let mv = play(&mut e, level, position);
            assert_eq!(
                mv,
                play(&mut e, level, position),
                "level {level} deterministic"
            );
            let mut pos = if position == "startpos" || position.starts_with("startpos ") {
                Position::startpos(Variant::chu())
            } else {
                Position::from_sfen(Variant::chu(), position.trim_start_matches("sfen ")).unwrap()
            };
            if let Some(moves) = position.split(" moves ").nth(1) {
                pos.play_usi_moves(moves.split(' ')).unwrap();
            }
            assert!(pos.parse_usi_move(&mv).is_ok(), "level {level}: {mv}");
            differs += usize::from(level == 0 && mv != strongest);
        }
    }
    assert!(differs >= 1, "level 0 always played level 20's move");
}

/// The evaluations lishogi's browser analysis (ceval, `ui/ceval/src/protocol.ts`) would
/// show from `lines`, by its rules: an info line needs depth 6 or a mate, nodes, time and a
/// score; a first line with a bound is dropped; a first line starts a new evaluation, any
/// other is added to the current one (bound or not), and the evaluation is shown when the
/// highest multipv seen so far arrives, and again at `bestmove`. Each shown evaluation as
/// its rows' first moves.
fn ceval_evaluations(lines: &[String]) -> Vec<Vec<String>> {
    let (mut shown, mut current, mut expected): (Vec<Vec<String>>, Option<Vec<String>>, usize) =
        (Vec::new(), None, 1);
    for line in lines {
        let t: Vec<&str> = line.split_whitespace().collect();
        if t.first() == Some(&"bestmove") {
            shown.extend(current.take());
            break;
        }
        if t.first() != Some(&"info") {
            continue;
        }
        let at = |k: &str| t.iter().position(|w| *w == k);
        let number = |k: &str| at(k).and_then(|i| t.get(i + 1)?.parse::<i64>().ok());
        let multipv = number("multipv").unwrap_or(1) as usize;
        expected = expected.max(multipv);
        let depth = number("depth").unwrap_or(0);
        let mate = at("score").is_some_and(|i| t.get(i + 1) == Some(&"mate"));
        let bound = line.contains(" lowerbound") || line.contains(" upperbound");
        if (depth < 6 && !mate) || number("nodes").is_none() || number("time").is_none() {
            continue;
        }
        if at("score").is_none() || (bound && multipv == 1) {
            continue;
        }
        let first = at("pv")
            .and_then(|i| t.get(i + 1))
            .map_or(String::new(), |m| m.to_string());
        if multipv == 1 {
            current = Some(vec![first]);
        } else if let Some(rows) = current.as_mut() {
            rows.push(first);
        }
        if multipv == expected {
            shown.extend(current.clone());
        }
    }
    shown
}

#[test]
fn lishogis_analysis_board_shows_exactly_multipv_rows_every_time() {
    // Issue 56, item 1: with MultiPV 3 a bound line for every line index after a second,
    // then the exact one, made lishogi's list hold a fourth, stale row.
    let mut e = Engine::start();
    for line in [
        "setoption name USI_Variant value chushogi",
        "setoption name USI_AnalyseMode value true",
        "setoption name MultiPV value 3",
        "usinewgame",
        "isready",
    ] {
        e.send(line);
    }
    e.until(10.0, |l| l == "readyok");
    let mut evaluations = 0;
    for moves in ["", "7j6h 9a9b 7i7h", "8i8h 5d5e 7j8i 6c5d"] {
        e.send(&format!("position startpos moves {moves}"));
        let from = e.seen.len();
        e.send("go movetime 2500");
        e.until(15.0, |l| l.starts_with("bestmove"));
        let shown = ceval_evaluations(&e.seen[from..]);
        assert!(!shown.is_empty(), "{moves}: nothing shown");
        for rows in &shown {
            let distinct: std::collections::HashSet<&String> = rows.iter().collect();
            assert!(
                rows.len() == 3 && distinct.len() == 3 && rows.iter().all(|m| !m.is_empty()),
                "{moves}: an evaluation shown with rows {rows:?}: {:#?}",
                &e.seen[from..]
            );
        }
        evaluations += shown.len();
    }
    assert!(evaluations >= 6, "{evaluations}");
}

/// The info line shoginet's analysis job keeps for a search (`src/work/analysis.ts`): the
/// last one whose depth is at least the deepest so far (a line without a depth replaces it
/// too).
fn shoginet_keeps(lines: &[String]) -> Option<String> {
    let depth_of = |l: &str| {
        let t: Vec<&str> = l.split_whitespace().collect();
        t.iter()
            .position(|w| *w == "depth")
            .and_then(|i| t.get(i + 1)?.parse::<i64>().ok())
    };
    let mut kept: Option<&String> = None;
    for line in lines.iter().filter(|l| l.starts_with("info")) {
        let deeper = match (depth_of(line), kept.and_then(|k| depth_of(k))) {
            (Some(d), Some(k)) => d >= k,
            _ => true,
        };
        if deeper {
            kept = Some(line);
        }
    }
    kept.cloned()
}

#[test]
fn the_line_shoginet_keeps_is_exact_and_the_bestmoves() {
    // Issue 56, item 1: bound lines one ply deeper than the last finished iteration were
    // the deepest lines of a search, and shoginet stored them (16 of 96 scores in a job).
    let mut e = Engine::start();
    for line in [
        "setoption name USI_Variant value chushogi",
        "setoption name USI_AnalyseMode value true",
        "setoption name Skill_Level value 20",
        "setoption name MultiPV value 1",
        "usinewgame",
    ] {
        e.send(line);
    }
    // lishogi's test game (a lion double move in it), walked backwards, and the issue's
    // own example position.
    let game = "8i8h 5d5e 7j8i 6c5d 8i8g 5d6e 8g7f 6e6f 7f7e7f 5e5f";
    let moves: Vec<&str> = game.split(' ').collect();
    let mut positions: Vec<String> = (0..=moves.len())
        .rev()
        .map(|ply| moves[..ply].join(" "))
        .collect();
    positions.push("7j6h 9a9b 7i7h".to_string());
    for (ply, prefix) in positions.iter().enumerate() {
        e.send("isready");
        e.until(5.0, |l| l == "readyok");
        e.send(&format!("position startpos moves {prefix}"));
        let from = e.seen.len();
        // shoginet's own limits, with a node cap small enough for CI: searches stop in the
        // middle of an iteration.
        e.send("go movetime 3000 depth 19 nodes 120000");
        let best = e.bestmove(15.0);
        let kept = shoginet_keeps(&e.seen[from..]).expect("an info line");
        assert!(
            !kept.contains("bound"),
            "ply {ply}: shoginet keeps a bound: {kept}\n{:#?}",
            &e.seen[from..]
        );
        let first = kept
            .split(" pv ")
            .nth(1)
            .and_then(|pv| pv.split(' ').next());
        assert_eq!(first, Some(best.as_str()), "ply {ply}: {kept}");
    }
}
