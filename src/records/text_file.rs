//! A record file's bytes as text, one home for every reader (analyse's inputs, the match's
//! openings): UTF-8, UTF-16 as Windows tools save "Unicode" text, Shift_JIS as Japanese
//! shogi software writes KIF, and otherwise line by line, each line that is not text
//! reported by its number and skipped.

/// An input file's bytes as text: UTF-8, UTF-16 (by its byte-order mark, or by the zero
/// bytes of ASCII text in it, as Windows tools save "Unicode" text), or Shift_JIS as
/// Japanese shogi software writes KIF (a whole file that is valid Shift_JIS and not UTF-8).
/// Otherwise each line that is not UTF-8 is left empty, with an error naming the file and
/// line, and the others are read.
pub fn decode_text(bytes: &[u8], file: &str) -> (String, Vec<String>) {
    // UTF-16 first: its ASCII is also valid UTF-8, with a zero byte after each letter.
    if let Some((encoding, body)) = utf16(bytes) {
        return match encoding.decode_without_bom_handling_and_without_replacement(body) {
            Some(text) => {
                log::info!("{file}: read as {} (not UTF-8)", encoding.name());
                (text.into_owned(), Vec::new())
            }
            None => (
                String::new(),
                vec![format!(
                    "{file}: looks like {} but is not valid {0}; nothing read (save the file as UTF-8)",
                    encoding.name()
                )],
            ),
        };
    }
    if let Ok(text) = std::str::from_utf8(bytes) {
        return (text.to_string(), Vec::new());
    }
    if let Some(text) =
        encoding_rs::SHIFT_JIS.decode_without_bom_handling_and_without_replacement(bytes)
    {
        log::info!("{file}: read as Shift_JIS (not UTF-8)");
        return (text.into_owned(), Vec::new());
    }
    let mut errors = Vec::new();
    let lines: Vec<&str> = bytes
        .split(|&b| b == b'\n')
        .enumerate()
        .map(|(n, line)| {
            std::str::from_utf8(line).unwrap_or_else(|_| {
                errors.push(format!(
                    "{file}:{}: neither UTF-8 nor Shift_JIS; line skipped (save the file as UTF-8)",
                    n + 1
                ));
                ""
            })
        })
        .collect();
    (lines.join("\n"), errors)
}

/// The UTF-16 encoding of `bytes` and its text after the byte-order mark, if it is UTF-16:
/// a byte-order mark, or (without one) zero bytes mostly in the odd places (little-endian)
/// or mostly in the even ones (big-endian), as the ASCII of a KIF's move lines has them
/// (text in any other encoding has no zero byte at all).
fn utf16(bytes: &[u8]) -> Option<(&'static encoding_rs::Encoding, &[u8])> {
    match bytes {
        [0xff, 0xfe, rest @ ..] => return Some((encoding_rs::UTF_16LE, rest)),
        [0xfe, 0xff, rest @ ..] => return Some((encoding_rs::UTF_16BE, rest)),
        _ => {}
    }
    let zeros_at = |odd: usize| {
        bytes
            .iter()
            .skip(odd)
            .step_by(2)
            .filter(|&&b| b == 0)
            .count()
    };
    let (even, odd) = (zeros_at(0), zeros_at(1));
    if bytes.len() % 2 != 0 || even + odd == 0 {
        None
    } else if odd > 4 * even {
        Some((encoding_rs::UTF_16LE, bytes))
    } else if even > 4 * odd {
        Some((encoding_rs::UTF_16BE, bytes))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::decode_text as decode;

    #[test]
    fn a_utf16_kif_is_read_as_utf16() {
        // Issue 55, case 12: a UTF-16 KIF gave a warning for every line and never said
        // "UTF-16".
        let kif = include_str!("../../tests/data/analyse/lishogi-server.kif");
        let le: Vec<u8> = kif.encode_utf16().flat_map(u16::to_le_bytes).collect();
        let be: Vec<u8> = kif.encode_utf16().flat_map(u16::to_be_bytes).collect();
        for (bytes, what) in [
            ([&[0xff, 0xfe][..], &le].concat(), "LE with its mark"),
            ([&[0xfe, 0xff][..], &be].concat(), "BE with its mark"),
        ] {
            let (text, errors) = decode(&bytes, "game.kif");
            assert_eq!((text.as_str(), errors.len()), (kif, 0), "{what}");
        }
        // Without a mark: the zero bytes of its ASCII tell, both ways round; ASCII alone
        // (an SFEN list) too, though it is also valid UTF-8.
        assert_eq!(decode(&le, "game.kif"), (kif.to_string(), vec![]));
        assert_eq!(decode(&be, "game.kif"), (kif.to_string(), vec![]));
        let sfens = "startpos moves 7i7h\n";
        let bytes: Vec<u8> = sfens.encode_utf16().flat_map(u16::to_le_bytes).collect();
        assert_eq!(decode(&bytes, "p.txt"), (sfens.to_string(), vec![]));
        assert_eq!(
            decode(sfens.as_bytes(), "p.txt"),
            (sfens.to_string(), vec![])
        );
        // A mark and then bytes that are not UTF-16: one error that says so.
        let (_, errors) = decode(&[0xff, 0xfe, 0x00, 0xd8, 0x41, 0x00], "bad.kif");
        assert_eq!(
            errors,
            ["bad.kif: looks like UTF-16LE but is not valid UTF-16LE; nothing read (save the file as UTF-8)"]
        );
    }
}
