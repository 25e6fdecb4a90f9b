//! Properties of the rules core checked over random games of both variants: SFEN and USI
//! round trips, incremental keys, make/unmake identity, the two generation modes, and
//! parsers that never panic.

use shishi::core::rng::Rng;
use shishi::position::notation::move_to_usi;
use shishi::position::{GenMode, Position};
use shishi::variant::Variant;
use std::collections::{HashMap, HashSet};

/// Positions of `games` random games of `variant` (each game up to `plies` plies).
fn random_positions(
    variant: &'static Variant,
    games: usize,
    plies: usize,
    seed: u64,
) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Position::startpos(variant);
        for _ in 0..plies {
            out.push(pos.clone());
            if pos.board_outcome().is_some() {
                break;
            }
            match pos.random_move(&mut rng) {
                Some(mv) => pos.make_move(mv),
                None => break,
            }
        }
    }
    out
}

#[test]
fn keys_stay_equal_to_keys_from_scratch_and_unmake_restores_everything() {
    for variant in Variant::all() {
        let mut rng = Rng::new(11);
        for _ in 0..20 {
            let mut pos = Position::startpos(variant);
            let mut snapshots = vec![(pos.to_sfen(), pos.key())];
            for _ in 0..250 {
                let Some(mv) = pos.random_move(&mut rng) else {
                    break;
                };
                pos.make_move(mv);
                pos.debug_validate();
                snapshots.push((pos.to_sfen(), pos.key()));
                if pos.board_outcome().is_some() {
                    break;
                }
            }
            // Unmake everything, checking each earlier position comes back exactly.
            snapshots.pop();
            while let Some((sfen, key)) = snapshots.pop() {
                pos.unmake_move();
                pos.debug_validate();
                assert_eq!((pos.to_sfen(), pos.key()), (sfen, key));
            }
        }
    }
}

