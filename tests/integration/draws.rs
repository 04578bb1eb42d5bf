//! Draw rules: insufficient material (every dead case and the near misses, for either
//! colour), the fifty-move rule with a mate on the hundredth half-move, and repetition with
//! [`History`]: threefold by knight moves from the start position, the window that a pawn
//! move resets, en-passant rights in the key, and push/pop along a search path.

use constmove::{Color, History, Outcome, Position};

fn pos(fen: &str) -> Position {
    match fen.parse() {
        Ok(position) => position,
        Err(err) => panic!("{fen}: {err}"),
    }
}

/// Plays `moves` (UCI) from `position`, pushing each position's key first.
#[track_caller]
fn play(position: &mut Position, history: &mut History, moves: &[&str]) {
    for uci in moves {
        let mv = position
            .parse_uci(uci)
            .unwrap_or_else(|err| panic!("{uci} in {position}: {err}"));
        history.push(position.zobrist());
        position.play(mv).unwrap();
    }
}

#[test]
fn insufficient_material_dead_positions() {
    for (fen, what) in [
        ("8/8/4k3/8/8/3K4/8/8 w - - 0 1", "K v K"),
        ("8/8/4k3/8/8/3K4/6N1/8 w - - 0 1", "K+N v K"),
        ("8/8/4k3/3n4/8/3K4/8/8 b - - 0 1", "K v K+N"),
        ("8/8/4k3/8/8/3K4/6B1/8 w - - 0 1", "K+B v K"),
        ("b7/8/4k3/8/8/3K4/8/8 b - - 0 1", "K v K+B"),
        ("8/3b4/4k3/8/8/3K4/6B1/8 w - - 0 1", "K+B v K+B, both light"),
        ("8/8/4k3/2b5/8/3K4/5B2/8 b - - 0 1", "K+B v K+B, both dark"),
        (
            "7k/3b4/8/8/8/3K4/B1B1B3/8 w - - 0 1",
            "three light bishops v one light bishop",
        ),
    ] {
        let position = pos(fen);
        assert!(position.is_insufficient_material(), "{what}: {fen}");
        assert_eq!(
            position.outcome(),
            Some(Outcome::InsufficientMaterial),
            "{what}: {fen}"
        );
    }
}

#[test]
fn insufficient_material_near_misses_can_mate() {
    for (fen, what) in [
        ("8/8/4k3/8/8/3K4/6P1/8 w - - 0 1", "a white pawn"),
        ("8/6p1/4k3/8/8/3K4/8/8 w - - 0 1", "a black pawn"),
        ("8/8/4k3/8/8/3K4/8/7R w - - 0 1", "a white rook"),
        ("7q/8/4k3/8/8/3K4/8/8 w - - 0 1", "a black queen"),
        ("8/8/4k3/8/8/3K4/5NN1/8 w - - 0 1", "two white knights"),
        ("8/8/4k3/3n4/8/3K4/6N1/8 w - - 0 1", "a knight each"),
        ("8/8/4k3/8/8/3K4/5BN1/8 w - - 0 1", "knight and bishop"),
        ("b7/8/4k3/8/8/3K4/6N1/8 w - - 0 1", "K+N v K+B"),
        (
            "8/2b5/4k3/8/8/3K4/6B1/8 w - - 0 1",
            "bishops on opposite colours",
        ),
        (
            "8/8/4k3/8/8/3K4/5BB1/8 w - - 0 1",
            "one side's bishops on both colours",
        ),
    ] {
        let position = pos(fen);
        assert!(!position.is_insufficient_material(), "{what}: {fen}");
        assert_eq!(position.outcome(), None, "{what}: {fen}");
    }
    assert!(!Position::startpos().is_insufficient_material());
}

