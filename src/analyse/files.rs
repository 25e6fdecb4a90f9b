//! The files an analysis makes: their names (a game's id made safe), and made new, never
//! over a user's file (a free name, numbered when taken).

use super::error::{file_error, AnalyseError};
use std::io::Write;

/// FNV-1a: stable across Rust versions and machines, unlike the standard hasher.
pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The file name of a game's KIF: the id where it is a safe name; otherwise the id with
/// unsafe characters replaced and a hash of the whole id added, so that ids such as `a/b`
/// and `a?b` get names of their own (protocol-docs/analyse.md). A long id is cut to
/// [`FILE_STEM_MAX_BYTES`] before its hash, so that every name fits a file system's 255 bytes.
pub fn kif_file_name(id: &str) -> String {
    let safe: String = id
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' || c == '~' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if safe == id && !id.is_empty() && id.len() <= FILE_STEM_MAX_BYTES {
        return format!("{id}.kif");
    }
    let mut cut = FILE_STEM_MAX_BYTES.min(safe.len());
    while !safe.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{}-{:08x}.kif", &safe[..cut], fnv1a(id.as_bytes()) as u32)
}

/// The longest file name stem taken from an id, in bytes: with the hash, a `-N` for a
/// taken name and the extension, a name stays far below the 255 bytes file systems allow.
pub(crate) const FILE_STEM_MAX_BYTES: usize = 160;

/// Writes a game's file `name` (`NAME.kif`, `NAME.html`) in `dir`, never over another
/// file: each name is created new (so two workers, or a symbolic link left in the folder,
/// cannot make it write over or through anything). A name that is taken goes to the next,
/// `NAME-2.kif`, `NAME-3.kif`, ...; a taken name that holds exactly `content` already is
/// this file, written by an earlier run (`--resume`), and is left as it is. Returns the
/// file's path.
pub(crate) fn write_new_file(
    dir: &std::path::Path,
    name: &str,
    content: &str,
) -> Result<std::path::PathBuf, AnalyseError> {
    std::fs::create_dir_all(dir).map_err(file_error(dir))?;
    let (stem, extension) = name.rsplit_once('.').unwrap_or((name, ""));
    let holds_content = |path: &std::path::Path| {
        let is_plain_file = std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file());
        is_plain_file && std::fs::read(path).is_ok_and(|old| old == content.as_bytes())
    };
    match create_numbered(dir, stem, extension, holds_content) {
        Ok(NewFile::Created(path, mut file)) => {
            file.write_all(content.as_bytes())
                .map_err(file_error(&path))?;
            Ok(path)
        }
        Ok(NewFile::Ours(path)) => Ok(path),
        Err((path, e)) => Err(file_error(&path)(e)),
    }
}

/// A file [`create_numbered`] found a name for.
pub enum NewFile {
    /// Made new and empty, open for writing.
    Created(std::path::PathBuf, std::fs::File),
    /// A taken name that the caller's test claimed as its own file.
    Ours(std::path::PathBuf),
}

/// Makes a new file in `dir` named `STEM.EXTENSION`, or where that is taken `STEM-2.EXTENSION`,
/// `STEM-3.EXTENSION`, ...: each name is created new (never an existing file opened, never
/// through a symbolic link, never a name another process has just made). A taken name for
/// which `is_ours` says yes is returned as it is. The one home of "a free file name"; the
/// error names the path it happened at.
pub fn create_numbered(
    dir: &std::path::Path,
    stem: &str,
    extension: &str,
    is_ours: impl Fn(&std::path::Path) -> bool,
) -> Result<NewFile, (std::path::PathBuf, std::io::Error)> {
    let dot = if extension.is_empty() { "" } else { "." };
    let mut n = 1u64;
    loop {
        let path = match n {
            1 => dir.join(format!("{stem}{dot}{extension}")),
            _ => dir.join(format!("{stem}-{n}{dot}{extension}")),
        };
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
        {
            Ok(file) => return Ok(NewFile::Created(path, file)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                if is_ours(&path) {
                    return Ok(NewFile::Ours(path));
                }
            }
            Err(e) => return Err((path, e)),
        }
        n += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_free_name_is_made_new_and_numbered_and_a_claimed_one_kept() {
        let dir = std::env::temp_dir().join(format!("shishi-numbered-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let made =
            |stem: &str, ext: &str, ours: bool| match create_numbered(&dir, stem, ext, |_| ours) {
                Ok(NewFile::Created(path, _)) => {
                    format!("new {}", path.file_name().unwrap().to_string_lossy())
                }
                Ok(NewFile::Ours(path)) => {
                    format!("ours {}", path.file_name().unwrap().to_string_lossy())
                }
                Err((path, e)) => format!("error {}: {e}", path.display()),
            };
        assert_eq!(made("game", "kif", false), "new game.kif");
        assert_eq!(made("game", "kif", false), "new game-2.kif");
        assert_eq!(made("game", "kif", true), "ours game.kif");
        assert_eq!(made("notes", "", false), "new notes");
        assert_eq!(made("notes", "", false), "new notes-2");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn file_names_are_those_analyse_md_shows() {
        // protocol-docs/analyse.md's example (issue 55, case 12: it showed another hash).
        assert_eq!(kif_file_name("a/b"), "a_b-0468cf61.kif");
        assert_eq!(kif_file_name("game-1"), "game-1.kif");
    }
}
