//! A variant from data alone: a made-up "mini chu" on 6 x 6 with five of chu's kinds, built
//! with `Variant::from_spec` and nothing else, goes through SFEN, perft and a search
//! (issue 28: the README says a new variant needs its data; this checks it). Its
//! evaluation and search values hang off its spec too: nothing outside the spec names it.

use shishi::eval::params::EvalParams;
use shishi::eval::{EvalOptions, Evaluator};
use shishi::perft::{divide, perft};
use shishi::position::Position;
use shishi::search::{Limits, Request, SearchControl, Searcher, Silent};
use shishi::variant::{chu, KindSpec, Variant, VariantSpec, XboardSpec};

/// chu's kind with SFEN letters `sfen`.
const fn chu_kind(sfen: &str) -> KindSpec {
    let mut i = 0;
    while i < chu::KINDS.len() {
        if const_eq(chu::KINDS[i].sfen, sfen) {
            return chu::KINDS[i];
        }
        i += 1;
    }
    panic!("no such chu kind");
}

const fn const_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Pawn, gold, king and lion, and the pawn's and gold's promotions (tokin, promoted gold).
static MINI_KINDS: [KindSpec; 6] = [
    chu_kind("p"),
    chu_kind("g"),
    chu_kind("k"),
    chu_kind("n"),
    chu_kind("+p"),
    chu_kind("+g"),
];

/// Mini chu's evaluation on trial (`Tune_eval_candidate=1` plays it): chu's, with other
/// values.
static MINI_TRIAL: EvalParams = EvalParams {
    values: &[
        ("p", 120),
        ("g", 400),
        ("k", 700),
        ("n", 1500),
        ("+p", 350),
        ("+g", 800),
    ],
    ..chu::EVAL
};

fn mini_chu() -> &'static Variant {
    static MINI: std::sync::OnceLock<&'static Variant> = std::sync::OnceLock::new();
    MINI.get_or_init(|| {
        Variant::from_spec(VariantSpec {
            name: "minichu",
            aliases: &[],
            files: 6,
            ranks: 6,
            zone_depth: 2,
            kinds: &MINI_KINDS,
            start_sfen: "1gkng1/pppppp/6/6/PPPPPP/1GNKG1 b - 1",
            rules: chu::SPEC.rules,
            xboard: XboardSpec {
                names: &["minichu"],
                setup: None,
            },
            kif: chu::SPEC.kif,
            eval: &chu::EVAL,
            eval_candidate: Some(&MINI_TRIAL),
            search_values: &[("lmp_base", 4)],
        })
    })
}

#[test]
fn a_variant_from_data_alone_takes_its_values_from_its_spec() {
    use shishi::eval::params::for_variant;
    use shishi::search::params::SearchParams;
    let variant = mini_chu();
    assert_eq!(SearchParams::for_variant(variant).lmp_base, 4);
    assert_eq!(
        SearchParams {
            lmp_base: SearchParams::default().lmp_base,
            ..SearchParams::for_variant(variant)
        },
        SearchParams::default()
    );
    let eval = for_variant(variant);
    assert_eq!(eval.values, chu::EVAL.values);
    assert_eq!(eval.weights, chu::EVAL.weights);
}

#[test]
fn a_variant_plays_its_evaluation_on_trial_only_when_asked() {
    let variant = mini_chu();
    let own = Evaluator::for_variant(variant);
    let on_trial = own.with_options(EvalOptions {
        candidate: true,
        ..EvalOptions::default()
    });
    for &(letters, value) in MINI_TRIAL.values {
        let kind = variant.kind_by_sfen(letters).unwrap();
        assert_eq!(on_trial.value(kind), value, "{letters}");
        let chu_value = chu::EVAL
            .values
            .iter()
            .find(|(l, _)| *l == letters)
            .unwrap()
            .1;
        assert_eq!(own.value(kind), chu_value, "{letters}");
    }
    // The option reaches the search: a gold up, the trial values it at 400 and chu at 291.
    let pos = Position::from_sfen(variant, "2kng1/pppppp/6/6/PPPPPP/1GNKG1 b - 1").unwrap();
    let score = |eval_candidate| {
        let base = shishi::search::SearchOptions::for_variant(variant);
        let options = shishi::search::SearchOptions {
            params: shishi::search::params::SearchParams {
                eval_candidate,
                ..base.params
            },
            ..base
        };
        let request = Request::play(Limits {
            depth: Some(1),
            ..Limits::default()
        })
        .with_options(options);
        let result = Searcher::new(1).search(&pos, &request, &SearchControl::new(false), &Silent);
        result.score.expect("depth 1 finishes")
    };
    assert!(score(1) > score(0), "{:?} {:?}", score(1), score(0));
}

#[test]
fn a_variant_from_data_alone_counts_its_moves() {
    let variant = mini_chu();
    assert!(variant.built_in_index().is_none());
    let mut pos = Position::startpos(variant);
    assert_eq!(pos.to_sfen(), variant.spec.start_sfen);
    // Counted by hand: six pawn steps; each gold one step sideways (file 6 and file 1 are
    // empty); the king is boxed in; the lion jumps to the five empty squares two ranks up
    // and to the empty corner two files left (every square next to it is its own).
    assert_eq!(perft(&mut pos, 1), 14);
    // Neither side's first move reaches the other's pieces, so each of sente's 14 moves
    // leaves gote its own 14 (the start is symmetric).
    assert_eq!(perft(&mut pos, 2), 14 * 14);
    let by_move = divide(&pos, 3, 1);
    assert_eq!(by_move.len(), 14);
    assert_eq!(
        by_move.iter().map(|(_, n)| n).sum::<u64>(),
        perft(&mut pos, 3)
    );
}

#[test]
fn a_variant_from_data_alone_is_searched_and_plays_legal_moves() {
    let variant = mini_chu();
    let mut pos = Position::startpos(variant);
    let mut searcher = Searcher::new(4);
    let mut moves = Vec::new();
    let request = Request::play(Limits {
        depth: Some(4),
        ..Limits::default()
    });
    for _ in 0..20 {
        if pos.outcome().is_some() {
            break;
        }
        let result = searcher.search(&pos, &request, &SearchControl::new(false), &Silent);
        let best = result.best.expect("a move while the game goes on");
        assert!(pos.is_legal(best), "{}", pos.move_to_usi(best));
        assert!(result.score.is_some());
        moves.push(pos.move_to_usi(best));
        pos.make_move(best);
    }
    assert!(!moves.is_empty());
    // The moves read back from their own notation.
    let mut replay = Position::startpos(variant);
    replay
        .play_usi_moves(moves.iter().map(String::as_str))
        .expect("the game's moves replay");
    assert_eq!(replay.key(), pos.key());
}
