//! Variant-independent building blocks: squares, colours, bitboards and moves.
//!
//! Nothing here knows which game is played; board size and piece kinds live in
//! [`crate::variant`].

pub mod bitboard;
pub mod color;
pub mod moves;
pub mod prefetch;
pub mod rng;
pub mod score;
pub mod square;

pub use bitboard::Bitboard;
pub use color::Color;
pub use moves::Move;
pub use square::Square;
