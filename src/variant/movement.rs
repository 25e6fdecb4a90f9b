//! How a piece kind moves, written per direction as data (HaChu's per-ray idea).
//!
//! Directions are relative to the mover: index 0 is forward, then clockwise as the mover
//! sees the board: forward-right, right, back-right, back, back-left, left, forward-left.
//! For gote the table compiler rotates them by 180 degrees.

/// What a piece does along one of its eight directions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ray {
    /// Nothing.
    None,
    /// Slides at most `n` squares (`Step(1)` is a plain step).
    Step(u8),
    /// Slides any number of empty squares, then may capture.
    Slide,
    /// Leaps to the second square only, over whatever stands on the first (kirin, phoenix).
    Jump,
    /// Lion power along this line: step, jump to the second square, or a double move
    /// through the first square (to the second, or back: igui / jitto). Falcon, eagle.
    LionPower,
}

/// Directions relative to the mover, in table order.
pub mod dir {
    /// Forward.
    pub const F: usize = 0;
    /// Forward-right.
    pub const FR: usize = 1;
    /// Right.
    pub const R: usize = 2;
    /// Back-right.
    pub const BR: usize = 3;
    /// Back.
    pub const B: usize = 4;
    /// Back-left.
    pub const BL: usize = 5;
    /// Left.
    pub const L: usize = 6;
    /// Forward-left.
    pub const FL: usize = 7;
}

/// `(dx, dy)` of each relative direction for sente (y grows downwards, sente moves up).
pub const SENTE_DELTAS: [(i32, i32); 8] = [
    (0, -1),
    (1, -1),
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
];

/// The complete movement of a piece kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Movement {
    /// What the piece does along each relative direction.
    pub rays: [Ray; 8],
    /// Extra leaps `(dx, dy)` for sente (forward is `dy < 0`), e.g. the knight's.
    pub leaps: &'static [(i8, i8)],
    /// The lion's area: every square within distance two, and double moves of two king steps.
    pub lion_area: bool,
}

impl Movement {
    /// A movement built from rays only.
    pub const fn rays(rays: [Ray; 8]) -> Movement {
        Movement {
            rays,
            leaps: &[],
            lion_area: false,
        }
    }

    /// The lion.
    pub const fn lion() -> Movement {
        Movement {
            rays: [Ray::None; 8],
            leaps: &[],
            lion_area: true,
        }
    }

    /// Whether every move of this piece goes forward, so that on the last rank it is dead
    /// (pawn, lance, knight).
    pub fn only_forward(&self) -> bool {
        if self.lion_area {
            return false;
        }
        let rays_forward = self
            .rays
            .iter()
            .enumerate()
            .all(|(d, r)| *r == Ray::None || SENTE_DELTAS[d].1 < 0);
        rays_forward && self.leaps.iter().all(|&(_, dy)| dy < 0)
    }
}

/// Shorthands used by the variant data files.
pub mod short {
    use super::Ray;
    /// No move.
    pub const N: Ray = Ray::None;
    /// One step.
    pub const S: Ray = Ray::Step(1);
    /// Slide.
    pub const X: Ray = Ray::Slide;
    /// Jump to the second square.
    pub const J: Ray = Ray::Jump;
    /// Lion power.
    pub const L: Ray = Ray::LionPower;
}
