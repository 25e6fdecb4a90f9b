//! Squares on a 16 x 16 padded grid, which holds 9x9, 12x12 and 15x15 boards alike.
//!
//! Index = `rank * 16 + file`, where `file` counts from sente's **left** (x = 0 is the
//! highest-numbered USI file) and `rank` from the top (y = 0 is USI rank `a`, gote's back
//! rank). Sente moves towards smaller ranks. The text form (USI `7g`, XBoard `f3`) is a
//! matter of the board size and lives in `position::notation`.

/// Width of the padded grid: a square's rank is `index / GRID` and its file `index % GRID`.
pub const GRID: usize = 16;

/// A square on the padded 16 x 16 grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(pub u8);

impl Square {
    /// The square at column `x` (from sente's left) and row `y` (from the top).
    #[inline]
    pub const fn new(x: usize, y: usize) -> Square {
        Square((y * GRID + x) as u8)
    }

    /// Column from sente's left, 0-based.
    #[inline]
    pub const fn x(self) -> usize {
        self.0 as usize % GRID
    }

    /// Row from the top (gote's back rank), 0-based.
    #[inline]
    pub const fn y(self) -> usize {
        self.0 as usize / GRID
    }

    /// Index into 256-entry per-square tables.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// King steps to the nearest edge of a board of `files` x `ranks` (0 on the edge).
    #[inline]
    pub fn edge_distance(self, files: usize, ranks: usize) -> usize {
        let dx = self.x().min(files - 1 - self.x());
        let dy = self.y().min(ranks - 1 - self.y());
        dx.min(dy)
    }

    /// Whether the two squares share a rank, a file or a diagonal (a slide could pass from
    /// one to the other).
    #[inline]
    pub fn is_aligned_with(self, other: Square) -> bool {
        let (dx, dy) = (self.x().abs_diff(other.x()), self.y().abs_diff(other.y()));
        dx == 0 || dy == 0 || dx == dy
    }

    /// Chebyshev (king-step) distance between two squares.
    #[inline]
    pub fn distance(self, other: Square) -> usize {
        let dx = self.x().abs_diff(other.x());
        let dy = self.y().abs_diff(other.y());
        dx.max(dy)
    }
}
