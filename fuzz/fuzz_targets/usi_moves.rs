//! USI move lists on any bytes, from the start and from a lion position: never a panic; a
//! list either plays whole or leaves the position as it was.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shishi::position::Position;
use shishi::variant::Variant;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for variant in Variant::all() {
        let mut pos = Position::startpos(variant);
        let _ = pos.play_usi_moves("8i8h 5d5e 7j8i 6c5d 8i8g 5d6e".split(' '));
        let before = pos.key();
        let moves: Vec<&str> = text.split_whitespace().collect();
        if pos.play_usi_moves(moves.iter().copied()).is_err() {
            assert_eq!(pos.key(), before, "a failed list leaves the position");
        }
        for m in &moves {
            let _ = pos.clone().parse_usi_move(m);
            let _ = pos.clone().parse_usi_path(m);
        }
    }
});
