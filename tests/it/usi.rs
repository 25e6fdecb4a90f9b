//! USI sessions against the built binary, over pipes, with timeouts.

use crate::common::Engine;
use shishi::position::Position;
use shishi::variant::Variant;
use std::time::{Duration, Instant};

fn legal(variant: &'static Variant, moves: &[String], mv: &str) -> bool {
    let mut pos = Position::startpos(variant);
    pos.play_usi_moves(moves.iter().map(String::as_str))
        .unwrap();
    pos.parse_usi_move(mv).is_ok()
}

const LION_HISTORY: &str = "8i8h 5d5e 7j8i 6c5d 8i8g 5d6e 8g7f 6e6f 7f7e7f 5e5f";

#[test]
fn lishogi_bot_flow() {
    let mut e = Engine::start_usi();
    assert!(e.seen.iter().any(|l| l.starts_with("id name Shishi")));
    for name in [
        "USI_Variant type combo",
        "USI_Hash",
        "Threads",
        // Listed with the prefix (shoginet logs every option it sends that is not listed).
        "option name USI_MultiPV type spin",
        "USI_Ponder",
        "Move_Overhead",
        "Clear_Hash",
    ] {
        assert!(
            e.seen
                .iter()
                .any(|l| l.starts_with("option name ") && l.contains(name)),
            "{name}"
        );
    }
    e.send("setoption name USI_Variant value chushogi");
    e.send("isready");
    e.until(5.0, |l| l == "readyok");
    e.send("usinewgame");
    // The whole game so far, lion double moves included (a jitto, 7f7e7f).
    e.send(&format!("position startpos moves {LION_HISTORY}"));
    e.send("go btime 10000 wtime 10000 byoyomi 1000");
    let start = Instant::now();
    let mv = e.bestmove(10.0);
    assert!(
        start.elapsed() < Duration::from_millis(3000),
        "{:?}",
        start.elapsed()
    );
    let history: Vec<String> = LION_HISTORY.split(' ').map(String::from).collect();
    assert!(legal(Variant::chu(), &history, &mv), "{mv}");
    // Info lines carry the USI fields, with pv last.
    let info = e
        .seen
        .iter()
        .find(|l| l.starts_with("info depth"))
        .expect("an info line")
        .clone();
    for field in [
        " seldepth ",
        " multipv ",
        " score ",
        " nodes ",
        " nps ",
        " hashfull ",
        " time ",
        " pv ",
    ] {
        assert!(info.contains(field), "{info}");
    }
    // Lishogi-Bot's arithmetic can give negative or empty clocks; a position with a trailing
    // `moves` and nothing after it.
    e.send("position startpos moves ");
    e.send("go btime -300 wtime 1000 byoyomi 500 binc 100 winc 100");
    let mv = e.bestmove(5.0);
    assert!(legal(Variant::chu(), &[], &mv));
    assert_eq!(e.close_and_wait(5.0), 0);
}

#[test]
fn stop_answers_within_a_moment() {
    let mut e = Engine::start_usi();
    for threads in [1, 2] {
        e.send(&format!("setoption name Threads value {threads}"));
        e.send("position startpos");
        e.send("go infinite");
        e.until(10.0, |l| l.starts_with("info depth 3"));
        e.send("isready");
        e.until(1.0, |l| l == "readyok");
        std::thread::sleep(Duration::from_millis(200));
        let asked = Instant::now();
        e.send("stop");
        e.bestmove(5.0);
        let latency = asked.elapsed();
        // The goal is 50 ms; the test leaves room for a loaded machine.
        assert!(
            latency < Duration::from_millis(500),
            "{threads} threads: {latency:?}"
        );
    }
}

#[test]
fn ponder_waits_for_ponderhit() {
    let mut e = Engine::start();
    e.send("setoption name USI_Ponder value true");
    e.send("position startpos moves 8i8h");
    e.send("go ponder btime 2000 wtime 2000 byoyomi 200");
    // A pondering search never ends on its own time.
    e.quiet_for(1.0, |l| l.starts_with("bestmove"));
    e.send("ponderhit");
    let mv = e.bestmove(5.0);
    assert!(legal(Variant::chu(), &["8i8h".to_string()], &mv));
    // And `stop` ends a ponder search too (the GUI ignores that bestmove).
    e.send("go ponder btime 2000 wtime 2000");
    std::thread::sleep(Duration::from_millis(200));
    e.send("stop");
    e.bestmove(5.0);
}

