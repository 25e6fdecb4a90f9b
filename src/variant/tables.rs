//! Lookup tables compiled once per variant from its [`VariantSpec`]: per-square leap
//! targets and slide directions for every (kind, colour), rays, neighbours, zones, and the
//! reverse tables that answer "which pieces could attack this square".
//!
//! Directions in these tables are **absolute** (the order of [`SENTE_DELTAS`]): a gote
//! piece's relative direction `d` is absolute direction `(d + 4) % 8`.

use super::movement::{Ray, SENTE_DELTAS};
use super::{Kind, KindSpec, VariantSpec, MAX_KINDS};
use crate::core::square::GRID;
use crate::core::{Bitboard, Color, Square};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// Slide range meaning "unlimited".
pub const UNLIMITED: u8 = u8::MAX;

/// A list of squares per board square, stored flat.
#[derive(Clone, Debug, Default)]
struct SquareLists {
    start: Vec<u32>,
    items: Vec<Square>,
}

impl SquareLists {
    fn build(mut f: impl FnMut(Square) -> Vec<Square>) -> SquareLists {
        let mut lists = SquareLists {
            start: Vec::with_capacity(257),
            items: Vec::new(),
        };
        for i in 0..256 {
            lists.start.push(lists.items.len() as u32);
            lists.items.extend(f(Square(i as u8)));
        }
        lists.start.push(lists.items.len() as u32);
        lists
    }

    #[inline]
    fn get(&self, sq: Square) -> &[Square] {
        &self.items[self.start[sq.index()] as usize..self.start[sq.index() + 1] as usize]
    }
}

/// How one kind of one colour moves, compiled.
#[derive(Clone, Debug)]
pub struct PieceTable {
    leaps: SquareLists,
    /// Sliding directions (absolute) with their range.
    pub slides: Vec<(u8, u8)>,
    /// Absolute directions with lion power (falcon, eagle).
    pub lion_dirs: Vec<u8>,
    /// The lion's full double-move area.
    pub lion_area: bool,
}

impl PieceTable {
    /// Squares the piece reaches from `sq` whatever stands between (steps and jumps).
    #[inline]
    pub fn leaps(&self, sq: Square) -> &[Square] {
        self.leaps.get(sq)
    }
}

/// All lookup tables of a variant.
pub struct Tables {
    /// The squares of the board.
    pub on_board: Bitboard,
    /// Promotion zone per colour.
    pub zone: [Bitboard; 2],
    /// Each colour's last rank (the farthest).
    pub last_rank: [Bitboard; 2],
    /// Per kind and colour: squares where promotion is forced.
    pub forced: Vec<[Bitboard; 2]>,
    /// `[direction][square]`: how many squares lie from the square to the edge.
    ray_length: [[u8; 256]; 8],
    /// `[direction][square]`: the squares of [`Tables::ray`], as a set (for
    /// [`Tables::nearest_on_ray`]).
    ray_squares: Box<[[Bitboard; 256]; 8]>,
    neighbors: SquareLists,
    /// Per kind, per colour.
    pub pieces: Vec<[PieceTable; 2]>,
    leap_attackers: [Vec<Vec<(Square, u64)>>; 2],
    /// `[colour][target]`: the squares of `leap_attackers`, as a set.
    leap_attack_squares: [[Bitboard; 256]; 2],
    /// `[colour][absolute direction][kind]`: how far that kind slides along the direction.
    pub slide_range: [[[u8; MAX_KINDS]; 8]; 2],
    /// See [`Tables::attack_origins`]; made on first use (the mate solver's).
    attack_origins: OnceLock<Vec<Bitboard>>,
}

fn absolute(dir: usize, color: Color) -> usize {
    match color {
        Color::Sente => dir,
        Color::Gote => (dir + 4) % 8,
    }
}

/// The board's shape, for building the tables: which (file, rank) pairs are on it.
struct Geometry {
    files: i32,
    ranks: i32,
    on_board: Bitboard,
}

impl Geometry {
    fn new(spec: &VariantSpec) -> Geometry {
        let (files, ranks) = (spec.files as i32, spec.ranks as i32);
        let on_board = (0..ranks)
            .flat_map(|y| (0..files).map(move |x| Square::new(x as usize, y as usize)))
            .collect();
        Geometry {
            files,
            ranks,
            on_board,
        }
    }

    /// Whether (x, y) is on the board.
    fn on(&self, x: i32, y: i32) -> bool {
        x >= 0 && y >= 0 && x < self.files && y < self.ranks
    }

    /// The squares of ranks `from..to`.
    fn rows(&self, from: i32, to: i32) -> Bitboard {
        self.on_board
            .iter()
            .filter(|s| (from..to).contains(&(s.y() as i32)))
            .collect()
    }