#[test]
fn fifty_moves_mate_on_the_hundredth_half_move_wins() {
    let before = pos("6k1/5ppp/8/8/8/8/7P/R5K1 w - - 99 80");
    assert!(!before.is_fifty_move_draw());
    assert_eq!(before.outcome(), None);

    // Ra8 mates with the hundredth half-move: the mate stands.
    let mut mate = before.clone();
    mate.play(mate.parse_uci("a1a8").unwrap()).unwrap();
    assert_eq!(mate.halfmove_clock(), 100);
    assert!(!mate.is_fifty_move_draw());
    assert_eq!(
        mate.outcome(),
        Some(Outcome::Checkmate {
            winner: Color::White
        })
    );

    // Any other quiet move reaches the hundredth half-move without mate: a draw.
    let mut quiet = before.clone();
    quiet.play(quiet.parse_uci("g1f1").unwrap()).unwrap();
    assert_eq!(quiet.halfmove_clock(), 100);
    assert!(quiet.is_fifty_move_draw());
    assert_eq!(quiet.outcome(), Some(Outcome::FiftyMoves));

    // A pawn move resets the clock.
    let mut pawn = before;
    pawn.play(pawn.parse_uci("h2h3").unwrap()).unwrap();
    assert_eq!(pawn.halfmove_clock(), 0);
    assert!(!pawn.is_fifty_move_draw());
    assert_eq!(pawn.outcome(), None);
}

#[test]
fn fifty_moves_from_fen_and_stalemate() {
    assert!(pos("8/8/4k3/8/8/3K4/8/R7 b - - 150 120").is_fifty_move_draw());
    assert!(!pos("8/8/4k3/8/8/3K4/8/R7 b - - 99 120").is_fifty_move_draw());
    // In check but not mated: still a draw.
    let check = pos("4k3/8/8/8/8/3K4/8/4R3 b - - 100 120");
    assert!(check.is_check() && check.is_fifty_move_draw());
    assert_eq!(check.outcome(), Some(Outcome::FiftyMoves));
    // Stalemate at the same time: a draw either way, reported as the stalemate.
    let stalemate = pos("7k/5Q2/6K1/8/8/8/8/8 b - - 100 120");
    assert!(stalemate.is_fifty_move_draw());
    assert_eq!(stalemate.outcome(), Some(Outcome::Stalemate));
}

#[test]
fn threefold_by_knights_from_the_start() {
    let mut position = Position::startpos();
    let mut history = History::new();
    let dance = ["g1f3", "g8f6", "f3g1", "f6g8"];
    assert_eq!(history.repetitions(&position), 1);
    play(&mut position, &mut history, &dance);
    assert_eq!(position, Position::startpos().clone_with_clocks(4, 3));
    assert_eq!(history.repetitions(&position), 2);
    assert!(history.is_repetition(&position, 2));
    assert!(!history.is_repetition(&position, 3));
    // The positions on the way occur a second time, not a third.
    for (ply, uci) in dance[..3].iter().enumerate() {
        play(&mut position, &mut history, &[uci]);
        assert_eq!(history.repetitions(&position), 2, "after ply {}", ply + 5);
    }
    play(&mut position, &mut history, &dance[3..]);
    assert_eq!(history.repetitions(&position), 3);
    assert!(history.is_repetition(&position, 3));
    assert!(!history.is_repetition(&position, 4));
    // Repetition is the caller's: the position alone does not end the game.
    assert_eq!(position.outcome(), None);
}

/// A position with other move counters (the same key).
trait WithClocks {
    fn clone_with_clocks(&self, halfmove: u32, fullmove: u32) -> Position;
}

impl WithClocks for Position {
    fn clone_with_clocks(&self, halfmove: u32, fullmove: u32) -> Position {
        let fen = self.to_string();
        let fields: Vec<&str> = fen.split_whitespace().take(4).collect();
        pos(&format!("{} {halfmove} {fullmove}", fields.join(" ")))
    }
}

#[test]
fn a_pawn_move_resets_the_window() {
    let mut position = Position::startpos();
    let mut history = History::new();
    play(
        &mut position,
        &mut history,
        &["g1f3", "g8f6", "f3g1", "f6g8"],
    );
    assert_eq!(history.repetitions(&position), 2);
    // The pawn moves close the window: the start position is behind them.
    play(&mut position, &mut history, &["e2e4", "e7e5"]);
    assert_eq!(position.halfmove_clock(), 0);
    assert_eq!(history.repetitions(&position), 1);
    play(
        &mut position,
        &mut history,
        &["g1f3", "g8f6", "f3g1", "f6g8"],
    );
    assert_eq!(position.halfmove_clock(), 4);
    // The position right after the pawn move, four plies back, is in the window.
    assert_eq!(history.repetitions(&position), 2);
    assert!(!history.is_repetition(&position, 3));
    play(
        &mut position,
        &mut history,
        &["g1f3", "g8f6", "f3g1", "f6g8"],
    );
    assert!(history.is_repetition(&position, 3));

    // The window is the halfmove clock: the same position, as if a pawn had just moved,
    // looks at none of the keys, though two of them equal its own.
    let fresh = position.clone_with_clocks(0, 9);
    assert_eq!(fresh.zobrist(), position.zobrist());
    assert_eq!(history.repetitions(&fresh), 1);
    assert_eq!(history.repetitions(&position.clone_with_clocks(4, 9)), 2);
}

