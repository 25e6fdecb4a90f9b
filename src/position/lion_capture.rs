//! The lion-trading rules of chu shogi, as one judgement of a capture of a lion: which
//! such captures are allowed. Move generation, notation and SEE all ask it here.

use crate::core::Square;

/// What the lion-trading rules say of a capture of a lion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LionCapture {
    /// The capture is allowed.
    Allowed,
    /// A lion may not take a protected lion two squares away (unless its first step took a
    /// piece other than a pawn or go-between).
    ProtectedFromAfar,
    /// After a lion was taken by a non-lion, non-lions may take a lion only on that square
    /// (the counter-strike rule).
    CounterStrike,
}

impl LionCapture {
    /// The rule, in one place for move generation, notation and SEE. `mover_is_lion`: the
    /// capturing piece is a lion; `distance`: from where it started to the lion taken;
    /// `valuable_first_step`: a double move's first step took more than a pawn or
    /// go-between; `protected`: whether the lion taken is defended (asked only when it
    /// matters); `counter_strike`: the square where a non-lion may still take a lion, if
    /// the rule is in force; `to`: the lion's square.
    pub fn judge(
        mover_is_lion: bool,
        distance: usize,
        valuable_first_step: bool,
        protected: impl FnOnce() -> bool,
        counter_strike: Option<Square>,
        to: Square,
    ) -> LionCapture {
        if mover_is_lion {
            if distance <= 1 || valuable_first_step || !protected() {
                LionCapture::Allowed
            } else {
                LionCapture::ProtectedFromAfar
            }
        } else if counter_strike.is_some_and(|sq| sq != to) {
            LionCapture::CounterStrike
        } else {
            LionCapture::Allowed
        }
    }
}