    /// For every square, the squares at `offsets` from it that are on the board.
    fn at_offsets(&self, offsets: &[(i32, i32)]) -> SquareLists {
        SquareLists::build(|s| {
            if !self.on_board.contains(s) {
                return Vec::new();
            }
            offsets
                .iter()
                .map(|&(dx, dy)| (s.x() as i32 + dx, s.y() as i32 + dy))
                .filter(|&(x, y)| self.on(x, y))
                .map(|(x, y)| Square::new(x as usize, y as usize))
                .collect()
        })
    }

    /// For each direction and square: how many squares the ray runs on the board, and
    /// which.
    #[allow(clippy::type_complexity)]
    fn rays(&self) -> ([[u8; 256]; 8], Box<[[Bitboard; 256]; 8]>) {
        let mut ray_length = [[0u8; 256]; 8];
        let mut ray_squares = Box::new([[Bitboard::EMPTY; 256]; 8]);
        for (dir, lengths) in ray_length.iter_mut().enumerate() {
            let (dx, dy) = SENTE_DELTAS[dir];
            for s in self.on_board {
                let (mut x, mut y) = (s.x() as i32 + dx, s.y() as i32 + dy);
                while self.on(x, y) {
                    lengths[s.index()] += 1;
                    ray_squares[dir][s.index()].insert(Square::new(x as usize, y as usize));
                    x += dx;
                    y += dy;
                }
            }
        }
        (ray_length, ray_squares)
    }
}

/// The move table of one kind for one colour: its leaps (every step, jump, leap and lion
/// square as an offset), its slides with their ranges (absolute directions), and its lion
/// directions.
fn piece_table(kind: &KindSpec, color: Color, geometry: &Geometry) -> PieceTable {
    let flip = if color == Color::Sente { 1 } else { -1 };
    // Leap offsets in absolute (dx, dy).
    let mut offsets: Vec<(i32, i32)> = Vec::new();
    let mut slides = Vec::new();
    let mut lion_dirs = Vec::new();
    for (d, ray) in kind.movement.rays.iter().enumerate() {
        let (dx, dy) = SENTE_DELTAS[d];
        let (dx, dy) = (dx * flip, dy * flip);
        let abs = absolute(d, color) as u8;
        match *ray {
            Ray::None => {}
            Ray::Step(1) => offsets.push((dx, dy)),
            Ray::Step(n) => slides.push((abs, n)),
            Ray::Slide => slides.push((abs, UNLIMITED)),
            Ray::Jump => offsets.push((2 * dx, 2 * dy)),
            Ray::LionPower => {
                offsets.push((dx, dy));
                offsets.push((2 * dx, 2 * dy));
                lion_dirs.push(abs);
            }
        }
    }
    for &(dx, dy) in kind.movement.leaps {
        offsets.push((dx as i32 * flip, dy as i32 * flip));
    }
    if kind.movement.lion_area {
        for dy in -2..=2 {
            for dx in -2..=2 {
                if (dx, dy) != (0, 0) {
                    offsets.push((dx, dy));
                }
            }
        }
    }
    offsets.sort();
    offsets.dedup();
    PieceTable {
        leaps: geometry.at_offsets(&offsets),
        slides,
        lion_dirs,
        lion_area: kind.movement.lion_area,
    }
}

/// Reverse leap table: for each colour and target square, the squares a leaper could
/// attack it from, with the kinds that can (a bit per kind).
fn leap_attackers(pieces: &[[PieceTable; 2]], on_board: Bitboard) -> [Vec<Vec<(Square, u64)>>; 2] {
    Color::ALL.map(|color| {
        let mut per_target: Vec<BTreeMap<Square, u64>> = vec![BTreeMap::new(); 256];
        for (kind, table) in pieces.iter().enumerate() {
            for from in on_board {
                for &to in table[color.index()].leaps(from) {
                    *per_target[to.index()].entry(from).or_insert(0) |= 1u64 << kind;
                }
            }
        }
        per_target
            .into_iter()
            .map(|m| m.into_iter().collect())
            .collect()
    })
}

