//! The engine session called in-process, without a protocol: positions, options from the
//! option table, a search and its answer, refusals, queued changes (issue 28: no test called
//! `Session` directly).

use shishi::search::{Limits, Silent};
use shishi::session::options::{self, Protocol};
use shishi::session::{PositionError, Refusal, Session, Setting, Settings};
use shishi::variant::Variant;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

fn session(protocol: Protocol) -> (Session, Arc<Mutex<Vec<String>>>) {
    let said = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&said);
    let notify = Arc::new(move |s: &str| sink.lock().unwrap().push(s.to_string()));
    (
        Session::new(Settings::for_protocol(protocol), notify).expect("a session"),
        said,
    )
}

/// Runs a search to its end and returns the best move in USI.
fn best_move(session: &mut Session, limits: Limits) -> Option<String> {
    let (tx, rx) = mpsc::channel();
    let pos = session.position().cloned().expect("a position");
    session
        .go(
            limits,
            false,
            Box::new(Silent),
            Box::new(move |r| {
                let _ = tx.send(r);
            }),
        )
        .expect("a search starts");
    let result = rx.recv_timeout(Duration::from_secs(30)).expect("an answer");
    result.best.map(|m| pos.move_to_usi(m))
}

#[test]
fn a_search_answers_with_a_legal_move_of_its_position() {
    let (mut s, _) = session(Protocol::Usi);
    s.set_position(None, &["7i7h", "7d7e"]).unwrap();
    let depth = Limits {
        depth: Some(3),
        ..Limits::default()
    };
    let best = best_move(&mut s, depth.clone()).expect("a move");
    let mut pos = s.position().cloned().unwrap();
    assert!(pos.parse_usi_move(&best).is_ok(), "{best}");
    // A bad position leaves none, and go is refused until a good one comes.
    assert!(s.set_position(Some("not an sfen"), &[]).is_err());
    assert!(s.position().is_none());
    let refused = s.go(depth, false, Box::new(Silent), Box::new(|_| {}));
    assert!(matches!(refused, Err(Refusal::NoPosition)));
}

#[test]
fn options_from_the_table_change_the_session() {
    let (mut s, _) = session(Protocol::Xboard);
    // XBoard's defaults from the table.
    assert!(s.settings().avoid_repetition);
    assert_eq!(s.settings().move_overhead, Duration::from_millis(100));
    let skill = options::find("Skill Level", Protocol::Xboard).unwrap();
    s.set(options::parse(skill, Some("3")).unwrap());
    assert_eq!(s.settings().skill_level, 3);
    s.set(Setting::Value("USI_MultiPV", 2));
    s.set(Setting::Value("AvoidRepetition", 0));
    s.ready();
    assert_eq!(s.settings().multipv, 2);
    assert!(!s.settings().avoid_repetition);
    let (usi, _) = session(Protocol::Usi);
    assert!(!usi.settings().avoid_repetition);
    assert_eq!(usi.settings().move_overhead, Duration::from_millis(10));
}

#[test]
fn a_position_of_another_variant_comes_back_as_a_typed_error_naming_it() {
    // The session said "set USI_Variant to shoshogi first", and XBoard users saw it: the
    // error is typed now, and each front-end words the remedy.
    let (mut s, _) = session(Protocol::Xboard);
    let sho_start = Variant::sho().spec.start_sfen;
    let error = s.set_position(Some(sho_start), &[]).unwrap_err();
    match &error {
        PositionError::Sfen {
            other_variant: Some(v),
            ..
        } => assert_eq!(v.name(), "shoshogi"),
        other => panic!("{other:?}"),
    }
    assert!(!error.to_string().contains("USI_Variant"), "{error}");
    let moves = s.set_position(None, &["7i7h", "nonsense"]).unwrap_err();
    assert!(
        matches!(moves, PositionError::Moves(ref e) if e.index == 1),
        "{moves:?}"
    );
}

