//! XBoard (CECP v2) sessions against the built binary: handshake, double moves both ways,
//! setboard, undo, analyze, illegal moves with their reasons, ping ordering, results and the
//! board markers.

use crate::common::Engine;
use shishi::position::Position;
use shishi::records::xboard::{move_legs, parse_legs, Legs};
use shishi::variant::Variant;

fn xboard_chu() -> Engine {
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    let features = e.until(5.0, |l| l.contains("done=1"));
    assert!(
        e.seen.iter().any(|l| l.contains("variants=\"chu,shogi\"")),
        "{:#?}",
        e.seen
    );
    for f in [
        "setboard=1",
        "usermove=1",
        "ping=1",
        "memory=1",
        "smp=1",
        "colors=0",
        "sigint=0",
        "sigterm=0",
        "highlight=1",
        "myname=",
    ] {
        assert!(e.seen.iter().any(|l| l.contains(f)), "{f}: {features}");
    }
    e.send("new");
    e.send("variant chu");
    e.send("post");
    e
}

/// Reads one engine move (one or two `move` lines) and plays it on `pos`.
fn engine_move(e: &mut Engine, pos: &mut Position) -> String {
    let mut text = String::new();
    loop {
        let line = e.until(30.0, |l| l.starts_with("move "));
        text += &line[5..];
        if !line.ends_with(',') {
            break;
        }
    }
    let mv = match parse_legs(pos.variant(), &text).unwrap_or_else(|| panic!("unparsable {text}")) {
        Legs::Pass => {
            let mut moves = Vec::new();
            pos.legal_moves(shishi::position::GenMode::Search, &mut moves);
            *moves
                .iter()
                .find(|&&m| pos.is_lion_pass(m))
                .expect("a pass exists")
        }
        Legs::Squares {
            from,
            mid,
            to,
            promote,
        } => pos
            .find_move(from, mid, to, promote)
            .unwrap_or_else(|| panic!("illegal engine move {text} in {}", pos.to_sfen())),
    };
    pos.make_move(mv);
    text
}

/// Sends a lishogi move as XBoard would, and plays it on `pos`.
fn user_move(e: &mut Engine, pos: &mut Position, usi: &str) {
    let mv = pos.parse_usi_move(usi).unwrap();
    e.send(&format!("usermove {}", move_legs(pos, mv).concat()));
    pos.make_move(mv);
}

#[test]
fn a_game_with_lion_double_moves_both_ways() {
    let mut e = xboard_chu();
    e.send("level 0 1 0");
    e.send("force");
    let mut pos = Position::startpos(Variant::chu());
    for m in "8i8h 5d5e 7j8i 6c5d 8i8g 5d6e 8g7f 6e6f".split(' ') {
        user_move(&mut e, &mut pos, m);
    }
    // Sente's igui (7f6f7f = f6g6,g6f6) as two legs, then the engine plays gote.
    user_move(&mut e, &mut pos, "7f6f7f");
    e.send("time 1000");
    e.send("otim 1000");
    e.send("go");
    let reply = engine_move(&mut e, &mut pos);
    assert!(
        e.seen.iter().any(
            |l| l.split_whitespace().count() >= 5 && l.chars().next().unwrap().is_ascii_digit()
        ),
        "thinking output: {:#?}",
        e.seen
    );
    // Play on for a few moves each way; the engine answers every user move.
    for _ in 0..4 {
        let mut moves = Vec::new();
        pos.legal_moves(shishi::position::GenMode::Search, &mut moves);
        let usi = pos.move_to_usi(moves[moves.len() / 2]);
        user_move(&mut e, &mut pos, &usi);
        e.send("time 1000");
        e.send("otim 1000");
        engine_move(&mut e, &mut pos);
    }
    assert!(
        !e.seen.iter().any(|l| l.starts_with("Illegal move")),
        "{:#?} (first reply {reply})",
        e.seen
    );
}