impl Tables {
    /// Compiles the tables of `spec`.
    pub fn build(spec: &VariantSpec) -> Tables {
        let geometry = Geometry::new(spec);
        let (ranks, on_board) = (geometry.ranks, geometry.on_board);
        let depth = spec.zone_depth as i32;
        let zone = [geometry.rows(0, depth), geometry.rows(ranks - depth, ranks)];
        let last_rank = [geometry.rows(0, 1), geometry.rows(ranks - 1, ranks)];
        let forced = spec
            .kinds
            .iter()
            .map(|k| {
                let n = k.forced_promotion_ranks as i32;
                [geometry.rows(0, n), geometry.rows(ranks - n, ranks)]
            })
            .collect();
        let (ray_length, ray_squares) = geometry.rays();
        let neighbors = geometry.at_offsets(&SENTE_DELTAS);
        let pieces: Vec<[PieceTable; 2]> = spec
            .kinds
            .iter()
            .map(|k| Color::ALL.map(|color| piece_table(k, color, &geometry)))
            .collect();
        let mut slide_range = [[[0u8; MAX_KINDS]; 8]; 2];
        for (kind, tables) in pieces.iter().enumerate() {
            for (color, table) in tables.iter().enumerate() {
                for &(abs, range) in &table.slides {
                    slide_range[color][abs as usize][kind] = range;
                }
            }
        }
        let leap_attackers = leap_attackers(&pieces, on_board);
        let mut leap_attack_squares = [[Bitboard::EMPTY; 256]; 2];
        for (color, per_target) in leap_attack_squares.iter_mut().enumerate() {
            for (target, squares) in per_target.iter_mut().enumerate() {
                *squares = leap_attackers[color][target]
                    .iter()
                    .map(|&(s, _)| s)
                    .collect();
            }
        }
        Tables {
            on_board,
            zone,
            last_rank,
            forced,
            ray_length,
            ray_squares,
            neighbors,
            pieces,
            leap_attackers,
            leap_attack_squares,
            slide_range,
            attack_origins: OnceLock::new(),
        }
    }

    /// The squares from which a `color` piece of `kind` could capture on `target` on a
    /// board with nothing in its way: its leaps, and its slides within range, walked
    /// backwards. The mate solver asks it for every attacker's move that it may leave out,
    /// so it is a table (made once, in milliseconds), not a computation.
    #[inline]
    pub fn attack_origins(&self, kind: Kind, color: Color, target: Square) -> Bitboard {
        let table = self
            .attack_origins
            .get_or_init(|| self.compute_attack_origins());
        table[(kind as usize * 2 + color.index()) * 256 + target.index()]
    }

    fn compute_attack_origins(&self) -> Vec<Bitboard> {
        let mut table = vec![Bitboard::EMPTY; self.pieces.len() * 2 * 256];
        for (kind, per_color) in self.pieces.iter().enumerate() {
            for color in Color::ALL {
                let piece = &per_color[color.index()];
                let origins = &mut table[(kind * 2 + color.index()) * 256..][..256];
                for from in self.on_board {
                    for &to in piece.leaps(from) {
                        origins[to.index()].insert(from);
                    }
                    for &(dir, range) in &piece.slides {
                        for to in self.slide(dir as usize, from, range) {
                            origins[to.index()].insert(from);
                        }
                    }
                }
            }
        }
        table
    }

    /// The squares from `sq` along absolute direction `dir` to the edge, nearest first.
    #[inline]
    pub fn ray(&self, dir: usize, sq: Square) -> RaySquares {
        self.slide(dir, sq, UNLIMITED)
    }

    /// The square of `set` nearest to `sq` along [`Tables::ray`] (`dir`, `sq`), if any: the
    /// first piece a slide meets when `set` is the occupied squares. One set operation and
    /// a bit scan instead of a walk (the attack tests ask it along every line at every node
    /// of the mate solver).
    #[inline]
    pub fn nearest_on_ray(&self, dir: usize, sq: Square, set: Bitboard) -> Option<Square> {
        let on_ray = self.ray_squares[dir][sq.index()] & set;
        // Along a direction whose index step is positive the nearest square is the lowest.
        if (ray_step(dir) as i8) > 0 {
            on_ray.first()
        } else {
            on_ray.last()
        }
    }

    /// The first `range` squares of [`Tables::ray`]: where a piece sliding at most `range`
    /// squares could go on an empty board.
    #[inline]
    pub fn slide(&self, dir: usize, sq: Square, range: u8) -> RaySquares {
        let step = ray_step(dir);
        RaySquares {
            next: sq.0.wrapping_add(step),
            step,
            left: self.ray_length[dir][sq.index()].min(range),
        }
    }

    /// The on-board squares one king step from `sq`.
    #[inline]
    pub fn neighbors(&self, sq: Square) -> &[Square] {
        self.neighbors.get(sq)
    }

    /// The compiled movement of `kind` for `color`.
    #[inline]
    pub fn piece(&self, kind: Kind, color: Color) -> &PieceTable {
        &self.pieces[kind as usize][color.index()]
    }

    /// The squares from which some `color` piece could leap to `target`: where
    /// [`Tables::leap_attackers`] looks (a test against the occupied squares skips the list
    /// when no such piece stands there, as is usual).
    #[inline]
    pub fn leap_attack_squares(&self, color: Color, target: Square) -> Bitboard {
        self.leap_attack_squares[color.index()][target.index()]
    }

