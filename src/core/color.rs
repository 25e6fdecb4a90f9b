//! The two sides. Sente (Black, uppercase in SFEN) moves first and plays up the board.

/// A side. `Sente` moves first and plays towards rank `a` (the top of the board).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The first player (Black, uppercase SFEN letters).
    Sente = 0,
    /// The second player (White, lowercase SFEN letters).
    Gote = 1,
}

impl Color {
    /// Both colours, sente first.
    pub const ALL: [Color; 2] = [Color::Sente, Color::Gote];

    /// The other side.
    #[inline]
    pub const fn flip(self) -> Color {
        match self {
            Color::Sente => Color::Gote,
            Color::Gote => Color::Sente,
        }
    }

    /// ☗ or ☖, the side's mark before a move in KIF notation.
    pub const fn mark(self) -> &'static str {
        match self {
            Color::Sente => "☗",
            Color::Gote => "☖",
        }
    }

    /// `sente` or `gote`, as protocol and log text names the side.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Sente => "sente",
            Color::Gote => "gote",
        }
    }

    /// 0 for sente, 1 for gote: for indexing per-colour arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }
}
