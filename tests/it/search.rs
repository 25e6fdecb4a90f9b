//! Search behaviour: wins found, mates scored exactly, determinism, stop latency, threads,
//! MultiPV, and the bench signature.

use shishi::core::score::PERPETUAL_WIN;
use shishi::position::Position;
use shishi::search::params::SearchParams;
use shishi::search::{
    Info, Limits, Observer, Request, SearchControl, SearchOptions, Searcher, Silent, Task,
};
use shishi::variant::Variant;
use std::sync::Mutex;
use std::time::{Duration, Instant};

fn search(
    variant: &'static Variant,
    sfen: &str,
    limits: Limits,
    threads: usize,
) -> (Position, shishi::search::SearchResult) {
    let pos = Position::from_sfen(variant, sfen).unwrap();
    let request = Request::play(limits).with_options(SearchOptions {
        threads,
        ..SearchOptions::default()
    });
    let result = Searcher::new(16).search(&pos, &request, &SearchControl::new(false), &Silent);
    (pos, result)
}

fn depth(d: i32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

#[test]
fn taking_the_last_royal_is_found_and_scored_as_mate_in_one() {
    let (pos, r) = search(
        Variant::chu(),
        "k10g/1G10/12/12/12/12/12/12/12/12/12/11K b - 1",
        depth(4),
        1,
    );
    // The gold takes the king on 12a (promoting or not: both win).
    assert!(pos.move_to_usi(r.best.unwrap()).starts_with("11b12a"));
    assert_eq!(r.mate_plies(), Some(1));
}

#[test]
fn a_sho_checkmate_is_found() {
    // Both 1c1b and 2c2b+ mate at once.
    let (mut pos, r) = search(Variant::sho(), "8k/9/p6SG/9/9/9/9/9/4K4 b - 1", depth(4), 1);
    assert_eq!(r.mate_plies(), Some(1));
    pos.make_move(r.best.unwrap());
    assert!(!pos.has_legal_move(), "the move mates");
}

/// The nodes of a single-threaded search to `d` plies with the constants `params`, and its
/// result.
fn search_with_params(
    variant: &'static Variant,
    sfen: &str,
    d: i32,
    params: SearchParams,
) -> shishi::search::SearchResult {
    let pos = Position::from_sfen(variant, sfen).unwrap();
    let request = Request::play(depth(d)).with_options(SearchOptions {
        params,
        ..SearchOptions::default()
    });
    Searcher::new(16).search(&pos, &request, &SearchControl::new(false), &Silent)
}

#[test]
fn sho_prunes_with_its_own_constants_and_the_terms_off_by_default_work_when_on() {
    // Sho's constants turn on the pruning that is off by default (futility, SEE, the
    // "improving" terms).
    let pruning = SearchParams::for_variant(Variant::sho());
    assert_ne!(
        pruning,
        SearchParams::default(),
        "sho has values of its own"
    );
    // A sho middlegame after 40 plies (Shishi against Fairy-Stockfish): the same depth
    // costs fewer nodes with the pruning than without.
    let middlegame = "ln3g1nk/2gs5/p1pepp1p1/1r1p1sp2/7N1/P1PP3P1/LSN1PPP2/2G1EKRS1/5G3 b - 41";
    let pruned = search_with_params(Variant::sho(), middlegame, 9, pruning);
    let full = search_with_params(Variant::sho(), middlegame, 9, SearchParams::default());
    assert!(pruned.best.is_some() && full.best.is_some());
    assert!(
        pruned.nodes * 4 < full.nodes * 3,
        "with the pruning {} nodes, without it {}",
        pruned.nodes,
        full.nodes
    );
    // A mate at hand survives the pruning: both 1c1b and 2c2b+ mate at once.
    let mate = search_with_params(Variant::sho(), "8k/9/p6SG/9/9/9/9/9/4K4 b - 1", 4, pruning);
    assert_eq!(mate.mate_plies(), Some(1));

    // The check extension, the internal iterative reduction and the history term of the
    // reductions, off in sho too, change the tree when on.
    let plain = search_with_params(Variant::sho(), middlegame, 7, SearchParams::default());
    for (name, value) in [
        ("check_extension", 1),
        ("iir_min_depth", 4),
        ("lmr_history_divisor", 500),
    ] {
        let mut params = SearchParams::default();
        params.set(name, value).unwrap();
        let other = search_with_params(Variant::sho(), middlegame, 7, params);
        assert!(other.best.is_some());
        assert_ne!(other.nodes, plain.nodes, "{name} changes the tree");
    }
}

/// Sho, sente a bishop and two silvers behind, has chased gote's king between 1a and 1b
/// with a check on every move: checking again (3b3a) repeats the position after its first
/// check. With every repetition a draw the search takes that draw; with `perpetual_loss` on
/// it knows the chase loses (the game's fourfold repetition would make the side that
/// checked every move the loser) and plays on, behind.
#[test]
fn perpetual_loss_scores_a_repetition_by_perpetual_check_as_lost() {
    let mut pos =
        Position::from_sfen(Variant::sho(), "g7k/6R2/9/9/4rbss1/9/9/9/K7G b - 1").unwrap();
    pos.play_usi_moves(["3b3a", "1a1b", "3a3b", "1b1a"])
        .unwrap();
    let best_and_score = |perpetual_loss: i64| {
        let mut params = SearchParams::for_variant(Variant::sho());
        params.set("perpetual_loss", perpetual_loss).unwrap();
        let request = Request::play(depth(6)).with_options(SearchOptions {
            params,
            avoid_repetition: false,
            ..SearchOptions::default()
        });
        let result = Searcher::new(16).search(&pos, &request, &SearchControl::new(false), &Silent);
        (pos.move_to_usi(result.best.unwrap()), result.score.unwrap())
    };
    let (draw_move, draw_score) = best_and_score(0);
    assert_eq!(draw_move, "3b3a");
    assert!(draw_score > -300, "a draw, with contempt: {draw_score}");
    let (move_on, score_on) = best_and_score(1);
    assert_ne!(move_on, "3b3a");
    assert!(
        (-PERPETUAL_WIN + 1..-300).contains(&score_on),
        "behind, but not lost: {score_on}"
    );
}

#[test]
fn a_mate_in_three_plies_in_chu() {
    // Gote's king on 1a with a gold on 2a; sente's rook and gold: rook takes... the search
    // must find a forced win of the king within 3 plies and score it exactly.
    let (_, r) = search(
        Variant::chu(),
        "9gk1/12/10G1/12/12/12/12/12/12/12/12/K1R9 b - 1",
        depth(6),
        1,
    );
    let plies = r.mate_plies().expect("a mate");
    assert!(plies > 0 && plies <= 5 && plies % 2 == 1, "mate in {plies}");
}

#[test]
fn the_side_to_move_that_is_lost_sees_the_mate_against_it() {
    // Gote to move cannot stop sente taking its king next move: sente's gold on 1b,
    // defended by the silver on 2c, covers every escape.
    let (_, r) = search(
        Variant::chu(),
        "g10k/11G/10S1/12/12/12/12/12/12/12/12/K11 w - 1",
        depth(4),
        1,
    );
    assert_eq!(r.mate_plies(), Some(-2), "score {:?}", r.score);
}

#[test]
fn single_thread_search_is_deterministic() {
    let a = search(Variant::chu(), "startpos", depth(6), 1).1;
    let b = search(Variant::chu(), "startpos", depth(6), 1).1;
    assert_eq!((a.best, a.nodes, a.score), (b.best, b.nodes, b.score));
}

#[test]
fn stop_ends_an_infinite_search_at_once_with_any_thread_count() {
    for threads in [1, 2, 3] {
        let pos = Position::startpos(Variant::chu());
        let control = SearchControl::new(false);
        let request = Request {
            limits: Limits {
                infinite: true,
                ..Limits::default()
            },
            task: Task::Analyse,
            options: SearchOptions {
                threads,
                ..SearchOptions::default()
            },
        };
        let mut searcher = Searcher::new(16);
        let (latency, result) = std::thread::scope(|s| {
            let handle = s.spawn(|| searcher.search(&pos, &request, &control, &Silent));
            std::thread::sleep(Duration::from_millis(300));
            let asked = Instant::now();
            control.stop();
            let result = handle.join().unwrap();
            (asked.elapsed(), result)
        });
        assert!(result.best.is_some());
        // The goal is under 50 ms; the test allows for a loaded CI machine.
        assert!(
            latency < Duration::from_millis(400),
            "{threads} threads: {latency:?}"
        );
    }
}

#[test]
fn limits_end_the_search() {
    let start = Instant::now();
    let (_, r) = search(
        Variant::chu(),
        "startpos",
        Limits {
            movetime: Some(Duration::from_millis(200)),
            ..Limits::default()
        },
        2,
    );
    assert!(r.best.is_some());
    assert!(
        start.elapsed() < Duration::from_millis(1500),
        "{:?}",
        start.elapsed()
    );
    let (_, r) = search(
        Variant::chu(),
        "startpos",
        Limits {
            nodes: Some(20_000),
            ..Limits::default()
        },
        1,
    );
    assert!(r.nodes < 60_000, "{}", r.nodes);
}

struct Collect(Mutex<Vec<Info>>);

impl Observer for Collect {
    fn info(&self, info: &Info) {
        self.0.lock().unwrap().push(info.clone());
    }
}

#[test]
fn multipv_reports_distinct_lines_best_first() {
    let pos = Position::startpos(Variant::chu());
    let request = Request::play(depth(4)).with_options(SearchOptions {
        multipv: 3,
        ..SearchOptions::default()
    });
    let seen = Collect(Mutex::new(Vec::new()));
    Searcher::new(16).search(&pos, &request, &SearchControl::new(false), &seen);
    let infos = seen.0.into_inner().unwrap();
    let last: Vec<&Info> = infos
        .iter()
        .filter(|i| i.depth == 4 && i.bound.is_none())
        .collect();
    assert_eq!(
        last.iter().map(|i| i.multipv).collect::<Vec<_>>(),
        vec![1, 2, 3]
    );
    let firsts: std::collections::HashSet<_> = last.iter().map(|i| i.pv[0]).collect();
    assert_eq!(firsts.len(), 3);
    assert!(last[0].score >= last[1].score && last[1].score >= last[2].score);
}

#[test]
fn every_thread_count_returns_a_legal_move() {
    for threads in [1, 2, 4] {
        let (mut pos, r) = search(Variant::sho(), "startpos", depth(5), threads);
        assert!(pos.is_legal(r.best.unwrap()));
    }
}

#[test]
fn bench_reproduces_the_node_count_in_bench_file() {
    let expected: u64 = std::fs::read_to_string(format!("{}/BENCH", env!("CARGO_MANIFEST_DIR")))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let (nodes, _) = shishi::bench::run(
        shishi::bench::DEFAULT_DEPTH,
        1,
        16,
        &Default::default(),
        |_| {},
    )
    .expect("a 16 MB table");
    assert_eq!(
        nodes, expected,
        "the search changed: update BENCH and say `Bench: {nodes}` in the commit"
    );
}

#[test]
fn a_strength_level_keeps_its_node_budget_exactly() {
    // Level 10 may spend 6,400 nodes. The limit was checked every 1,024 nodes only, so the
    // low levels overran it (levels 0 to 4 all searched 1,024 nodes or more).
    let level = shishi::search::skill::Skill::new(10).unwrap();
    let pos = Position::from_sfen(Variant::chu(), Variant::chu().spec.start_sfen).unwrap();
    let request = Request::default().with_options(SearchOptions {
        skill: Some(level),
        ..SearchOptions::default()
    });
    let r = Searcher::new(16).search(&pos, &request, &SearchControl::new(false), &Silent);
    assert!(r.best.is_some());
    let budget = level.max_nodes();
    assert!(
        (budget..budget + 64).contains(&r.nodes),
        "{} nodes for a budget of {budget}",
        r.nodes
    );
}

#[test]
fn bench_takes_search_constants_and_refuses_bad_ones() {
    let bench = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_shishi"))
            .args(["bench", "--depth", "4"])
            .args(args)
            .env("RUST_LOG", "off")
            .output()
            .unwrap()
    };
    let nodes = |args: &[&str]| -> u64 {
        let out = bench(args);
        assert!(out.status.success(), "{args:?}");
        let stdout = String::from_utf8_lossy(&out.stdout);
        stdout.split_whitespace().next().unwrap().parse().unwrap()
    };
    // The same constant as the default changes nothing; another value changes the tree.
    let default = nodes(&[]);
    assert_eq!(nodes(&["--param", "lmr_min_moves=3"]), default);
    assert_ne!(nodes(&["--param", "lmr_min_moves=1"]), default);
    for bad in [
        "lmr_min_moves",
        "lmr_min_moves=x",
        "no_such=1",
        "lmr_min_moves=99",
    ] {
        let out = bench(&["--param", bad]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{bad}: {stderr}");
        assert!(stderr.starts_with("error: --param "), "{bad}: {stderr}");
    }
}

/// Chu's search constants with these set over them.
fn chu_params_with(constants: &[(&str, i64)]) -> SearchParams {
    let mut params = SearchParams::for_variant(Variant::chu());
    for &(name, value) in constants {
        params.set(name, value).unwrap();
    }
    params
}

/// The nodes of a search to `depth` of a chu middlegame with these search constants set
/// over chu's own.
fn middlegame_nodes(depth: i32, constants: &[(&str, i64)]) -> u64 {
    let params = chu_params_with(constants);
    let result = search_with_params(
        Variant::chu(),
        "2csgekgscf1/4tx1t1bv1/1bd4dm3/1ppp1pp1p1p1/4p3iq2/3B2h3P1/1P10/v1PIo3IP2/2HP1PP1P2V/2R2SQ1nR2/1F1TDOX3F1/2C1GKEGTC1L b - 121",
        depth,
        params,
    );
    assert!(result.best.is_some());
    result.nodes
}

/// The nodes of a search to `depth` of that middlegame with the internal iterative
/// reduction set so (`iir_min_depth` 0: off).
fn nodes_with_iir(depth: i32, min_depth: i64, after_pruning: i64, from_iteration: i64) -> u64 {
    middlegame_nodes(
        depth,
        &[
            ("iir_min_depth", min_depth),
            ("iir_after_pruning", after_pruning),
            ("iir_from_iteration", from_iteration),
        ],
    )
}

/// Where the internal iterative reduction is made (before or after reverse futility and
/// the null move) changes the tree: in a chu middlegame at depth 7, the null move and
/// reverse futility see the reduced depth in one and the full depth in the other.
#[test]
fn the_internal_iterative_reduction_before_or_after_the_pruning_differs() {
    assert_ne!(nodes_with_iir(7, 4, 0, 0), nodes_with_iir(7, 4, 1, 0));
}

/// `iir_from_iteration` holds the internal iterative reduction back until that many
/// iterations are finished: held back past the last iteration the search is the one
/// without the reduction, node for node; held back to one in the middle (in this position
/// at depth 9 the reduction first changes the seventh iteration) it is neither that one
/// nor the one with the reduction throughout.
#[test]
fn the_internal_iterative_reduction_waits_for_its_iteration() {
    let (without, throughout) = (nodes_with_iir(9, 0, 1, 0), nodes_with_iir(9, 4, 1, 0));
    assert_ne!(without, throughout);
    assert_eq!(nodes_with_iir(9, 4, 1, 9), without);
    let from_the_eighth = nodes_with_iir(9, 4, 1, 7);
    assert_ne!(from_the_eighth, without);
    assert_ne!(from_the_eighth, throughout);
}

/// `lmr_deep_divisor_hundredths` reduces late moves by another divisor once
/// `lmr_deep_from_iteration` iterations are finished: waiting past the last iteration the
/// search is main's node for node (so a fast clock keeps its reductions), waiting for the
/// seventh it is neither main's nor the one with that divisor throughout.
#[test]
fn the_deep_reduction_divisor_waits_for_its_iteration() {
    let nodes = |divisor: i64, deep_divisor: i64, from_iteration: i64| {
        middlegame_nodes(
            9,
            &[
                ("lmr_divisor_hundredths", divisor),
                ("lmr_deep_divisor_hundredths", deep_divisor),
                ("lmr_deep_from_iteration", from_iteration),
            ],
        )
    };
    let (main, throughout) = (nodes(225, 0, 8), nodes(180, 0, 8));
    assert_ne!(main, throughout);
    assert_eq!(nodes(225, 180, 0), throughout);
    assert_eq!(nodes(225, 180, 9), main);
    let from_the_seventh = nodes(225, 180, 6);
    assert_ne!(from_the_seventh, main);
    assert_ne!(from_the_seventh, throughout);
}

/// Reductions at the root change the tree of a chu middlegame (off, the default, `shishi
/// bench` keeps main's count).
#[test]
fn root_reductions_change_the_tree() {
    assert_ne!(
        middlegame_nodes(9, &[("lmr_root", 1)]),
        middlegame_nodes(9, &[])
    );
}

/// Razoring cuts nodes of a chu middlegame whose evaluation is far below beta, so the
/// tree shrinks (off, the default, `shishi bench` keeps main's count).
#[test]
fn razoring_shrinks_the_tree() {
    assert!(middlegame_nodes(9, &[("razor_max_depth", 3)]) < middlegame_nodes(9, &[]));
}

/// The follow-up history orders the quiet moves of a chu middlegame otherwise, so the
/// tree changes (off, the default, `shishi bench` keeps main's count).
#[test]
fn the_follow_up_history_changes_the_move_order() {
    let nodes = |pct: i64| middlegame_nodes(9, &[("follow_up_history", pct)]);
    assert_ne!(nodes(100), nodes(0));
}

/// Game 2 of an eighth-of-time match against HaChu, before ply 267: HaChu's lion
/// 11i9j threatens 9j10l, the capture of a soaring eagle, and wins nine pawns of
/// material back. Searching 11i9j at depth 2 with a null window, the quiescence after a
/// quiet reply (7f9h) left 9j10l out by delta pruning and returned its standing evaluation,
/// far below what the capture was worth: the reply seemed to win by more than the PV
/// node's beta, 11i9j seemed to lose, and the re-search that would have shown the truth
/// was skipped. Either remedy finds the lion's move at depth 2: `qs_delta_bound` (the
/// capture left out still bounds the node) or `pv_research_at_beta` (the PV node searches
/// the reply again with its full window).
#[test]
fn a_fail_high_made_too_high_by_delta_pruning_is_caught() {
    let before_the_lion = "lf2g1kgs1fl/ac1steot1v1a/7m4/6p3pp/p7p3/5xn5/4+r7/2F3C1I3/PN1PS1D1PM2/1M4ODC3/A4ET4A/L1+d1TK1GS2L b - 267";
    let best_at_depth_2 = |constants: &[(&str, i64)]| {
        let pos = Position::from_sfen(Variant::chu(), before_the_lion).unwrap();
        let params = chu_params_with(constants);
        let result = search_with_params(Variant::chu(), before_the_lion, 2, params);
        pos.move_to_usi(result.best.unwrap())
    };
    assert_eq!(best_at_depth_2(&[("qs_delta_bound", 1)]), "11i9j");
    assert_eq!(best_at_depth_2(&[("pv_research_at_beta", 1)]), "11i9j");
    assert_ne!(
        best_at_depth_2(&[]),
        "11i9j",
        "with neither the lion's move is missed"
    );
}

/// With `smp_depth_skip` the helpers spread over depths and every thread shows its
/// iterations deeper than any shown before: the lines shown come deeper and deeper (a
/// MultiPV block whole, one row a line), the last at the depth asked, and the answer is
/// legal, whatever the number of threads.
#[test]
fn threads_spread_over_depths_show_each_depth_once_and_in_order() {
    for (threads, multipv) in [(2, 1), (4, 1), (2, 2)] {
        let pos = Position::startpos(Variant::chu());
        let mut params = SearchParams::for_variant(Variant::chu());
        params.set("smp_depth_skip", 1).unwrap();
        let request = Request::play(depth(8)).with_options(SearchOptions {
            threads,
            multipv,
            params,
            ..SearchOptions::default()
        });
        let seen = Collect(Mutex::new(Vec::new()));
        let r = Searcher::new(16).search(&pos, &request, &SearchControl::new(false), &seen);
        assert!(pos.clone().is_legal(r.best.unwrap()));
        let mut shown: Vec<(i32, usize)> = (seen.0.into_inner().unwrap().iter())
            .filter(|i| i.bound.is_none())
            .map(|i| (i.depth, i.multipv))
            .collect();
        // The answer's lines come last, again if another thread's lines at that depth
        // were shown first.
        let n = shown.len();
        if n >= 2 * multipv && shown[n - multipv].0 == shown[n - 2 * multipv].0 {
            shown.truncate(n - multipv);
        }
        let mut expected = Vec::new();
        let mut last_depth = 0;
        for &(depth, _) in shown.iter().step_by(multipv) {
            assert!(depth > last_depth, "{threads} threads: {shown:?}");
            last_depth = depth;
            expected.extend((1..=multipv).map(|row| (depth, row)));
        }
        assert_eq!(shown, expected, "{threads} threads, MultiPV {multipv}");
        assert_eq!(last_depth, 8, "{threads} threads: {shown:?}");
    }
}