#[test]
fn multipv_lines() {
    let mut e = Engine::start();
    e.send("setoption name USI_MultiPV value 3");
    e.send("position startpos");
    e.send("go depth 4");
    e.bestmove(10.0);
    for k in 1..=3 {
        assert!(
            e.seen
                .iter()
                .any(|l| l.starts_with("info depth 4 ") && l.contains(&format!(" multipv {k} "))),
            "multipv {k}: {:#?}",
            e.seen
        );
    }
}

#[test]
fn a_whole_self_played_game_has_only_legal_moves() {
    for variant in [Variant::chu(), Variant::sho()] {
        let mut e = Engine::start();
        e.send(&format!(
            "setoption name USI_Variant value {}",
            variant.name()
        ));
        e.send("usinewgame");
        let mut moves: Vec<String> = Vec::new();
        let mut pos = Position::startpos(variant);
        for _ in 0..60 {
            if pos.outcome().is_some() {
                break;
            }
            e.send(&format!("position startpos moves {}", moves.join(" ")));
            e.send("go nodes 3000");
            let mv = e.bestmove(10.0);
            let parsed = pos.parse_usi_move(&mv).unwrap_or_else(|err| {
                panic!("{}: {mv} after {}: {err}", variant.name(), moves.join(" "))
            });
            pos.make_move(parsed);
            moves.push(mv);
        }
        assert!(moves.len() >= 10, "{}", variant.name());
    }
}

#[test]
fn bad_input_never_crashes_and_a_bad_position_leaves_none() {
    let mut e = Engine::start();
    e.send("position startpos moves 8i8h");
    e.send("d");
    let sfen = e.until(5.0, |l| l.starts_with("sfen ")).clone();
    for bad in [
        "position sfen lfcsgekgscfl/a1b1txot1b1a/ZZZ b - 1",
        "position sfen 9/9/9/9/9/9/9/9/9 b - 1",
        "position startpos moves 8i8h 8h8a",
        "position startpos moves 7i7h zz99",
        "position",
        "setoption name Threads value lots",
        "setoption name USI_Hash value 0",
        "setoption name USI_Hash value 65536",
        "setoption name USI_Variant value taikyoku",
        "xyzzy plugh",
        "",
        "   ",
        "\u{0}\u{1}\u{7f}",
        "perft banana",
    ] {
        e.send(bad);
    }
    e.send(&"x".repeat(2_000_000));
    e.send("isready\r");
    e.until(5.0, |l| l == "readyok");
    let errors = e
        .seen
        .iter()
        .filter(|l| l.starts_with("info string error"))
        .count();
    assert!(errors >= 10, "{:#?}", e.seen);
    assert!(
        e.seen.iter().any(|l| l.contains("ranks")
            && l.contains("(this SFEN is shoshogi); set USI_Variant to shoshogi first")),
        "names the other variant and the USI remedy: {:#?}",
        e.seen
    );
    assert!(
        e.seen
            .iter()
            .any(|l| l.contains("move 2") && l.contains("8h8a")),
        "{:#?}",
        e.seen
    );
    // The last position sent was rejected: there is none, and `go` resigns rather than
    // answer with a move of an older position.
    e.send("d");
    e.until(5.0, |l| l.contains("error: no position is set"));
    e.send("go depth 2");
    assert_eq!(e.bestmove(5.0), "resign");
    e.quiet_for(0.3, |l| l.starts_with("bestmove"));
    e.send("position startpos moves 8i8h");
    e.send("d");
    let after = e.until(5.0, |l| l.starts_with("sfen "));
    assert_eq!(after, sfen, "a good position is taken again");
    // A go with broken numbers still gives exactly one bestmove.
    e.send("go depth x nodes 2000 frob");
    let mv = e.bestmove(5.0);
    assert!(legal(Variant::chu(), &["8i8h".to_string()], &mv));
    e.quiet_for(0.3, |l| l.starts_with("bestmove"));
    // Unknown options are accepted and ignored.
    e.send("setoption name USI_AnalyseMode value true");
    e.send("setoption name Skill_Level value 3");
    e.send("isready");
    e.until(5.0, |l| l == "readyok");
    assert_eq!(e.close_and_wait(5.0), 0, "EOF ends the engine cleanly");
}