#[test]
fn engine_double_moves_come_as_two_move_lines() {
    // Gote's lion can take two silvers in one move (6f: lion; 6g and 6h: sente silvers).
    // Silvers, not pawns: a central pawn is worth little more than its bad placement, and
    // with the mop-up pull towards the last pieces a lion may take one pawn and leave the
    // other for later.
    let mut e = xboard_chu();
    e.send("setboard 11k/12/12/12/12/6n5/6S5/6S5/12/12/12/K10G b 0 1");
    let mut pos = Position::from_sfen(
        Variant::chu(),
        "11k/12/12/12/12/6n5/6S5/6S5/12/12/12/K10G w - 1",
    )
    .unwrap();
    e.send("sd 3");
    e.send("go");
    let text = engine_move(&mut e, &mut pos);
    assert!(text.contains(','), "a two-leg move: {text}");
    let first = e.seen.iter().find(|l| l.starts_with("move ")).unwrap();
    assert!(
        first.ends_with(','),
        "the first leg ends with a comma: {first}"
    );
}

#[test]
fn setboard_undo_ping_and_illegal_moves() {
    let mut e = xboard_chu();
    e.send("force");
    // Sente's lion on 6h may not jump onto gote's lion on 6f: a gold on 6e protects it.
    e.send("setboard 11k/12/9r2/12/6g5/6n5/5isp4/6N5/6G5/12/12/K11 w 0 1");
    e.send("usermove g5g7");
    let line = e.until(5.0, |l| l.starts_with("Illegal move"));
    assert_eq!(
        line,
        "Illegal move (Distant capture of protected Lion): g5g7"
    );
    e.send("usermove a1a12");
    let line = e.until(5.0, |l| l.starts_with("Illegal move"));
    assert!(line.ends_with(": a1a12"), "{line}");
    e.send("usermove nonsense");
    e.until(5.0, |l| {
        l.starts_with("Illegal move") && l.ends_with("nonsense")
    });
    // undo takes a move back: the same move is legal again.
    e.send("new");
    e.send("force");
    e.send("usermove f4f5");
    e.send("undo");
    e.send("usermove f4f5");
    e.send("ping 42");
    e.until(5.0, |l| l == "pong 42");
    assert!(!e
        .seen
        .iter()
        .any(|l| l.contains("Illegal move") && l.contains("f4f5")));
    // Counter-strike: after a lion is taken by a non-lion, a rook may not take the other lion.
    e.send("setboard 11k/4g7/12/8+h3/6n1N3/11b/12/9N2/8GP2/6R1+o3/12/K11 w 0 1");
    // The rook takes gote's lion on 6e (g3g8); gote's falcon on 4d may then not take sente's
    // lion on 4e (i9i8).
    e.send("usermove g3g8");
    e.send("usermove i9i8");
    let line = e.until(5.0, |l| l.starts_with("Illegal move"));
    assert_eq!(line, "Illegal move (Counterstrike against Lion): i9i8");
}

#[test]
fn a_royal_capture_ends_the_game_with_a_result() {
    let mut e = xboard_chu();
    e.send("force");
    e.send("setboard k10g/1G10/12/12/12/12/12/12/12/12/12/11K w 0 1");
    e.send("usermove b11a12");
    let line = e.until(5.0, |l| {
        l.starts_with("1-0") || l.starts_with("0-1") || l.starts_with("1/2")
    });
    assert_eq!(line, "1-0 {royal captured}");
}

#[test]
fn analyze_follows_the_moves() {
    let mut e = xboard_chu();
    e.send("force");
    e.send("analyze");
    e.until(10.0, |l| l.starts_with("3 "));
    e.send("usermove f4f5");
    e.until(10.0, |l| l.starts_with("3 "));
    e.send(".");
    e.send("exit");
    e.send("ping 1");
    e.until(5.0, |l| l == "pong 1");
    assert!(
        !e.seen.iter().any(|l| l.starts_with("move ")),
        "analysis never moves"
    );
}

#[test]
fn board_markers_for_the_lion() {
    let mut e = xboard_chu();
    e.send("force");
    // Sente's lion on 7f (XBoard f7) next to gote's pawn on 6f (g7).
    e.send("setboard 11k/12/12/12/12/5Np5/12/12/12/12/12/K10g w 0 1");
    e.send("lift f7");
    let line = e.until(5.0, |l| l.starts_with("highlight "));
    // Targets yellow, the pawn (capture, and the mid square of a double move) cyan.
    assert!(line.contains('Y') && line.contains('C'), "{line}");
    e.send("put g7");
    e.send("lift g7");
    let second = e.until(5.0, |l| l.starts_with("highlight "));
    assert!(
        second.contains('Y') && second.contains('R'),
        "second-leg targets: {second}"
    );
    // The two legs as XBoard sends them: igui.
    e.send("usermove f7g7,g7f7");
    e.send("ping 2");
    e.until(5.0, |l| l == "pong 2");
    assert!(!e.seen.iter().any(|l| l.starts_with("Illegal")));
}

