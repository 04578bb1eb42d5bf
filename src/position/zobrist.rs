//! Zobrist hashing with Polyglot's key set, so a [`Position::zobrist`] key is the key opening
//! books and other tools use for the same position.
//!
//! A key is the XOR of one key per piece on its square, one per castling right held, one for
//! the file of a capturable en-passant pawn (Polyglot's rule: a pawn of the side to move
//! stands beside the pawn that just double-pushed, pinned or not), and one when White is to
//! move. [`Position::play`] keeps the key up to date with the deltas below; engines that
//! hash inside their own [`crate::walk::Visitor`] can use the same functions.
//!
//! Chess960: Polyglot has no Chess960 keys, so a right has its one key whatever its rook's
//! file, as Polyglot tools and python-chess hash such positions; standard positions, and
//! Chess960 ones whose castling rooks start in the corners, get Polyglot's keys exactly.
//! Two positions that differ only in which rook of one side holds a right share a key, which
//! one game never reaches. The 128-bit keys of the deep-perft tables add a key per rook file
//! and tell them apart.
//!
//! [`Position::zobrist`]: crate::Position::zobrist
//! [`Position::play`]: crate::Position::play

use crate::base::attacks::POLYGLOT_KEYS;
use crate::base::board::Board;
use crate::base::chess_move::{Move, MoveKind};
use crate::base::geometry::en_passant_victim;
use crate::base::types::{Color, Piece, Square};
use crate::position::castling::CastlingRights;

/// Offsets of Polyglot's key groups after the 768 piece-square keys.
const CASTLING_OFFSET: usize = 768;
const EN_PASSANT_OFFSET: usize = 772;
const WHITE_TO_MOVE: usize = 780;

/// The key of `piece` of `color` standing on `square`.
///
/// # Examples
/// ```
/// use constmove::{zobrist, Color, Piece, Square};
/// // Polyglot's first key is a black pawn on a1.
/// let a1: Square = "a1".parse().unwrap();
/// assert_eq!(zobrist::piece_key(Color::Black, Piece::Pawn, a1), 0x9D39_247E_3377_6D41);
/// ```
#[inline(always)]
pub fn piece_key(color: Color, piece: Piece, square: Square) -> u64 {
    // Polyglot orders kinds black pawn, white pawn, black knight, … white king.
    let kind = 2 * piece as usize + (color == Color::White) as usize;
    POLYGLOT_KEYS[64 * kind + square.index()]
}

/// The XOR of the keys of every right in `rights`.
///
/// The XOR of two positions' castling keys is the key of the rights that changed, so
/// `castling_key(CastlingRights::from_bits(before.bits() ^ after.bits()))` is the delta.
///
/// # Examples
/// ```
/// use constmove::{zobrist, CastlingRights};
/// assert_eq!(zobrist::castling_key(CastlingRights::NONE), 0);
/// assert_ne!(zobrist::castling_key(CastlingRights::ALL), 0);
/// ```
#[inline(always)]
pub fn castling_key(rights: CastlingRights) -> u64 {
    CASTLING_KEYS[rights.bits() as usize]
}

/// The key of each of the 16 sets of castling rights. Bits 1, 2, 4, 8 are White king side,
/// White queen side, Black king side, Black queen side: Polyglot's order of its four keys.
const CASTLING_KEYS: [u64; 16] = {
    let mut keys = [0; 16];
    let mut bits = 0;
    while bits < 16 {
        let mut right = 0;
        while right < 4 {
            if bits & (1 << right) != 0 {
                keys[bits] ^= POLYGLOT_KEYS[CASTLING_OFFSET + right];
            }
            right += 1;
        }
        bits += 1;
    }
    keys
};

/// The key of a capturable en-passant pawn on `file` (0 = a … 7 = h).
///
/// # Examples
/// ```
/// use constmove::zobrist;
/// assert_ne!(zobrist::en_passant_key(4), zobrist::en_passant_key(5));
/// ```
#[inline(always)]
pub fn en_passant_key(file: u8) -> u64 {
    POLYGLOT_KEYS[EN_PASSANT_OFFSET + (file & 7) as usize]
}

/// The key XORed in when White is to move; every move toggles it.
///
/// # Examples
/// ```
/// use constmove::{zobrist, Position};
/// let white: Position = "4k3/8/8/8/8/8/8/4K3 w - - 0 1".parse().unwrap();
/// let black: Position = "4k3/8/8/8/8/8/8/4K3 b - - 0 1".parse().unwrap();
/// assert_eq!(white.zobrist() ^ black.zobrist(), zobrist::white_to_move_key());
/// ```
#[inline(always)]
pub fn white_to_move_key() -> u64 {
    POLYGLOT_KEYS[WHITE_TO_MOVE]
}

