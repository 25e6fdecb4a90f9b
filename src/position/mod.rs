//! A game position: mailbox, bitboards, side to move, counter-strike square, hash key and
//! the undo stack of the moves that led here.
//!
//! Invariants (checked by `debug_validate` in tests): `board`, `occupied` and `by_kind`
//! describe the same pieces; `key` equals [`Position::compute_key`]; `history` holds one
//! [`Undo`] per move played since the position was set up, so the game record up to here
//! (for repetition) is always available; sums kept for a client (`square_sums`) equal
//! the sums from scratch.

pub mod attacks;
pub mod lion_capture;
pub mod make;
pub mod movegen;
pub mod notation;
pub mod random;
pub mod rules;
pub mod sfen;
pub mod square_sums;
pub mod zobrist;

use crate::core::{Bitboard, Color, Move, Square};
use crate::variant::{Kind, Variant, MAX_KINDS};
pub use lion_capture::LionCapture;
pub use movegen::{Filter, GenMode};
pub use notation::MoveError;
pub use rules::{Outcome, OutcomeReason};
pub use sfen::SfenError;
pub use square_sums::PieceSquareTable;

/// What stands on a square: nothing, or a piece of one colour and kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Piece(u8);

impl Piece {
    /// The empty square.
    pub const EMPTY: Piece = Piece(0);

    /// A piece of `color` and `kind`.
    #[inline]
    pub const fn new(color: Color, kind: Kind) -> Piece {
        Piece((kind + 1) | (color as u8) << 7)
    }

    /// Whether the square is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The kind (meaningless on an empty square).
    #[inline]
    pub const fn kind(self) -> Kind {
        (self.0 & 0x7f).wrapping_sub(1)
    }

    /// The colour (meaningless on an empty square).
    #[inline]
    pub const fn color(self) -> Color {
        if self.0 & 0x80 != 0 {
            Color::Gote
        } else {
            Color::Sente
        }
    }

    /// Whether this is a piece of `color`.
    #[inline]
    pub const fn is(self, color: Color) -> bool {
        self.0 != 0 && (self.0 >> 7) == color as u8
    }
}

/// What `make_move` must remember to take a move back.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    /// The move played.
    pub mv: Move,
    /// The piece as it stood on `from` (before any promotion).
    pub moved: Piece,
    /// What stood on `to` (empty for a non-capture; for igui, `to == from` holds nothing).
    pub captured: Piece,
    /// What stood on the mid square of a double move.
    pub captured_mid: Piece,
    /// The counter-strike square before the move.
    pub counter_strike: Option<Square>,
    /// The hash key before the move.
    pub key: u64,
    /// Plies without capture or promotion before the move.
    pub quiet_plies: u32,
}

impl Undo {
    /// Whether the move captured anything.
    pub fn is_capture(&self) -> bool {
        !self.captured.is_empty() || !self.captured_mid.is_empty()
    }
}

/// A position of a game of some [`Variant`].
#[derive(Clone)]
pub struct Position {
    variant: &'static Variant,
    board: [Piece; 256],
    occupied: [Bitboard; 2],
    by_kind: [Bitboard; MAX_KINDS],
    side_to_move: Color,
    counter_strike: Option<Square>,
    key: u64,
    move_number: u64,
    quiet_plies: u32,
    kingless: [bool; 2],
    history: Vec<Undo>,
    /// Sums of a client's table over the pieces (see [`square_sums`]).
    square_sums: square_sums::Tracked,
}

impl Position {
    /// The start position of `variant`.
    pub fn startpos(variant: &'static Variant) -> Position {
        Position::from_sfen(variant, variant.spec.start_sfen)
            .expect("the built-in start SFEN parses")
    }

    /// An empty board, sente to move (used by the SFEN parser).
    fn empty(variant: &'static Variant) -> Position {
        Position {
            variant,
            board: [Piece::EMPTY; 256],
            occupied: [Bitboard::EMPTY; 2],
            by_kind: [Bitboard::EMPTY; MAX_KINDS],
            side_to_move: Color::Sente,
            counter_strike: None,
            key: 0,
            move_number: 1,
            quiet_plies: 0,
            kingless: [false; 2],
            history: Vec::with_capacity(256),
            square_sums: Default::default(),
        }
    }