#[test]
fn setoption_and_position_during_a_search_wait_for_it() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go infinite");
    e.until(10.0, |l| l.starts_with("info depth 2"));
    e.send("setoption name MultiPV value 2");
    e.until(2.0, |l| l.contains("apply when the current search ends"));
    e.send("position startpos moves 8i8h");
    e.send("stop");
    let first = e.bestmove(5.0);
    assert!(
        legal(Variant::chu(), &[], &first),
        "the search went on with the old position"
    );
    e.send("go depth 3");
    e.bestmove(10.0);
    assert!(
        e.seen
            .iter()
            .any(|l| l.starts_with("info depth 3") && l.contains(" multipv 2 ")),
        "the queued option applies"
    );
    // quit during a search ends at once.
    e.send("go infinite");
    e.until(10.0, |l| l.starts_with("info depth 2"));
    e.send("quit");
    e.bestmove(5.0);
}

#[test]
fn sho_and_debug_commands() {
    let mut e = Engine::start();
    e.send("setoption name USI_Variant value shoshogi");
    e.send("position startpos");
    e.send("perft 3");
    e.until(10.0, |l| l == "nodes 17368");
    e.send("moves");
    let moves = e.until(5.0, |l| l.starts_with("moves "));
    assert_eq!(moves.split_whitespace().count(), 27);
    e.send("eval");
    e.until(5.0, |l| l.starts_with("eval"));
    e.send("go mate 2000");
    e.until(5.0, |l| l.starts_with("checkmate"));
    e.send("position sfen 8k/9/p6SG/9/9/9/9/9/4K4 b - 1");
    e.send("go mate infinite");
    let line = e.until(5.0, |l| l.starts_with("checkmate"));
    assert_ne!(line, "checkmate nomate");
}

/// The `eval` command lists every term: the lines above `total` add up to it (here with
/// the mop-up term at work: gote's lion and king against a king, a gold and two pawns).
#[test]
fn eval_lists_terms_that_add_up_to_the_total() {
    let mut e = Engine::start();
    e.send("position sfen 11k/12/12/12/12/6n5/6P5/6P5/12/12/12/K10G w - 1");
    e.send("eval");
    let total_line = e.until(5.0, |l| l.starts_with("total"));
    let total: i32 = total_line
        .split_whitespace()
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    // Nothing else was sent: every line seen before `total` is a term.
    let terms: Vec<i32> = e.seen[..e.seen.len() - 1]
        .iter()
        .map(|l| l.rsplit(' ').next().unwrap().parse().expect(l))
        .collect();
    assert!(terms.len() >= 9, "{:?}", e.seen);
    assert!(
        e.seen
            .iter()
            .any(|l| l.starts_with("mop-up") && !l.ends_with(" 0")),
        "{:?}",
        e.seen
    );
    assert_eq!(terms.iter().sum::<i32>(), total, "{:?}", e.seen);
}

/// `eval` weighs the position as the search would: an option that changes the evaluation
/// (`Tune_trade_down_pct`, off by default) changes its lines too.
#[test]
fn eval_follows_the_options_that_change_the_evaluation() {
    let mut e = Engine::start();
    let trade_down = |e: &mut Engine| -> i32 {
        e.send("position sfen 11k/12/12/12/12/6n5/6P5/6P5/12/12/12/K10G w - 1");
        e.send("eval");
        let line = e.until(5.0, |l| l.starts_with("trade-down"));
        line.rsplit(' ').next().unwrap().parse().expect(&line)
    };
    assert_eq!(trade_down(&mut e), 0);
    e.send("setoption name Tune_trade_down_pct value 50");
    // Gote (the lion's side) is ahead: the term counts for gote.
    assert!(trade_down(&mut e) < 0);
}

