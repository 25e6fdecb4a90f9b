//! The analysis readers (SFEN lines, JSON lines, KIF) and the KIF file namer on any bytes:
//! never a panic; every job read is playable.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shishi::analyse::input::{make_ids_unique, parse, Job};
use shishi::analyse::kif_file_name;
use shishi::position::Position;
use shishi::variant::Variant;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for variant in Variant::all() {
        let (mut jobs, _errors) = parse(&text, "fuzz.kif", variant, false);
        make_ids_unique(&mut jobs);
        for job in &jobs {
            let (Job::Position {
                variant,
                sfen,
                moves,
                ..
            }
            | Job::Game {
                variant,
                sfen,
                moves,
                ..
            }) = job;
            let v = Variant::by_name(variant).expect("a known variant");
            let mut pos = Position::from_sfen(v, sfen).expect("a checked SFEN");
            if let Job::Position { .. } = job {
                pos.play_usi_moves(moves.iter().map(String::as_str))
                    .expect("checked moves");
            } else {
                for m in moves {
                    let mv = pos.parse_usi_path(m).expect("checked moves");
                    pos.make_move(mv);
                }
            }
            let name = kif_file_name(job.id());
            assert!(!name.contains('/') && name.ends_with(".kif"));
        }
    }
});