#[test]
fn sfen_round_trips() {
    for variant in Variant::all() {
        for pos in random_positions(variant, 15, 300, 5) {
            let sfen = pos.to_sfen();
            let again =
                Position::from_sfen(variant, &sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
            assert_eq!(again.to_sfen(), sfen);
            assert_eq!(again.key(), pos.key(), "{sfen}");
        }
    }
}

#[test]
fn every_generated_move_prints_and_parses_back_to_itself() {
    let mut checked = 0;
    for variant in Variant::all() {
        for mut pos in random_positions(variant, 12, 250, 9) {
            let mut perft_moves = Vec::new();
            pos.legal_moves(GenMode::Perft, &mut perft_moves);
            for &mv in &perft_moves {
                // The exact path parses back to its canonical form...
                let parsed = pos
                    .parse_usi_move(&move_to_usi(variant, mv))
                    .expect("generated move parses");
                assert_eq!(parsed, pos.canonical(mv));
                // ...and the canonical spelling parses back to itself.
                let text = pos.move_to_usi(mv);
                assert_eq!(pos.parse_usi_move(&text), Ok(parsed), "{text}");
                checked += 1;
            }
        }
    }
    assert!(checked > 100_000, "only {checked} moves checked");
}

/// The resulting position of each move, as (key, SFEN without move number).
fn children(pos: &mut Position, mode: GenMode) -> Vec<(u64, String)> {
    let mut moves = Vec::new();
    pos.legal_moves(mode, &mut moves);
    moves
        .iter()
        .map(|&mv| {
            pos.make_move(mv);
            let sfen = pos.to_sfen();
            let child = (pos.key(), sfen.rsplit_once(' ').unwrap().0.to_string());
            pos.unmake_move();
            child
        })
        .collect()
}

#[test]
fn perft_and_search_modes_reach_the_same_positions() {
    let mut with_duplicates = 0;
    for variant in Variant::all() {
        for mut pos in random_positions(variant, 12, 250, 13) {
            let perft_children = children(&mut pos, GenMode::Perft);
            let search_children = children(&mut pos, GenMode::Search);
            let perft_set: HashSet<_> = perft_children.iter().cloned().collect();
            let search_set: HashSet<_> = search_children.iter().cloned().collect();
            assert_eq!(perft_set, search_set, "{}", pos.to_sfen());
            assert_eq!(
                search_set.len(),
                search_children.len(),
                "search mode lists a position twice: {}",
                pos.to_sfen()
            );
            // Equal keys must mean equal positions (no collisions in this sample).
            let by_key: HashMap<u64, &String> =
                perft_children.iter().map(|(k, s)| (*k, s)).collect();
            assert_eq!(by_key.len(), perft_set.len());
            if perft_children.len() > search_children.len() {
                with_duplicates += 1;
            }
        }
    }
    assert!(
        with_duplicates > 100,
        "the sample must contain lion double moves ({with_duplicates})"
    );
}

#[test]
fn parsers_never_panic_on_garbage() {
    let mut rng = Rng::new(99);
    let alphabet: Vec<char> =
        "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ+/-= \t_*@é"
            .chars()
            .collect();
    for variant in Variant::all() {
        let start = variant.spec.start_sfen;
        let mut pos = Position::startpos(variant);
        for round in 0..20_000 {
            let text: String = if round % 2 == 0 {
                // Random strings of random length.
                (0..rng.below(40))
                    .map(|_| alphabet[rng.below(alphabet.len())])
                    .collect()
            } else {
                // Near-SFENs: the start SFEN with a few characters changed, cut or doubled.
                let mut chars: Vec<char> = start.chars().collect();
                for _ in 0..1 + rng.below(3) {
                    let i = rng.below(chars.len());
                    match rng.below(3) {
                        0 => chars[i] = alphabet[rng.below(alphabet.len())],
                        1 => {
                            chars.remove(i);
                        }
                        _ => chars.insert(i, chars[i]),
                    }
                }
                chars.into_iter().collect()
            };
            if let Ok(p) = Position::from_sfen(variant, &text) {
                // Whatever parses must print to something that parses to the same position.
                let again =
                    Position::from_sfen(variant, &p.to_sfen()).expect("printed SFEN parses");
                assert_eq!(again.key(), p.key());
            }
            let _ = pos.parse_usi_move(&text);
            let prefix: String = text.chars().take(7).collect();
            let _ = pos.parse_usi_move(&prefix);
        }
        // Random bytes, as lossy UTF-8.
        for _ in 0..5_000 {
            let bytes: Vec<u8> = (0..rng.below(64)).map(|_| rng.next_u64() as u8).collect();
            let text = String::from_utf8_lossy(&bytes);
            let _ = Position::from_sfen(variant, &text);
            let _ = pos.parse_usi_move(&text);
        }
    }
}

#[test]
fn errors_name_the_field_and_the_move() {
    let chu = Variant::chu();
    let e = Position::from_sfen(chu, "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFZ b - 1").unwrap_err();
    assert_eq!(e.field, "board");
    assert!(
        e.to_string().contains("'Z'") && e.to_string().contains("rank l"),
        "{e}"
    );
    let e = Position::from_sfen(chu, "12/12/12/12/12/12/12/12/12/12/12/12 x - 1").unwrap_err();
    assert_eq!(e.field, "side");
    let e = Position::from_sfen(chu, "12/12/12/12/12/12/12/12/12/12/12/12 b 13a 1").unwrap_err();
    assert_eq!(e.field, "counter-strike");
    let e = Position::from_sfen(chu, "12/12/12/12/12/12/12/12/12/12/12/11 b - 1").unwrap_err();
    assert!(e.to_string().contains("rank l has 11 squares"), "{e}");
    let e = Position::from_sfen(Variant::sho(), "9/9/9/9/9/9/9/9/9 b P 1").unwrap_err();
    assert_eq!(e.field, "hand");

    let mut pos = Position::startpos(chu);
    let before = pos.to_sfen();
    let e = pos
        .play_usi_moves(["7i7h", "6d6e", "7h7e", "5d5e"])
        .unwrap_err();
    assert_eq!(e.index, 2);
    assert!(
        e.to_string().contains("move 3") && e.to_string().contains("7h7e"),
        "{e}"
    );
    assert_eq!(
        pos.to_sfen(),
        before,
        "a failed move list leaves the position as it was"
    );
    assert!(matches!(
        pos.parse_usi_move("7i7h7g7f"),
        Err(shishi::position::MoveError::Syntax(_))
    ));
}

#[test]
fn usi_spellings_lishogi_accepts() {
    // Lion out in the open (reference position startpos_lion_out): 7f holds sente's lion.
    let chu = Variant::chu();
    let mut pos = Position::startpos(chu);
    pos.play_usi_moves("8i8h 5d5e 7j8i 6c5d 8i8g 5d6e 8g7f 6e6f".split(' '))
        .unwrap();
    // A jump through an empty square parses from both spellings to the canonical 2-square one.
    let jump = pos.parse_usi_move("7f7d").unwrap();
    assert_eq!(pos.parse_usi_move("7f7e7d"), Ok(jump));
    assert_eq!(pos.move_to_usi(jump), "7f7d");
    // Jitto (pass) and igui keep the 3-square spelling.
    let jitto = pos.parse_usi_move("7f7e7f").unwrap();
    assert_eq!(pos.move_to_usi(jitto), "7f7e7f");
    let igui = pos.parse_usi_move("7f6f7f").unwrap();
    assert_eq!(pos.move_to_usi(igui), "7f6f7f");
    // `=` means "does not promote".
    let sho = Variant::sho();
    let mut pos = Position::from_sfen(sho, "4k4/7P1/1L7/2N6/8S/9/9/9/4K4 b - 1").unwrap();
    // The lance on 8c may promote on 8b or not.
    assert_eq!(pos.parse_usi_move("8c8b="), pos.parse_usi_move("8c8b"));
    assert!(pos.parse_usi_move("8c8b").is_ok() && pos.parse_usi_move("8c8b+").is_ok());
    assert_ne!(pos.parse_usi_move("8c8b"), pos.parse_usi_move("8c8b+"));
    // Sho's forced promotions exist only with `+`.
    assert!(pos.parse_usi_move("2b2a").is_err() && pos.parse_usi_move("2b2a+").is_ok());
}

#[test]
fn capture_and_quiet_filters_split_the_moves_and_is_legal_agrees() {
    use shishi::position::Filter;
    for variant in Variant::all() {
        for mut pos in random_positions(variant, 8, 200, 21) {
            for mode in [GenMode::Perft, GenMode::Search] {
                let (mut all, mut caps, mut quiets) = (Vec::new(), Vec::new(), Vec::new());
                pos.generate(mode, Filter::All, &mut all);
                pos.generate(mode, Filter::Captures, &mut caps);
                pos.generate(mode, Filter::Quiets, &mut quiets);
                let mut split: Vec<_> = caps.iter().chain(quiets.iter()).copied().collect();
                split.sort();
                all.sort();
                assert_eq!(split, all, "{}", pos.to_sfen());
                for mv in &caps {
                    let captured = !pos.piece_on(mv.to()).is_empty() && mv.to() != mv.from()
                        || mv.mid().is_some_and(|m| !pos.piece_on(m).is_empty());
                    assert!(captured, "{} {}", pos.to_sfen(), pos.move_to_usi(*mv));
                }
            }
            let mut search = Vec::new();
            pos.legal_moves(GenMode::Search, &mut search);
            for &mv in &search {
                assert!(
                    pos.is_legal(mv),
                    "{} {}",
                    pos.to_sfen(),
                    pos.move_to_usi(mv)
                );
            }
            // Moves of other positions are mostly not legal here; none may crash is_legal.
            let mut other = Position::startpos(variant);
            let mut theirs = Vec::new();
            other.legal_moves(GenMode::Perft, &mut theirs);
            for &mv in &theirs {
                assert_eq!(pos.is_legal(mv), search.contains(&mv));
            }
        }
    }
}

#[test]
fn a_large_move_number_does_not_wrap() {
    // Issue 29, finding 9: move number 4294967295 plus one move was written as 0, which
    // the parser then refused.
    let start = "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/\
PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 4294967295";
    let mut pos = Position::from_sfen(Variant::chu(), start).unwrap();
    pos.play_usi_moves(["7i7h"]).unwrap();
    let written = pos.to_sfen();
    assert!(written.ends_with(" 4294967296"), "{written}");
    let again = Position::from_sfen(Variant::chu(), &written).unwrap();
    assert_eq!(again.to_sfen(), written);
    // Numbers beyond the largest accepted one are refused with the field named.
    let huge = start.replace("4294967295", "18446744073709551615");
    let err = Position::from_sfen(Variant::chu(), &huge)
        .unwrap_err()
        .to_string();
    assert!(err.contains("move number"), "{err}");
}