/// The nodes of a fixed-depth search from the start, after these `setoption` lines.
fn nodes_at_depth_4(options: &[&str]) -> (u64, Vec<String>) {
    let mut e = Engine::start_usi();
    for o in options {
        e.send(o);
    }
    e.send("isready");
    e.until(5.0, |l| l == "readyok");
    e.send("position startpos");
    e.send("go depth 4");
    e.bestmove(30.0);
    let nodes = e.nodes_at_depth(4).expect("an info line at depth 4");
    (nodes, e.seen.clone())
}

#[test]
fn search_constants_are_options_for_tuners() {
    let (default, seen) = nodes_at_depth_4(&[]);
    // Not listed: GUIs show every option they are told of.
    assert!(!seen.iter().any(|l| l.contains("Tune_")));
    let (same, _) = nodes_at_depth_4(&["setoption name Tune_lmr_base_hundredths value 50"]);
    assert_eq!(same, default, "the default value searches the same tree");
    let (other, _) = nodes_at_depth_4(&["setoption name Tune_lmr_base_hundredths value 200"]);
    assert_ne!(other, default, "other reductions search another tree");
    let (_, seen) = nodes_at_depth_4(&[
        "setoption name Tune_lmr_base_hundredths value 9999",
        "setoption name Tune_no_such_thing value 1",
    ]);
    for bad in [
        "Tune_lmr_base_hundredths: '9999'",
        "Tune_no_such_thing: no such",
    ] {
        assert!(
            seen.iter()
                .any(|l| l.starts_with("info string") && l.contains(bad)),
            "{bad}: {seen:?}"
        );
    }
}

/// Gote to move wins in 13 plies by checks (a self-play position where the alpha-beta
/// search of the time missed it and the game went on 79 plies).
const MATE_13: &str =
    "lf1g1tkgt1f1/a1cs1x2s3/2m9/8c3/p1P2p1ei3/6+r5/P2N1n6/A2C8/L3T2GC1+d1/7M4/4SO6/1F2GKE2+h2 w - 310";

#[test]
fn a_timed_search_plays_the_win_the_solver_proves() {
    let mut e = Engine::start_usi();
    // Here the solver gets all of the planned time (about 400 ms; the proof takes about
    // 1,200 nodes), so that a loaded machine still proves it.
    e.send("setoption name Tune_probe_mate_permille value 1000");
    e.send(&format!("position sfen {MATE_13}"));
    e.send("go btime 20000 wtime 20000 binc 200 winc 200");
    let best = e.bestmove(30.0);
    let proof = e.last_seen("info depth").expect("an info line").to_string();
    let words: Vec<&str> = proof.split_whitespace().collect();
    let at = |w: &str| words.iter().position(|x| *x == w).expect(w) + 1;
    assert_eq!(words[at("score")..at("score") + 1], ["mate"], "{proof}");
    let plies: usize = words[at("mate")].parse().unwrap();
    assert!((1..=13).contains(&plies), "{proof}");
    let pv = &words[at("pv")..];
    assert_eq!(pv.len(), plies, "{proof}");
    assert_eq!(best, pv[0], "{proof}");
    let mut pos = Position::from_sfen(Variant::chu(), MATE_13).unwrap();
    pos.play_usi_moves(pv.iter().copied())
        .expect("the proven line is legal");
    let end = pos.outcome().expect("the proven line ends the game");
    assert_eq!(end.winner, Some(shishi::core::Color::Gote), "{proof}");

    // A search bounded by nodes stays an alpha-beta search (bench, fixed-node games).
    e.send(&format!("position sfen {MATE_13}"));
    e.send("go nodes 2000");
    e.bestmove(30.0);
    let last = e.last_seen("info depth").expect("an info line");
    assert!(!last.contains("score mate"), "{last}");

    // Gote leads by about 5,900 by static evaluation: with a gate above that, the solver
    // does not try and the timed search is alpha-beta from depth 1; at the default gate
    // (1,000) the solver tries and proves, with no depth-1 iteration.
    let mut searched_from_depth_1 = |min_lead: u32| {
        e.send(&format!(
            "setoption name Tune_probe_mate_min_lead value {min_lead}"
        ));
        e.send(&format!("position sfen {MATE_13}"));
        e.seen.clear();
        e.send("go btime 20000 wtime 20000 binc 200 winc 200");
        e.bestmove(30.0);
        let from_depth_1 = e.seen.iter().any(|l| l.starts_with("info depth 1 "));
        (from_depth_1, e.seen.clone())
    };
    let (from_depth_1, seen) = searched_from_depth_1(10_000);
    assert!(from_depth_1, "{seen:?}");
    let (from_depth_1, seen) = searched_from_depth_1(1_000);
    assert!(!from_depth_1, "{seen:?}");
}

