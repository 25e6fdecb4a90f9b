//! Legal move generation in two modes.
//!
//! * [`GenMode::Perft`] lists every move *string path* as lishogi does: a double move
//!   through an empty mid square counts beside the plain step or jump it duplicates, and
//!   every empty neighbour gives its own jitto. Perft counts follow this convention.
//! * [`GenMode::Search`] lists each resulting position once: double moves only when the
//!   first step captures, and a single pass (jitto) per position, since every pass leads to
//!   the same position.
//!
//! Chu is pseudo-legal (moving into check is allowed); the only filters are the lion-trading
//! rules, applied here while generating. Sho forbids leaving a lone royal attacked; that
//! filter makes and unmakes each candidate.

use super::{LionCapture, Piece, Position};
use crate::core::{Bitboard, Move, Square};
use crate::variant::{Kind, PromotionRule, Variant};

/// Which moves to list; see the module docs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GenMode {
    /// Every distinct move string path (lishogi's perft convention).
    Perft,
    /// Every distinct resulting position once.
    Search,
}

/// Which moves of a mode to list: all, only those that capture, or only those that do not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Filter {
    /// Every move.
    All,
    /// Moves that capture at least one piece (on either step).
    Captures,
    /// Moves that capture nothing (including quiet promotions and the pass).
    Quiets,
}

impl Filter {
    #[inline]
    fn captures(self) -> bool {
        self != Filter::Quiets
    }

    #[inline]
    fn quiets(self) -> bool {
        self != Filter::Captures
    }

    /// Whether a move that does (or does not) capture passes the filter.
    #[inline]
    fn allows(self, captures: bool) -> bool {
        if captures {
            self.captures()
        } else {
            self.quiets()
        }
    }
}

/// Where a piece's quiet single moves (steps, leaps and slides that capture nothing) may go:
/// every square for the ordinary generator, a set of squares for a generator that wants only
/// some (the mate solver's checks). Generic, so that the ordinary generator tests nothing.
trait QuietTargets: Copy {
    fn allows(self, to: Square) -> bool;
}

/// Every square.
#[derive(Clone, Copy)]
struct AnySquare;

impl QuietTargets for AnySquare {
    #[inline(always)]
    fn allows(self, _: Square) -> bool {
        true
    }
}

impl QuietTargets for Bitboard {
    #[inline(always)]
    fn allows(self, to: Square) -> bool {
        self.contains(to)
    }
}

impl Position {
    /// Appends the legal moves of the side to move to `out` (after clearing it).
    pub fn legal_moves(&mut self, mode: GenMode, out: &mut Vec<Move>) {
        self.generate(mode, Filter::All, out);
    }

    /// Legal moves of `mode` that pass `filter`, into `out` (cleared first).
    pub fn generate(&mut self, mode: GenMode, filter: Filter, out: &mut Vec<Move>) {
        out.clear();
        let mut pass_listed = false;
        for from in self.occupied[self.side_to_move.index()] {
            self.piece_moves(from, mode, filter, AnySquare, out, &mut pass_listed);
        }
        if self.variant.spec.rules.lone_royal_check {
            self.retain_royal_safe(out);
        }
    }

    /// The legal moves (search mode, into `out`, cleared first) but for the quiet single
    /// moves of each piece that land outside `quiet_targets(from)`: captures, double moves
    /// and the pass are all listed. The moves come in the order [`Position::legal_moves`]
    /// gives them. For the mate solver, whose attacker wants only the moves that may attack
    /// a royal: most quiet moves cannot, and generating them cost a tenth of its time.
    pub fn legal_moves_with_quiet_targets(
        &mut self,
        quiet_targets: impl Fn(&Position, Square) -> Bitboard,
        out: &mut Vec<Move>,
    ) {
        out.clear();
        let mut pass_listed = false;
        for from in self.occupied[self.side_to_move.index()] {
            let targets = quiet_targets(self, from);
            self.piece_moves(
                from,
                GenMode::Search,
                Filter::All,
                targets,
                out,
                &mut pass_listed,
            );
        }
        if self.variant.spec.rules.lone_royal_check {
            self.retain_royal_safe(out);
        }
    }
    /// Whether `mv` is a lion's pass (jitto) here: out to an empty square and back, which
    /// changes nothing on the board (XBoard writes it `@@@@`; the legality test takes any
    /// lion's pass as one move).
    pub fn is_lion_pass(&self, mv: Move) -> bool {
        mv.mid()
            .is_some_and(|mid| mv.to() == mv.from() && self.piece_on(mid).is_empty())
    }