#[test]
fn sho_is_set_up_like_hachu_does() {
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    e.send("new");
    e.send("variant shogi");
    let setup = e.until(5.0, |l| l.starts_with("setup "));
    assert!(
        setup.contains("9x9+0_shogi") && setup.contains("lnsgkgsnl/1r2e2b1"),
        "{setup}"
    );
    e.send("sd 3");
    e.send("usermove c3c4");
    let mut pos = Position::startpos(Variant::sho());
    pos.play_usi_moves(["7g7f"]).unwrap();
    engine_move(&mut e, &mut pos);
}

#[test]
fn memory_and_cores_below_one_are_refused_with_a_word() {
    // Issue 29, finding 8: `memory 0`, `memory -1`, `cores 0` and `cores -1` passed
    // without a message.
    let mut e = xboard_chu();
    for bad in ["memory 0", "memory -1", "cores 0", "cores -1"] {
        e.send(bad);
        let answer = e.until(5.0, |l| l.starts_with("Error"));
        assert_eq!(answer, format!("Error (bad argument): {bad}"));
    }
    // Good values are taken without a word.
    e.send("memory 16");
    e.send("cores 1");
    e.send("ping 9");
    e.until(10.0, |l| l == "pong 9");
    assert!(!e
        .seen
        .iter()
        .any(|l| l.contains("memory 16") || l.contains("cores 1")));
}

#[test]
fn a_level_without_time_commands_is_the_clock() {
    // Issue 26: `level 0 1 0` with no `time` spent 4.9 s on move 1 of a 60 s game (the
    // level's base was thrown away and a fixed 5 s used).
    let mut e = xboard_chu();
    e.send("level 0 1 0");
    let asked = std::time::Instant::now();
    e.send("go");
    e.until(10.0, |l| l.starts_with("move "));
    let took = asked.elapsed();
    assert!(took < std::time::Duration::from_secs(3), "{took:?}");
    // A malformed base is refused like any bad level.
    e.send("level 40 x 0");
    e.until(5.0, |l| l.starts_with("Error (bad level)"));
}

#[test]
fn an_illegal_usermove_is_named_in_xboard_squares_and_changes_nothing() {
    // Issue 26: the reply named the square in USI (`no piece of the side to move on 7i):
    // f4f5`), and an illegal usermove during a search restarted it from depth 1.
    let mut e = xboard_chu();
    e.send("force");
    e.send("usermove f4f5");
    e.send("usermove f4f6");
    let reply = e.until(5.0, |l| l.starts_with("Illegal move"));
    assert_eq!(
        reply,
        "Illegal move (no piece of the side to move on f4): f4f6"
    );
    e.send("analyze");
    e.until(20.0, |l| l.starts_with("4 "));
    e.seen.clear();
    e.send("usermove a1a2");
    e.until(5.0, |l| l.starts_with("Illegal move"));
    // The analysis goes on where it was: no iteration starts again from depth 1.
    e.until(30.0, |l| l.starts_with("5 ") || l.starts_with("6 "));
    assert!(
        !e.seen
            .iter()
            .any(|l| l.starts_with("1 ") || l.starts_with("2 ")),
        "{:?}",
        e.seen
    );
    e.send("exit");
    e.send("ping 2");
    e.until(5.0, |l| l == "pong 2");
}

