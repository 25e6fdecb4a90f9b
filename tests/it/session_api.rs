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