#[test]
fn the_skill_ladder_is_one_under_both_protocols_and_lishogis_weak_levels_differ() {
    // lishogi's AI levels 1 to 3 send -9, -5 and -1: they all played as level 0 (issue 26).
    let mut options = Vec::new();
    for (protocol, name) in [
        (Protocol::Usi, "Skill_Level"),
        (Protocol::Xboard, "Skill Level"),
    ] {
        let (mut s, _) = session(protocol);
        let skill = options::find(name, protocol).unwrap();
        let mut nodes = Vec::new();
        for level in ["-9", "-5", "-1"] {
            s.set(options::parse(skill, Some(level)).unwrap());
            let budget = s
                .settings()
                .search_options(s.variant())
                .skill
                .map(|k| k.max_nodes());
            nodes.push(budget.expect("below full strength"));
        }
        assert!(
            nodes[0] < nodes[1] && nodes[1] < nodes[2],
            "{protocol:?}: {nodes:?}"
        );
        options.push(s.settings().search_options(s.variant()));
    }
    assert_eq!(options[0].skill, options[1].skill, "one ladder");
}

#[test]
fn a_search_takes_its_variants_constants_and_a_tune_option_stands_over_them() {
    use shishi::search::params::SearchParams;
    let (mut s, said) = session(Protocol::Usi);
    for variant in Variant::all() {
        s.set(Setting::Variant(variant));
        assert_eq!(
            s.settings().search_options(s.variant()).params,
            SearchParams::for_variant(variant),
            "{}",
            variant.name()
        );
    }
    // A value the session is given outside the option's range (10 to 120) is bounded by
    // the option table, the one home of the range, as XBoard's `memory` is.
    s.set(Setting::Value("Tune_increment_moves_to_go", 5));
    assert_eq!(
        s.settings()
            .search_options(s.variant())
            .params
            .increment_moves_to_go,
        10
    );
    s.set(Setting::Value("Tune_increment_moves_to_go", 25));
    s.set(Setting::Value("Tune_no_such_constant", 25));
    assert!(
        said.lock()
            .unwrap()
            .iter()
            .any(|l| l.contains("no option Tune_no_such_constant")),
        "{said:?}"
    );
    for variant in Variant::all() {
        s.set(Setting::Variant(variant));
        let params = s.settings().search_options(s.variant()).params;
        let expected = SearchParams {
            increment_moves_to_go: 25,
            ..SearchParams::for_variant(variant)
        };
        assert_eq!(params, expected, "{}", variant.name());
    }
}

/// A position that adds moves to the last one set plays only those (issue 59: a GUI sends
/// the whole game before every move); what it gives is always the position the whole list
/// gives, and an illegal move is named by its place in the whole list.
#[test]
fn a_position_that_adds_moves_is_the_whole_lists_position() {
    let (mut s, _) = session(Protocol::Usi);
    let game = [
        "7i7h", "6d6e", "6j9g", "7c4f", "7k7i", "6c8e", "7j5h", "5d5e",
    ];
    let key_of = |sfen: Option<&str>, moves: &[&str]| {
        let (mut fresh, _) = session(Protocol::Usi);
        fresh.set_position(sfen, moves).expect("legal");
        let pos = fresh.position().unwrap();
        (pos.key(), pos.to_sfen(), pos.history().len())
    };
    let now = |s: &Session| {
        let pos = s.position().unwrap();
        (pos.key(), pos.to_sfen(), pos.history().len())
    };
    for k in 0..=game.len() {
        s.set_position(None, &game[..k]).expect("legal");
        assert_eq!(now(&s), key_of(None, &game[..k]), "{k} moves");
    }
    // Another line from the same start, the same list again, a shorter one.
    let other = ["7i7h", "6d6e", "8i8h"];
    for moves in [&other[..], &other[..], &game[..2], &game[..]] {
        s.set_position(None, moves).expect("legal");
        assert_eq!(now(&s), key_of(None, moves), "{moves:?}");
    }
    // An illegal move after the moves already set: its index in the whole list.
    let mut bad = game.to_vec();
    bad.push("1a1b");
    match s.set_position(None, &bad) {
        Err(PositionError::Moves(e)) => assert_eq!(e.index, game.len()),
        other => panic!("{other:?}"),
    }
    assert!(s.position().is_none());
    // And the same moves from an SFEN are not the start's (the SFEN is part of the key).
    let start = shishi::position::Position::startpos(Variant::chu()).to_sfen();
    s.set_position(Some(&start), &game).expect("legal");
    assert_eq!(now(&s), key_of(Some(&start), &game));
    s.set_position(None, &game).expect("legal");
    assert_eq!(now(&s), key_of(None, &game));
}