#[test]
fn the_settings_dialog_options_are_offered_and_applied() {
    // Issue 26: `protover 2` offered no `feature option`, so WinBoard users could set
    // nothing. Each option comes from the session's option table and is applied by it.
    let mut e = xboard_chu();
    let features: Vec<String> = e.seen.clone();
    let done = features.iter().position(|l| l.contains("done=1")).unwrap();
    for option in [
        "feature option=\"MultiPV -spin 1 1 64\"",
        "feature option=\"Skill Level -spin 20 -9 20\"",
        "feature option=\"Move Overhead -spin 100 0 10000\"",
        "feature option=\"Clear Hash -button\"",
        "feature option=\"AvoidRepetition -check 1\"",
    ] {
        let at = features.iter().position(|l| l == option);
        assert!(at.is_some_and(|i| i < done), "{option}: {features:#?}");
    }
    // A bad value or name is refused with a word, in XBoard's names.
    e.send("option Skill Level=99");
    assert_eq!(
        e.until(5.0, |l| l.starts_with("Error")),
        "Error (bad option value): option Skill Level: '99' is not a number from -9 to 20; keeping the old value"
    );
    e.send("option Hash=16");
    assert_eq!(
        e.until(5.0, |l| l.starts_with("Error")),
        "Error (unknown option): Hash"
    );
    for good in [
        "option AvoidRepetition=0",
        "option Move Overhead=200",
        "option Clear Hash",
    ] {
        e.send(good);
    }
    // MultiPV 2: two lines for each depth in analysis.
    e.send("option MultiPV=2");
    e.send("force");
    e.send("analyze");
    e.until(10.0, |l| l.starts_with("4 "));
    e.send("exit");
    e.send("ping 1");
    e.until(10.0, |l| l == "pong 1");
    assert!(
        e.seen.iter().filter(|l| l.starts_with("3 ")).count() >= 2,
        "{:#?}",
        e.seen
    );
    // Skill Level -9, the weakest: a search within that level's node budget.
    let budget = shishi::search::skill::Skill::new(-9).unwrap().max_nodes();
    e.send("option MultiPV=1");
    e.send("option Skill Level=-9");
    e.send("new");
    e.send("variant chu");
    let before = e.seen.len();
    e.send("go");
    e.until(30.0, |l| l.starts_with("move "));
    let nodes: Vec<u64> = e.seen[before..]
        .iter()
        .filter_map(|l| l.split_whitespace().nth(3)?.parse().ok())
        .collect();
    assert!(!nodes.is_empty(), "{:#?}", &e.seen[before..]);
    assert!(
        nodes.iter().all(|&n| n <= budget + 64),
        "{nodes:?} for {budget}"
    );
    assert!(!e
        .seen
        .iter()
        .any(|l| l.starts_with("Error (bad option") && !l.contains("'99'")));
}

#[test]
fn a_setboard_of_another_variant_names_the_xboard_remedy() {
    let mut e = xboard_chu();
    e.send("setboard lnsgkgsnl/1r2e2b1/ppppppppp/9/9/9/PPPPPPPPP/1B2E2R1/LNSGKGSNL w 0 1");
    let line = e.until(5.0, |l| l.starts_with("tellusererror"));
    assert!(line.contains("this SFEN is shoshogi"), "{line}");
    assert!(line.ends_with("send 'variant shogi' first"), "{line}");
    assert!(!line.contains("USI_Variant"), "{line}");
}

#[test]
fn an_option_during_analysis_applies_at_once_without_a_popup() {
    // Issue 49, red team 18: `option` during `analyze` answered with a `telluser` popup and
    // took effect only after `exit`. The analysis now starts again with the option.
    let mut e = xboard_chu();
    e.send("force");
    e.send("analyze");
    e.until(10.0, |l| l.starts_with("3 "));
    let before = e.seen.len();
    e.send("option MultiPV=2");
    // The restarted analysis shows two lines from depth 1 on; the stopped one was past
    // depth 2, so every depth-2 line after the option is the new analysis's.
    for _ in 0..2 {
        e.until(10.0, |l| l.starts_with("2 "));
    }
    e.until(10.0, |l| l.starts_with("3 "));
    e.send("exit");
    e.send("ping 1");
    e.until(10.0, |l| l == "pong 1");
    let after = &e.seen[before..];
    assert!(
        after.iter().filter(|l| l.starts_with("2 ")).count() >= 2,
        "{after:#?}"
    );
    assert!(
        !e.seen.iter().any(|l| l.starts_with("telluser")),
        "{:#?}",
        e.seen
    );
}