#[test]
fn the_window_and_the_side_to_move() {
    let position = pos("4k3/8/8/8/8/8/8/4K3 w - - 2 40");
    let key = position.zobrist();
    let other = pos("4k3/8/8/8/8/8/8/4K3 b - - 2 40").zobrist();
    let mut history = History::new();
    for earlier in [key, other, key, other] {
        history.push(earlier);
    }
    // Clock 2: only the key two plies back.
    assert_eq!(history.repetitions(&position), 2);
    assert_eq!(history.repetitions(&position.clone_with_clocks(4, 40)), 3);
    assert_eq!(history.repetitions(&position.clone_with_clocks(0, 40)), 1);
    // A clock beyond the history: every key, still only the same side to move.
    assert_eq!(history.repetitions(&position.clone_with_clocks(90, 40)), 3);
    // Keys an odd number of plies back are never compared, even if they match.
    let mut odd = History::new();
    odd.push(key);
    assert_eq!(odd.repetitions(&position.clone_with_clocks(1, 40)), 1);
}

#[test]
fn en_passant_rights_are_part_of_the_position() {
    // After d7-d5 White may take en passant: the position differs from the same placement
    // later without that right (FIDE agrees).
    let mut position = pos("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1");
    let mut history = History::new();
    play(&mut position, &mut history, &["d7d5"]);
    assert!(position.ep_square().is_some());
    assert!(position.parse_uci("e5d6").is_ok());
    let shuffle = ["e1e2", "e8e7", "e2e1", "e7e8"];
    play(&mut position, &mut history, &shuffle);
    assert_eq!(history.repetitions(&position), 1);
    play(&mut position, &mut history, &shuffle);
    assert_eq!(history.repetitions(&position), 2);

    // A double push with no pawn beside it gives no right: 1.e4 and its recurrences match.
    let mut position = Position::startpos();
    let mut history = History::new();
    play(&mut position, &mut history, &["e2e4"]);
    assert_eq!(position.ep_square(), None);
    for _ in 0..2 {
        play(
            &mut position,
            &mut history,
            &["g8f6", "g1f3", "f6g8", "f3g1"],
        );
    }
    assert!(history.is_repetition(&position, 3));

    // Documented limit: with the capturing pawn pinned (here along the fifth rank), FIDE
    // counts no right, but the key (Polyglot's) holds the file, so the first position is
    // not matched: the repetition is found one occurrence late, never early.
    let mut position = pos("4k3/3p4/8/K3P2r/8/8/8/8 b - - 0 1");
    let mut history = History::new();
    play(&mut position, &mut history, &["d7d5"]);
    assert!(position.ep_square().is_some());
    assert!(position.parse_uci("e5d6").is_err());
    play(
        &mut position,
        &mut history,
        &["a5a4", "e8e7", "a4a5", "e7e8"],
    );
    assert_eq!(history.repetitions(&position), 1);
}

#[test]
fn push_and_pop_follow_a_search_path() {
    let mut history = History::with_capacity(64);
    let mut position = Position::startpos();
    play(&mut position, &mut history, &["g1f3", "g8f6", "f3g1"]);
    let keys = history.keys().to_vec();
    // One ply deeper: ...Ng8 repeats the start position.
    let mv = position.parse_uci("f6g8").unwrap();
    let mut child = position.clone();
    history.push(position.zobrist());
    child.play(mv).unwrap();
    assert!(history.is_repetition(&child, 2));
    assert_eq!(history.pop(), Some(position.zobrist()));
    // Back at the parent, nothing repeats, and the history is as before.
    assert_eq!(history.keys(), &keys[..]);
    assert!(!history.is_repetition(&position, 2));
    assert_eq!(history.len(), 3);
    history.clear();
    assert!(history.is_empty());
    assert_eq!(history.pop(), None);
}