#[test]
fn the_mate_probe_is_on_by_default() {
    // With the default options a game move far ahead lets the solver try first (a tenth of
    // the planned time, here about 280 ms against the proof's 1,200 nodes): the proven
    // line is the answer and no alpha-beta iteration (depth 1 first) is reported.
    let mut e = Engine::start_usi();
    e.send(&format!("position sfen {MATE_13}"));
    e.send("go btime 200000 wtime 200000 binc 0 winc 0");
    let best = e.bestmove(30.0);
    assert!(
        !e.seen.iter().any(|l| l.starts_with("info depth 1 ")),
        "{:?}",
        e.seen
    );
    let proof = e.last_seen("info depth").expect("an info line").to_string();
    assert!(proof.contains(" score mate "), "{proof}");
    let pv = proof.split(" pv ").nth(1).expect("a pv");
    assert_eq!(pv.split_whitespace().next(), Some(best.as_str()), "{proof}");

    // Not in an analysis: there the mate helper or the analysis's own first try act
    // (neither runs for one thread on a clock), so the same command searches from depth 1.
    e.send("setoption name USI_AnalyseMode value true");
    e.send(&format!("position sfen {MATE_13}"));
    e.seen.clear();
    e.send("go btime 20000 wtime 20000 binc 0 winc 0");
    e.bestmove(30.0);
    assert!(
        e.seen.iter().any(|l| l.starts_with("info depth 1 ")),
        "{:?}",
        e.seen
    );
}

/// Sente to move wins in 17 plies by checks (`data/mate/hard.txt`, from self-play): the
/// solver proves it in a fraction of a second, the alpha-beta search alone still scores it
/// about 7,000 cp after several seconds.
const MATE_17: &str = "12/6k5/5gx5/2f3es4/5X6/6+O5/12/7S4/12/4STT5/4GKG5/6E5 b - 399";

#[test]
fn an_analysis_with_two_threads_proves_the_mate_in_a_helper() {
    let mut e = Engine::start_usi();
    e.send("setoption name Threads value 2");
    e.send("setoption name USI_AnalyseMode value true");
    e.send(&format!("position sfen {MATE_17}"));
    e.send("go infinite");
    let proof = e.until(60.0, |l| {
        l.starts_with("info depth") && l.contains("score mate")
    });
    // A while longer: later iterations of the search must not push the proof off the top.
    e.quiet_for(1.0, |_| false);
    e.send("stop");
    let best = e.bestmove(10.0);
    let words: Vec<&str> = proof.split_whitespace().collect();
    let at = |w: &str| words.iter().position(|x| *x == w).expect(w) + 1;
    let plies: usize = words[at("mate")].parse().unwrap();
    let pv = &words[at("pv")..];
    assert_eq!(pv.len(), plies, "{proof}");
    // The helper's line is the solver's proof: as deep as it is long, and no shorter than
    // the shortest proof by checks known (the search alone finds a quiet mate in 15, after
    // about a minute).
    assert_eq!(words[at("depth")], plies.to_string(), "{proof}");
    assert!(plies >= 17, "{proof}");
    let mut pos = Position::from_sfen(Variant::chu(), MATE_17).unwrap();
    pos.play_usi_moves(pv.iter().copied())
        .expect("the proven line is legal");
    let end = pos.outcome().expect("the proven line ends the game");
    assert_eq!(end.winner, Some(shishi::core::Color::Sente), "{proof}");
    let last = e.last_seen("info depth").unwrap().to_string();
    assert!(
        last.contains("score mate"),
        "the proof stays on top: {last}"
    );
    let last_pv: Vec<&str> = last.split(" pv ").nth(1).unwrap().split(' ').collect();
    assert_eq!(best, last_pv[0], "{last}");
}