    /// The variant being played.
    #[inline]
    pub fn variant(&self) -> &'static Variant {
        self.variant
    }

    /// What stands on `sq`.
    #[inline]
    pub fn piece_on(&self, sq: Square) -> Piece {
        self.board[sq.index()]
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side_to_move
    }

    /// The square where a lion was just taken by a non-lion (the counter-strike ban), if any.
    #[inline]
    pub fn counter_strike(&self) -> Option<Square> {
        self.counter_strike
    }

    /// The Zobrist key (pieces, side to move, counter-strike square).
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The squares occupied by `color`.
    #[inline]
    pub fn occupied(&self, color: Color) -> Bitboard {
        self.occupied[color.index()]
    }

    /// The squares occupied by either side.
    #[inline]
    pub fn occupied_all(&self) -> Bitboard {
        self.occupied[0] | self.occupied[1]
    }

    /// The squares holding `kind`, of either colour.
    #[inline]
    pub fn pieces_of_kind(&self, kind: Kind) -> Bitboard {
        self.by_kind[kind as usize]
    }

    /// The squares of `color`'s pieces whose kind is in `mask`.
    pub fn pieces_in(&self, color: Color, mask: u64) -> Bitboard {
        self.pieces_of_kinds(mask) & self.occupied[color.index()]
    }

    /// The squares of the pieces of either colour whose kind is in `mask`.
    pub fn pieces_of_kinds(&self, mask: u64) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        let mut m = mask;
        while m != 0 {
            let k = m.trailing_zeros() as usize;
            out |= self.by_kind[k];
            m &= m - 1;
        }
        out
    }

    /// `color`'s royals (king, crown prince).
    #[inline]
    pub fn royals(&self, color: Color) -> Bitboard {
        self.pieces_in(color, self.variant.royal_mask)
    }

    /// Whether `color` started without a royal (a mating problem): it cannot lose by royal
    /// capture or bare king.
    #[inline]
    pub fn is_kingless(&self, color: Color) -> bool {
        self.kingless[color.index()]
    }

    /// The SFEN move number.
    pub fn move_number(&self) -> u64 {
        self.move_number
    }

    /// Plies since the last capture or promotion.
    pub fn quiet_plies(&self) -> u32 {
        self.quiet_plies
    }

    /// The moves played since the position was set up, oldest first.
    pub fn history(&self) -> &[Undo] {
        &self.history
    }

    /// Forgets the move history (the current position becomes the root of the record).
    pub fn clear_history(&mut self) {
        self.history.clear();
    }

    /// Puts `piece` on the empty square `sq`, keeping bitboards and key in step.
    #[inline]
    fn put(&mut self, sq: Square, piece: Piece) {
        debug_assert!(self.board[sq.index()].is_empty() && !piece.is_empty());
        self.board[sq.index()] = piece;
        self.occupied[piece.color().index()].toggle(sq);
        self.by_kind[piece.kind() as usize].toggle(sq);
        self.key ^= zobrist::piece(piece.color(), piece.kind(), sq);
        self.square_sums.change(piece.color(), piece.kind(), sq, 1);
    }

    /// Removes and returns the piece on `sq` (which must not be empty).
    #[inline]
    fn take(&mut self, sq: Square) -> Piece {
        let piece = self.board[sq.index()];
        debug_assert!(!piece.is_empty());
        self.board[sq.index()] = Piece::EMPTY;
        self.occupied[piece.color().index()].toggle(sq);
        self.by_kind[piece.kind() as usize].toggle(sq);
        self.key ^= zobrist::piece(piece.color(), piece.kind(), sq);
        self.square_sums.change(piece.color(), piece.kind(), sq, -1);
        piece
    }

    /// The key computed from scratch (to check the incremental one).
    pub fn compute_key(&self) -> u64 {
        let mut key = 0;
        for sq in self.occupied[0] | self.occupied[1] {
            let p = self.board[sq.index()];
            key ^= zobrist::piece(p.color(), p.kind(), sq);
        }
        if self.side_to_move == Color::Gote {
            key ^= zobrist::side();
        }
        if let Some(sq) = self.counter_strike {
            key ^= zobrist::counter_strike(sq);
        }
        key
    }

    /// Checks every invariant of the type; panics with a description if one is broken.
    /// For tests and debug builds.
    pub fn debug_validate(&self) {
        let mut occ = [Bitboard::EMPTY; 2];
        let mut kinds = [Bitboard::EMPTY; MAX_KINDS];
        for i in 0..256 {
            let p = self.board[i];
            if !p.is_empty() {
                assert!(
                    self.variant.on_board(Square(i as u8)),
                    "piece off the board at {i}"
                );
                assert!(
                    (p.kind() as usize) < self.variant.kind_count(),
                    "bad kind at {i}"
                );
                occ[p.color().index()].insert(Square(i as u8));
                kinds[p.kind() as usize].insert(Square(i as u8));
            }
        }
        assert_eq!(occ, self.occupied, "occupancy out of step with the board");
        assert_eq!(
            kinds, self.by_kind,
            "kind bitboards out of step with the board"
        );
        assert_eq!(
            self.key,
            self.compute_key(),
            "incremental key differs from the key from scratch"
        );
        self.validate_square_sums();
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "Position({} {})", self.variant.name(), self.to_sfen())
    }
}