    /// Whether `mv` is a legal move here in search mode (for moves from the hash table or
    /// killer slots, which may come from another position). Generates only the moves of the
    /// piece on `from`, except for a pass, which any lion may make.
    pub fn is_legal(&mut self, mv: Move) -> bool {
        if !self.piece_on(mv.from()).is(self.side_to_move) {
            return false;
        }
        let mut moves = Vec::with_capacity(128);
        if self.is_lion_pass(mv) {
            self.generate(GenMode::Search, Filter::Quiets, &mut moves);
        } else {
            let mut pass_listed = true;
            self.piece_moves(
                mv.from(),
                GenMode::Search,
                Filter::All,
                AnySquare,
                &mut moves,
                &mut pass_listed,
            );
            if self.variant.spec.rules.lone_royal_check {
                self.retain_royal_safe(&mut moves);
            }
        }
        moves.contains(&mv)
    }

    /// Whether the side to move has at least one legal move.
    pub fn has_legal_move(&mut self) -> bool {
        let mut moves = Vec::with_capacity(256);
        self.legal_moves(GenMode::Search, &mut moves);
        !moves.is_empty()
    }

    /// The moves of the piece on `from` before the lone-royal check (perft mode), for
    /// explaining why a move is illegal.
    pub(crate) fn pseudo_piece_moves(
        &self,
        from: Square,
        out: &mut Vec<Move>,
        pass_listed: &mut bool,
    ) {
        self.piece_moves(
            from,
            GenMode::Perft,
            Filter::All,
            AnySquare,
            out,
            pass_listed,
        );
    }

    /// Drops the moves that leave a lone royal attacked (sho's check rule).
    fn retain_royal_safe(&mut self, moves: &mut Vec<Move>) {
        let us = self.side_to_move;
        let royals = self.royals(us);
        if royals.count() != 1 {
            return;
        }
        let royal = royals.first().expect("one royal");
        moves.retain(|&mv| {
            self.make_move(mv);
            let square = if mv.from() == royal { mv.to() } else { royal };
            let safe = !self.is_attacked(square, us.flip());
            self.unmake_move();
            safe
        });
    }

    /// Lion-trading rules for a capture of `target` on `to` by a `kind` piece from `from`.
    /// `transparent` holds the squares vacated on the way (the mover's start square, and
    /// the mid square of a double move) for the protection test; `valuable_first_step` is
    /// true when the first step of a double move took a piece other than a pawn or
    /// go-between.
    #[inline]
    fn capture_allowed(
        &self,
        kind: Kind,
        from: Square,
        to: Square,
        target: Piece,
        transparent: Bitboard,
        valuable_first_step: bool,
    ) -> bool {
        let v = self.variant;
        !Variant::has(v.lion_mask, target.kind())
            || LionCapture::judge(
                Variant::has(v.lion_mask, kind),
                from.distance(to),
                valuable_first_step,
                || self.is_attacked_through(to, target.color(), transparent),
                self.counter_strike,
                to,
            ) == LionCapture::Allowed
    }

    /// Pushes the move from `from` to `to` with the promotion choices the rules give.
    #[inline]
    fn push_promotions(
        &self,
        out: &mut Vec<Move>,
        kind: Kind,
        from: Square,
        to: Square,
        capture: bool,
    ) {
        let v = self.variant;
        let us = self.side_to_move;
        let forced = v.tables.forced[kind as usize][us.index()].contains(to);
        if v.promotion[kind as usize].is_some() {
            let zone = v.tables.zone[us.index()];
            let (zf, zt) = (zone.contains(from), zone.contains(to));
            let can = match v.spec.rules.promotion {
                PromotionRule::EnterOrCaptureInZone => {
                    let enters = !zf && zt;
                    let captures_in_zone = capture && (zf || zt);
                    // Pawns and lances may also promote on reaching the last rank.
                    let reaches_last_rank =
                        v.one_way[kind as usize] && v.tables.last_rank[us.index()].contains(to);
                    enters || captures_in_zone || reaches_last_rank
                }
                PromotionRule::StartOrEndInZone => zf || zt,
            };
            if can {
                out.push(Move::new(from, to, true));
                if !forced {
                    out.push(Move::new(from, to, false));
                }
                return;
            }
        }
        if !forced {
            out.push(Move::new(from, to, false));
        }
    }

