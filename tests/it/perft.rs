//! Perft against the reference counts in `tests/data/*.tsv` (our own numbers, checked by two
//! independent generators; see their headers). Lines above `CI_NODE_LIMIT` nodes run in
//! `scripts/checks/perft-deep.sh` instead.

use shishi::perft::{divide, perft};
use shishi::position::Position;
use shishi::variant::Variant;

const CI_NODE_LIMIT: u64 = 3_000_000;

struct Case {
    name: String,
    sfen: String,
    moves: String,
    depth: u32,
    nodes: u64,
}

fn cases(file: &str) -> Vec<Case> {
    let text = std::fs::read_to_string(format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR")))
        .expect("perft data");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 5, "malformed line: {l}");
            Case {
                name: f[0].into(),
                sfen: f[1].into(),
                moves: f[2].into(),
                depth: f[3].parse().expect("depth"),
                nodes: f[4].parse().expect("nodes"),
            }
        })
        .collect()
}

fn check_file(file: &str, variant: &'static Variant) {
    let all = cases(file);
    assert!(all.len() >= 10, "{file} has too few lines");
    let mut checked = 0;
    for case in all.iter().filter(|c| c.nodes <= CI_NODE_LIMIT) {
        let mut pos = Position::from_sfen(variant, &case.sfen).expect("reference SFEN");
        pos.play_usi_moves(case.moves.split_whitespace())
            .expect("reference moves");
        let nodes = perft(&mut pos, case.depth);
        assert_eq!(nodes, case.nodes, "{} depth {}", case.name, case.depth);
        checked += 1;
    }
    assert!(
        checked * 10 >= all.len() * 8,
        "most reference lines must run in CI"
    );
}

#[test]
fn chushogi_reference_counts() {
    check_file("chushogi.tsv", Variant::chu());
}

#[test]
fn shoshogi_reference_counts() {
    check_file("shoshogi.tsv", Variant::sho());
}

#[test]
fn divide_sums_to_perft_and_threads_agree() {
    for variant in Variant::all() {
        let pos = Position::startpos(variant);
        let single = divide(&pos, 3, 1);
        let parallel = divide(&pos, 3, 2);
        assert_eq!(single, parallel);
        let total: u64 = single.iter().map(|(_, n)| n).sum();
        assert_eq!(total, perft(&mut pos.clone(), 3));
        let mut names: Vec<&String> = single.iter().map(|(m, _)| m).collect();
        names.dedup();
        assert_eq!(names.len(), single.len(), "each root move once");
    }
}

#[test]
fn a_lone_lion_falcon_and_eagle_have_lishogis_counts() {
    // The rules file: a lone lion in the middle of an empty board has 24 + 64 = 88 moves, a
    // horned falcon 41, a soaring eagle 40 (the corner king adds its 3; a gote gold keeps the
    // game from being a bare-king finish).
    for (piece, expected) in [("N", 88), ("+H", 41), ("+D", 40)] {
        let sfen = format!("kg10/12/12/12/12/12/5{piece}6/12/12/12/12/11K b - 1");
        let mut pos = Position::from_sfen(Variant::chu(), &sfen).unwrap();
        let king_moves = 3;
        assert_eq!(perft(&mut pos, 1), expected + king_moves, "{piece}");
    }
}