    /// `(square, kinds)` pairs: a `color` piece of one of `kinds` on `square` leaps to `target`.
    #[inline]
    pub fn leap_attackers(&self, color: Color, target: Square) -> &[(Square, u64)] {
        &self.leap_attackers[color.index()][target.index()]
    }
}

/// The squares along one direction from a square to the edge, nearest first: what
/// [`Tables::ray`] returns. It steps the square index instead of reading a stored list
/// (the slide walks of move generation, attack tests and evaluation run at every node).
#[derive(Clone, Debug)]
pub struct RaySquares {
    next: u8,
    step: u8,
    left: u8,
}

impl Iterator for RaySquares {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let sq = Square(self.next);
        self.next = self.next.wrapping_add(self.step);
        Some(sq)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left as usize, Some(self.left as usize))
    }
}

impl ExactSizeIterator for RaySquares {}

/// The change of a square's index one step along absolute direction `dir`, as a byte to
/// add with wrapping: on the padded grid it is the same from every square, and a walk
/// stays on the board by taking at most the ray's length of steps.
#[inline]
const fn ray_step(dir: usize) -> u8 {
    let (dx, dy) = SENTE_DELTAS[dir];
    (dy * GRID as i32 + dx) as u8
}

/// The absolute direction that leads from `from` to `to` along a rank, a file or a diagonal
/// (`None` when they are not so aligned, or are one square).
#[inline]
pub fn direction_between(from: Square, to: Square) -> Option<usize> {
    let dx = to.x() as i32 - from.x() as i32;
    let dy = to.y() as i32 - from.y() as i32;
    if (dx, dy) == (0, 0) || (dx != 0 && dy != 0 && dx.abs() != dy.abs()) {
        return None;
    }
    let unit = (dx.signum(), dy.signum());
    SENTE_DELTAS.iter().position(|&delta| delta == unit)
}

/// The opposite absolute direction.
#[inline]
pub const fn opposite_dir(dir: usize) -> usize {
    (dir + 4) % 8
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;

    /// A ray walked by index steps must be the squares found by coordinates, to the edge.
    #[test]
    fn rays_by_index_step_are_the_rays_by_coordinates() {
        for variant in Variant::all() {
            let (files, ranks) = (variant.spec.files as i32, variant.spec.ranks as i32);
            let tables = &variant.tables;
            for from in tables.on_board {
                for (dir, &(dx, dy)) in SENTE_DELTAS.iter().enumerate() {
                    let mut expected = Vec::new();
                    let (mut x, mut y) = (from.x() as i32 + dx, from.y() as i32 + dy);
                    while x >= 0 && y >= 0 && x < files && y < ranks {
                        expected.push(Square::new(x as usize, y as usize));
                        x += dx;
                        y += dy;
                    }
                    assert_eq!(tables.ray(dir, from).collect::<Vec<_>>(), expected);
                    let two: Vec<Square> = expected.iter().copied().take(2).collect();
                    assert_eq!(tables.slide(dir, from, 2).collect::<Vec<_>>(), two);
                }
            }
        }
    }

    /// The direction between two squares is the ray from the first that holds the second,
    /// and none when no ray does.
    #[test]
    fn the_direction_between_two_squares_is_the_ray_that_joins_them() {
        let tables = &Variant::chu().tables;
        let mut aligned = 0;
        for from in tables.on_board {
            for to in tables.on_board {
                let on_ray = (0..8).find(|&dir| tables.ray(dir, from).any(|sq| sq == to));
                assert_eq!(direction_between(from, to), on_ray, "{from:?} {to:?}");
                aligned += usize::from(on_ray.is_some());
            }
        }
        assert!(aligned > 3_000, "{aligned}");
    }

    /// The nearest square of a set along a ray, found by a bit scan, is the first square of
    /// the set met by walking the ray, for sets that hold every third, fifth or seventh
    /// square (and for the empty set: none).
    #[test]
    fn the_nearest_square_on_a_ray_is_the_first_met_walking_it() {
        let mut found = 0;
        for variant in Variant::all() {
            let tables = &variant.tables;
            for every in [3, 5, 7] {
                for offset in 0..every {
                    let set: Bitboard = tables
                        .on_board
                        .iter()
                        .filter(|sq| sq.index() % every == offset)
                        .collect();
                    for from in tables.on_board {
                        for dir in 0..8 {
                            let walked = tables.ray(dir, from).find(|&sq| set.contains(sq));
                            assert_eq!(tables.nearest_on_ray(dir, from, set), walked);
                            assert_eq!(tables.nearest_on_ray(dir, from, Bitboard::EMPTY), None);
                            found += usize::from(walked.is_some());
                        }
                    }
                }
            }
        }
        assert!(found > 10_000, "{found}");
    }
}