#[test]
fn a_single_thread_analysis_lets_the_solver_try_first() {
    let mut e = Engine::start_usi();
    e.send("setoption name USI_AnalyseMode value true");
    e.send(&format!("position sfen {MATE_13}"));
    // As shoginet asks: the solver gets a tenth of the time before the search.
    e.send("go movetime 3000 depth 19 nodes 1250000");
    let best = e.bestmove(30.0);
    let infos: Vec<&String> = e
        .seen
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    let first: Vec<&str> = infos[0].split_whitespace().collect();
    let at = |w: &str| first.iter().position(|x| *x == w).expect(w) + 1;
    // The first line is the proof (before the search's depth 1), as deep as it is long.
    assert_eq!(first[at("score")], "mate", "{infos:?}");
    let plies = first[at("mate")];
    assert_eq!(first[at("depth")], plies, "{infos:?}");
    assert_eq!(first[at("pv")..].len().to_string(), plies, "{infos:?}");
    let mut pos = Position::from_sfen(Variant::chu(), MATE_13).unwrap();
    pos.play_usi_moves(first[at("pv")..].iter().copied())
        .expect("the proven line is legal");
    assert_eq!(
        pos.outcome().expect("the proof ends the game").winner,
        Some(shishi::core::Color::Gote)
    );
    // The answer stands by a mate: the proof, or a faster one the search found.
    let last = infos.last().unwrap();
    assert!(last.contains("score mate"), "{last}");
    assert_eq!(
        best,
        last.split(" pv ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
    );
}

/// The second red team's crowded board: six ranks of sente kirin against six of gote's.
/// Its first iteration cannot finish within minutes (every capture is answered).
const ALL_KIRIN: &str = "NNNNNNNNNNNN/NNNNNNNNNNNN/NNNNNNNNNNNN/NNNNNNNNNNNN/NNNNNNNNNNNN/\
NNNNNNNNNNNN/nnnnnnnnnnnn/nnnnnnnnnnnn/nnnnnnnnnnnn/nnnnnnnnnnnn/nnnnnnnnnnnn/nnnnnnnnnnnk b - 1";

#[test]
fn a_node_or_depth_limit_answers_in_bounded_time_on_a_crowded_board() {
    // Issue 29, finding 1: `go nodes 1` and `go depth 1` gave no bestmove until `stop`. The
    // board with a sente king too (the red team's has none, which is a finished game).
    let with_king = ALL_KIRIN.replacen('N', "K", 1);
    for threads in [1, 2] {
        let mut e = Engine::start_usi();
        e.send(&format!("setoption name Threads value {threads}"));
        for go in ["go nodes 1", "go depth 1", "go depth 3"] {
            e.send(&format!("position sfen {with_king}"));
            e.send("isready");
            e.until(10.0, |l| l == "readyok");
            let asked = Instant::now();
            e.send(go);
            let best = e.bestmove(10.0);
            let took = asked.elapsed();
            // The first-iteration cap is one second; the margin is for a loaded machine.
            assert!(
                took < Duration::from_secs(5),
                "{go}, {threads} threads: {took:?}"
            );
            assert!(
                legal_in(&with_king, &best),
                "{go}: {best} is not legal here"
            );
        }
    }
}

#[test]
fn a_depth_limit_below_a_helpers_first_depth_still_searches() {
    // With two threads the helper starts at depth 2; under `go depth 1` it searched nothing
    // and ended the search at once, before the main thread finished depth 1: no score.
    let mut e = Engine::start_usi();
    e.send("setoption name Threads value 2");
    for _ in 0..5 {
        e.send("position startpos");
        e.seen.clear();
        e.send("go depth 1");
        e.bestmove(10.0);
        assert!(
            e.seen
                .iter()
                .any(|l| l.starts_with("info depth 1 ") && l.contains(" score ")),
            "{:?}",
            e.seen
        );
    }
}

fn legal_in(sfen: &str, mv: &str) -> bool {
    Position::from_sfen(Variant::chu(), sfen).is_ok_and(|mut pos| pos.parse_usi_move(mv).is_ok())
}

#[test]
fn go_mate_keeps_to_searchmoves() {
    // Issue 29, finding 7: `go mate 5000 searchmoves X` answered a proof starting with
    // another move. In MATE_13 the proof starts with 6f6k; 6f6e gives no check.
    let mut e = Engine::start_usi();
    e.send(&format!("position sfen {MATE_13}"));
    e.send("go mate 5000 searchmoves 6f6e");
    let answer = e.until(20.0, |l| l.starts_with("checkmate"));
    assert_eq!(answer, "checkmate nomate");
    e.send("go mate 5000 searchmoves 6f6e 6f6k");
    let answer = e.until(20.0, |l| l.starts_with("checkmate"));
    assert!(answer.starts_with("checkmate 6f6k "), "{answer}");
}

#[test]
fn go_mate_without_a_time_is_refused() {
    // Issue 29, finding 8: `go mate x` and `go mate` started a search without any limit.
    let mut e = Engine::start_usi();
    e.send("position startpos");
    for go in ["go mate x", "go mate", "go mate nodes 1000"] {
        e.seen.clear();
        let asked = Instant::now();
        e.send(go);
        let answer = e.until(5.0, |l| l.starts_with("checkmate"));
        assert_eq!(answer, "checkmate timeout", "{go}");
        assert!(asked.elapsed() < Duration::from_secs(2), "{go}");
        assert!(
            e.seen
                .iter()
                .any(|l| l.starts_with("info string error: go mate needs a time")),
            "{go}: {:?}",
            e.seen
        );
    }
    // Still a working engine: a proper `go mate` is searched.
    e.send("go mate 100");
    e.until(10.0, |l| l.starts_with("checkmate"));
}

#[test]
fn a_side_without_a_royal_is_named_as_kingless() {
    // Issue 29, finding 13: a position without a sente royal was searched as a normal game
    // without a word. By the rules (chushogi.md, "Kingless sides") such a side is the
    // attacker of a mating problem, so it is searched, and the engine says how it reads it.
    let mut e = Engine::start_usi();
    e.send(&format!("position sfen {ALL_KIRIN}"));
    let asked = Instant::now();
    e.send("go depth 1");
    e.bestmove(10.0);
    assert!(asked.elapsed() < Duration::from_secs(5));
    assert!(
        e.seen
            .iter()
            .any(|l| l.starts_with("info string sente has no royal: searched as a kingless side")),
        "{:?}",
        e.seen
    );
    // A position with both royals says nothing of the kind.
    e.seen.clear();
    e.send("position startpos");
    e.send("go depth 1");
    e.bestmove(10.0);
    assert!(!e.seen.iter().any(|l| l.contains("no royal")));
}

#[test]
fn kif_and_kifread_give_a_page_the_game_in_the_engines_own_notation() {
    // Issue 50: the browser page shows and saves KIF, and reads a pasted one, through the
    // engine (no second notation in JavaScript).
    let mut e = Engine::start_usi();
    e.send(&format!("position startpos moves {LION_HISTORY}"));
    e.send("kif");
    e.until(10.0, |l| l == "kifok");
    let kif: Vec<String> = e
        .seen
        .iter()
        .filter_map(|l| l.strip_prefix("kif ").map(String::from))
        .collect();
    assert!(
        kif.contains(&"   9一歩目 7五獅子 （←7六）".to_string()),
        "{kif:#?}"
    );
    assert!(kif.contains(&"まで10手で中断".to_string()), "{kif:#?}");
    // The same text, percent-encoded on one line, read back.
    let encode = crate::common::percent_encode;
    let encoded = encode(&(kif.join("\n") + "\n"));
    e.send(&format!("kifread {encoded}"));
    let game = e.until(10.0, |l| l.starts_with("kifgame "));
    assert!(
        game.starts_with("kifgame variant chushogi sfen lfcsgekgscfl/"),
        "{game}"
    );
    assert!(game.ends_with(&format!("moves {LION_HISTORY}")), "{game}");
    e.send("pieces");
    let pieces = e.until(10.0, |l| l.starts_with("pieces "));
    assert!(
        pieces.contains(" n=獅子 ") && pieces.contains(" +p=金将"),
        "{pieces}"
    );
    // One kanji each for a one-kanji set (issue 60): a promoted kind's own, without 成.
    let one = e.until(10.0, |l| l.starts_with("pieces1 "));
    for (letters, kanji) in [
        ("n", "獅"),
        ("h", "馬"),
        ("+b", "馬"),
        ("+p", "杏"),
        ("+r", "龍"),
    ] {
        assert!(
            one.contains(&format!(" {letters}={kanji}")),
            "{letters}: {one}"
        );
    }
    // An unfinished game states no result; a resignation does (issue 60: the page shows it).
    assert!(!e.seen.iter().any(|l| l.starts_with("kifresult")));
    let resigned = encoded.replace(
        &encode("まで10手で中断"),
        &encode("  11   投了\nまで10手で先手の勝ち"),
    );
    e.send(&format!("kifread {resigned}"));
    e.until(10.0, |l| l.starts_with("kifgame "));
    let results: Vec<&String> = e
        .seen
        .iter()
        .filter(|l| l.starts_with("kifresult"))
        .collect();
    assert_eq!(results, ["kifresult 1-0"]);
    e.send("kifread %E5%85%88%ZZ");
    let error = e.until(10.0, |l| l.starts_with("info string error"));
    assert!(error.contains("broken %-escape"), "{error}");
}

#[test]
fn kif_pv_follows_each_line_with_its_kif_notation() {
    // The play page shows the engine's line as a chu player reads it.
    let mut e = Engine::start_usi();
    e.send("setoption name KIF_PV value true");
    e.send("position startpos moves 7i7h");
    e.send("go depth 3");
    e.until(20.0, |l| l.starts_with("bestmove"));
    let lines: Vec<&String> = e.seen.iter().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("info depth 3 ") && l.contains(" pv "))
        .expect("a depth 3 line");
    let kif = lines[at + 1]
        .strip_prefix("info string kif multipv 1 ☖")
        .unwrap_or_else(|| panic!("{:?}", lines[at + 1]));
    let first = lines[at].split(" pv ").nth(1).unwrap().split(' ').count();
    assert_eq!(
        kif.split("  ").count(),
        first,
        "one KIF move for each pv move: {kif}"
    );
    // With MultiPV 3 each KIF line carries its line's number (issue 55, case 13).
    e.send("setoption name MultiPV value 3");
    e.send("go depth 3");
    e.until(20.0, |l| l.starts_with("bestmove"));
    let seen: Vec<&String> = e.seen.iter().collect();
    for (i, line) in seen.iter().enumerate() {
        if line.starts_with("info depth") && line.contains(" pv ") {
            let n = line
                .split(" multipv ")
                .nth(1)
                .unwrap()
                .split(' ')
                .next()
                .unwrap();
            assert!(
                seen[i + 1].starts_with(&format!("info string kif multipv {n} ")),
                "{line} / {}",
                seen[i + 1]
            );
        }
    }
    assert!(seen
        .iter()
        .any(|l| l.starts_with("info string kif multipv 3 ")));
    // Off by default: no such line.
    let mut plain = Engine::start_usi();
    plain.send("position startpos");
    plain.send("go depth 2");
    plain.until(20.0, |l| l.starts_with("bestmove"));
    assert!(!plain.seen.iter().any(|l| l.starts_with("info string kif")));
}

#[test]
fn every_variant_the_usi_answer_lists_is_accepted_by_setoption() {
    // Issue 51: a variant added to Variant::all was listed under USI_Variant but refused by
    // setoption (a hand-written match). Names are found in the variants' data.
    let mut e = Engine::start_usi();
    let line = e
        .seen
        .iter()
        .find(|l| l.starts_with("option name USI_Variant type combo"))
        .cloned()
        .expect("USI_Variant listed");
    let names: Vec<&str> = line
        .split(" var ")
        .skip(1)
        .map(|v| v.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(names.len(), Variant::all().len(), "{line}");
    for name in names {
        e.send(&format!("setoption name USI_Variant value {name}"));
        e.send("position startpos");
        e.send("d");
        let said = e.until(10.0, |l| l.starts_with("variant "));
        assert_eq!(said, format!("variant {name}"));
    }
    for alias in ["chu", "SHO"] {
        assert!(Variant::by_name(alias).is_some(), "{alias}");
    }
}
