//! The SFEN parser on any bytes, in both variants: never a panic, and what parses prints
//! an SFEN that parses to the same position.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shishi::position::Position;
use shishi::variant::Variant;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for variant in Variant::all() {
        if let Ok(pos) = Position::from_sfen(variant, &text) {
            let again = Position::from_sfen(variant, &pos.to_sfen()).expect("printed SFEN parses");
            assert_eq!(again.key(), pos.key());
        }
    }
});