/// The key of the en-passant square `ep`, if any (0 when there is none).
#[inline(always)]
pub(crate) fn en_passant_square_key(ep: Option<Square>) -> u64 {
    ep.map_or(0, |square| en_passant_key(square.file()))
}

/// The key of a position computed from scratch. `ep` must already follow Polyglot's rule
/// (set only when a pawn of `side` can take).
pub(crate) fn key_of(
    board: &Board,
    side: Color,
    castling: CastlingRights,
    ep: Option<Square>,
) -> u64 {
    let mut key = castling_key(castling) ^ en_passant_square_key(ep);
    if side == Color::White {
        key ^= white_to_move_key();
    }
    for color in [Color::White, Color::Black] {
        for piece in Piece::ALL {
            let mut bits = board.bits(color, piece);
            while bits != 0 {
                let square = Square::from_index(bits.trailing_zeros());
                key ^= piece_key(color, piece, square);
                bits &= bits - 1;
            }
        }
    }
    key
}

/// How the piece placement's key changes when `mover` plays the legal move `mv` on `board`:
/// the moving piece, a captured piece (en passant included), the rook of a castle and a
/// promotion. XOR it, [`white_to_move_key`], and the castling and en-passant deltas into the
/// parent's key to get the child's.
///
/// # Examples
/// ```
/// use constmove::{zobrist, Color, Position};
/// let pos = Position::startpos();
/// let mv = pos.parse_uci("g1f3").unwrap();
/// let mut child = pos.clone();
/// child.play(mv).unwrap();
/// let delta = zobrist::placement_delta(pos.board(), Color::White, mv);
/// assert_eq!(pos.zobrist() ^ delta ^ zobrist::white_to_move_key(), child.zobrist());
/// ```
pub fn placement_delta(board: &Board, mover: Color, mv: Move) -> u64 {
    let Some(piece) = board.piece_of(mover, mv.from()) else {
        return 0;
    };
    let (from, to) = (mv.from(), mv.to());
    let mut delta = piece_key(mover, piece, from);
    match mv.kind() {
        MoveKind::Normal | MoveKind::DoublePush => {
            delta ^= piece_key(mover, piece, to);
        }
        MoveKind::Promotion(promoted) => {
            delta ^= piece_key(mover, promoted, to);
        }
        MoveKind::EnPassant => {
            delta ^= piece_key(mover, Piece::Pawn, to)
                ^ piece_key(!mover, Piece::Pawn, en_passant_victim(mover, to));
        }
        MoveKind::Castle => {
            // The king may land on its own rook's square in Chess960: nothing is taken.
            let castle = board.castling().castle_squares(mover, from, to);
            return delta
                ^ piece_key(mover, Piece::King, castle.king_to)
                ^ piece_key(mover, Piece::Rook, castle.rook_from)
                ^ piece_key(mover, Piece::Rook, castle.rook_to);
        }
    }
    // En passant's victim is not on `to`, so this finds nothing for it.
    if let Some(captured) = board.piece_of(!mover, to) {
        delta ^= piece_key(!mover, captured, to);
    }
    delta
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_is_distinct() {
        let mut keys = POLYGLOT_KEYS.to_vec();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), 781);
    }

    /// `placement_delta` against the keys `play` keeps, for every legal move of positions
    /// with captures, castles both ways, en passant, promotions with and without capture, and
    /// a Chess960 castle whose king lands on its rook's square.
    #[test]
    fn placement_delta_matches_the_played_keys() {
        use crate::position::Position;
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/Pp2P3/2N2Q1p/1PPBBPPP/R3K2R b KQkq a3 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            "1r3k2/8/8/8/8/8/8/R4KR1 w GAb - 0 1",
        ];
        let mut checked = 0;
        for fen in fens {
            let position: Position = fen.parse().unwrap();
            let mover = position.side;
            for &mv in position.legal_moves().iter() {
                let mut child = position.clone();
                child.play_unchecked(mv);
                let status = white_to_move_key()
                    ^ castling_key(CastlingRights::from_bits(
                        position.castling.bits() ^ child.castling.bits(),
                    ))
                    ^ en_passant_square_key(position.ep_square)
                    ^ en_passant_square_key(child.ep_square);
                let delta = placement_delta(&position.board, mover, mv);
                assert_eq!(position.key ^ delta ^ status, child.key, "{mv} in {fen}");
                checked += 1;
            }
        }
        assert!(checked > 100, "{checked} moves checked");
    }
}
