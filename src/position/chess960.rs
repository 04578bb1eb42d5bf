//! Chess960 starting positions by Scharnagl's number ([`Position::chess960_startpos`]).

use super::Position;

impl Position {
    /// Chess960 starting position `number` (0 to 959) in Scharnagl's numbering, under
    /// Chess960 rules with all four rights; `None` for a larger number. Position 518 has the
    /// standard start's pieces.
    ///
    /// # Examples
    /// ```
    /// use constmove::{perft, Position};
    /// let pos = Position::chess960_startpos(0).unwrap();
    /// assert_eq!(pos.to_string(), "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1");
    /// assert_eq!(Position::chess960_startpos(518), Some(Position::startpos().into_chess960()));
    /// assert_eq!(perft(&pos, 2), 400);
    /// assert_eq!(Position::chess960_startpos(960), None);
    /// ```
    pub fn chess960_startpos(number: u32) -> Option<Position> {
        let back_rank = chess960_back_rank(number)?;
        // "rank/pppppppp/8/8/8/8/PPPPPPPP/RANK w KQkq - 0 1", built without allocating.
        let mut fen = [0u8; 56];
        let mut len = 0;
        let mut push = |bytes: &[u8]| {
            fen[len..len + bytes.len()].copy_from_slice(bytes);
            len += bytes.len();
        };
        push(&back_rank.map(|piece| piece.to_ascii_lowercase()));
        push(b"/pppppppp/8/8/8/8/PPPPPPPP/");
        push(&back_rank);
        push(b" w KQkq - 0 1");
        // Every number under 960 gives a FEN that reads (a test builds all 960), so `None`
        // keeps meaning only "960 or more".
        let fen = core::str::from_utf8(&fen[..len]).expect("the FEN is ASCII");
        // X-FEN: with one rook on each side of the king, `KQkq` names both rooks.
        let position: Position = fen.parse().expect("a Chess960 start FEN parses");
        Some(position.into_chess960())
    }
}

/// White's back rank of Chess960 starting position `number` in Scharnagl's numbering, as FEN
/// letters: the number's digits in mixed radix place the light-squared bishop (4 ways), the
/// dark-squared one (4), the queen on a free square (6) and the knights on two of the five
/// left (10); rook, king, rook fill the last three in order.
fn chess960_back_rank(number: u32) -> Option<[u8; 8]> {
    if number >= 960 {
        return None;
    }
    // The ten ways to put two knights on five squares, in Scharnagl's order.
    const KNIGHTS: [(usize, usize); 10] = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    let mut rank = [0u8; 8];
    let mut rest = number as usize;
    rank[2 * (rest % 4) + 1] = b'B';
    rest /= 4;
    rank[2 * (rest % 4)] = b'B';
    rest /= 4;
    // The `nth` empty file of `rank`.
    let free = |rank: &[u8; 8], nth: usize| (0..8).filter(|&file| rank[file] == 0).nth(nth);
    let queen = free(&rank, rest % 6)?;
    rank[queen] = b'Q';
    rest /= 6;
    let (first, second) = KNIGHTS[rest];
    let (first, second) = (free(&rank, first)?, free(&rank, second)?);
    rank[first] = b'N';
    rank[second] = b'N';
    for piece in [b'R', b'K', b'R'] {
        let file = free(&rank, 0)?;
        rank[file] = piece;
    }
    Some(rank)
}