    /// The moves of the piece on `from` that obey the piece movements and the lion-trading
    /// rules, its quiet single moves only to `quiet_targets`. `pass_listed` carries "a
    /// pass was already listed" across pieces (search mode).
    #[inline(always)]
    fn piece_moves(
        &self,
        from: Square,
        mode: GenMode,
        filter: Filter,
        quiet_targets: impl QuietTargets,
        out: &mut Vec<Move>,
        pass_listed: &mut bool,
    ) {
        let us = self.side_to_move;
        let tables = &self.variant.tables;
        let kind = self.board[from.index()].kind();
        let table = tables.piece(kind, us);
        let from_bb = Bitboard::from_square(from);
        for &to in table.leaps(from) {
            let target = self.board[to.index()];
            if target.is_empty() {
                if filter.quiets() && quiet_targets.allows(to) {
                    self.push_promotions(out, kind, from, to, false);
                }
            } else if filter.captures()
                && !target.is(us)
                && self.capture_allowed(kind, from, to, target, from_bb, false)
            {
                self.push_promotions(out, kind, from, to, true);
            }
        }
        for &(dir, range) in &table.slides {
            for to in tables.slide(dir as usize, from, range) {
                let target = self.board[to.index()];
                if target.is_empty() {
                    if filter.quiets() && quiet_targets.allows(to) {
                        self.push_promotions(out, kind, from, to, false);
                    }
                    continue;
                }
                if filter.captures()
                    && !target.is(us)
                    && self.capture_allowed(kind, from, to, target, from_bb, false)
                {
                    self.push_promotions(out, kind, from, to, true);
                }
                break;
            }
        }
        if table.lion_area {
            self.lion_double_moves(mode, filter, out, kind, from, pass_listed);
        }
        for &dir in &table.lion_dirs {
            self.lion_line_double_moves(mode, filter, out, kind, from, dir as usize, pass_listed);
        }
    }

    /// Two king steps `from -> mid -> to` of a lion.
    #[allow(clippy::too_many_arguments)]
    fn lion_double_moves(
        &self,
        mode: GenMode,
        filter: Filter,
        out: &mut Vec<Move>,
        kind: Kind,
        from: Square,
        pass_listed: &mut bool,
    ) {
        let us = self.side_to_move;
        let v = self.variant;
        let from_bb = Bitboard::from_square(from);
        for &mid in v.tables.neighbors(from) {
            let first = self.board[mid.index()];
            if first.is(us)
                || (!first.is_empty()
                    && !self.capture_allowed(kind, from, mid, first, from_bb, false))
            {
                continue;
            }
            if first.is_empty() && mode == GenMode::Search {
                // Through an empty square the only new position is the pass.
                if !*pass_listed && filter.quiets() {
                    *pass_listed = true;
                    out.push(Move::double(from, mid, from));
                }
                continue;
            }
            // With a capture on the first step every continuation captures.
            if !first.is_empty() && !filter.captures() {
                continue;
            }
            let valuable = !first.is_empty() && !Variant::has(v.weak_mask, first.kind());
            let mut transparent = from_bb;
            transparent.insert(mid);
            for &to in v.tables.neighbors(mid) {
                // Back on `from` (igui, jitto) the square is empty once the lion has left.
                let target = if to == from {
                    Piece::EMPTY
                } else {
                    self.board[to.index()]
                };
                if target.is(us) {
                    continue;
                }
                let captures = !first.is_empty() || !target.is_empty();
                if !filter.allows(captures) {
                    continue;
                }
                if target.is_empty()
                    || self.capture_allowed(kind, from, to, target, transparent, valuable)
                {
                    out.push(Move::double(from, mid, to));
                }
            }
        }
    }

    /// Double moves along one lion-power line (horned falcon, soaring eagle): through the
    /// first square to the second, or back to the start.
    #[allow(clippy::too_many_arguments)]
    fn lion_line_double_moves(
        &self,
        mode: GenMode,
        filter: Filter,
        out: &mut Vec<Move>,
        kind: Kind,
        from: Square,
        dir: usize,
        pass_listed: &mut bool,
    ) {
        let us = self.side_to_move;
        let mut ray = self.variant.tables.ray(dir, from);
        let Some(mid) = ray.next() else { return };
        let first = self.board[mid.index()];
        let from_bb = Bitboard::from_square(from);
        if first.is(us)
            || (!first.is_empty() && !self.capture_allowed(kind, from, mid, first, from_bb, false))
        {
            return;
        }
        if first.is_empty() {
            // Back to the start through an empty square: the pass.
            if mode == GenMode::Search {
                if !*pass_listed && filter.quiets() {
                    *pass_listed = true;
                    out.push(Move::double(from, mid, from));
                }
                return;
            }
            if filter.quiets() {
                out.push(Move::double(from, mid, from));
            }
        } else if filter.captures() {
            out.push(Move::double(from, mid, from));
        }
        if let Some(to) = ray.next() {
            let target = self.board[to.index()];
            if target.is(us) {
                return;
            }
            let captures = !first.is_empty() || !target.is_empty();
            if !filter.allows(captures) {
                return;
            }
            let mut transparent = from_bb;
            transparent.insert(mid);
            let valuable = !first.is_empty() && !Variant::has(self.variant.weak_mask, first.kind());
            if target.is_empty()
                || self.capture_allowed(kind, from, to, target, transparent, valuable)
            {
                out.push(Move::double(from, mid, to));
            }
        }
    }
}
