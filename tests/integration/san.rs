//! SAN both ways against `tests/data/san/` (every legal move of 2974 positions, written by
//! python-chess, Chess960 rows included; a sample in the normal run, the whole file with
//! `--ignored`): `san` writes each row's SAN and `parse_san` reads it back, with the accepted
//! variants (no suffix, `0-0`, full origin) of every row too. Then
//! the variants and each error on hand-made positions, and random text and random moves,
//! which must never panic nor change the position.

use crate::common::{self, XorShift};
use constmove::san::SanError;
use constmove::{Move, MoveKind, Piece, Position, Square};
use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// The SAN data: every row of the gzipped file, and the sample of it the normal run reads
/// (how it was cut: tests/data/README.md).
const SAN_DATA: &str = "san_moves.tsv.gz";
const SAN_SAMPLE: &str = "san_moves_sample.tsv";

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

fn pos(fen: &str) -> Position {
    fen.parse().unwrap()
}

/// The move `uci` names in `position` (panics when it is not legal there).
fn uci(position: &Position, uci: &str) -> Move {
    position
        .parse_uci(uci)
        .unwrap_or_else(|err| panic!("{uci} in {position}: {err}"))
}

/// `parse_san(text)` as UCI text, or the error's message.
fn parsed(position: &Position, text: &str) -> Result<String, String> {
    position
        .parse_san(text)
        .map(|mv| mv.to_string())
        .map_err(|err| err.to_string())
}

/// The SAN with every origin written out (`Ng1f3`, `Qd1xd8+`, `e2e4`): over-disambiguated,
/// still naming the one move. Castling becomes `0-0` / `0-0-0`.
fn fully_disambiguated(position: &Position, mv: Move, san: &str) -> String {
    if mv.kind() == MoveKind::Castle {
        return san.replace('O', "0");
    }
    let letter = match position.board().piece_at(mv.from()).map(|(_, p)| p) {
        Some(Piece::Pawn) | None => String::new(),
        Some(piece) => piece.uci_char().to_ascii_uppercase().to_string(),
    };
    let capture = if san.contains('x') { "x" } else { "" };
    let promotion = san
        .split_once('=')
        .map(|(_, rest)| rest.trim_end_matches(['+', '#']).to_owned())
        .unwrap_or_default();
    format!("{letter}{}{capture}{}{promotion}", mv.from(), mv.to())
}

#[test]
fn san_data_sample_both_ways() {
    check_san_data(SAN_SAMPLE, 4_678);
}

#[test]
#[ignore = "the whole file, 90,208 rows: run with --ignored"]
fn full_san_data_both_ways() {
    check_san_data(SAN_DATA, 90_208);
}

/// Every row of SAN data file `name` (in `tests/data/san/`), which must have `rows` rows.
fn check_san_data(name: &str, rows: usize) {
    let path = std::path::Path::new(common::TEST_DATA)
        .join("san")
        .join(name);
    let text = common::read_text(&path);
    let file = path.display();
    let mut lines = text.lines().enumerate();
    let header = lines.next().map(|(_, line)| line).unwrap_or_default();
    assert_eq!(
        header, "fen\tuci\tsan\tchess960",
        "{file}: unexpected header"
    );
    // Counted apart from the loop below, so that a row the loop skips by mistake shows.
    let standard_in_file = text
        .lines()
        .skip(1)
        .filter(|line| line.rsplit('\t').next() == Some("0"))
        .count();
    let mut positions: HashMap<&str, Position> = HashMap::new();
    let (mut checked, mut checked_960) = (0usize, 0usize);
    let mut failures = Vec::new();
    for (index, line) in lines {
        let line_no = index + 1;
        let fields: Vec<&str> = line.split('\t').collect();
        let [fen, uci_text, san, chess960] = fields[..] else {
            panic!("{file}:{line_no}: expected 4 tab-separated fields: {line:?}");
        };
        let chess960 = match chess960 {
            "0" => false,
            "1" => true,
            other => panic!("{file}:{line_no}: chess960 is {other:?}"),
        };
        let position = positions.entry(fen).or_insert_with(|| {
            let position: Position = fen
                .parse()
                .unwrap_or_else(|err| panic!("{file}:{line_no}: FEN {fen:?}: {err}"));
            // A Chess960 row on standard squares (position 518) is played by Chess960 rules.
            if chess960 {
                position.into_chess960()
            } else {
                position
            }
        });
        checked_960 += usize::from(chess960);
        let before = position.clone();
        let mv = match position.parse_uci(uci_text) {
            Ok(mv) => mv,
            Err(err) => {
                failures.push(format!("{line_no}: {fen} {uci_text}: {err}"));
                continue;
            }
        };
        checked += 1;
        // The move writes itself as the data's UCI: king-takes-rook castles in Chess960.
        if mv.to_string() != uci_text {
            failures.push(format!("{line_no}: {fen} {uci_text}: written {mv}"));
        }
        let written = position.san(mv);
        if written != san {
            failures.push(format!(
                "{line_no}: {fen} {uci_text}: wrote {written}, want {san}"
            ));
        }
        let bare = san.trim_end_matches(['+', '#']);
        let variants = [
            san.to_owned(),
            bare.to_owned(),
            format!("{bare}+"),
            format!("{san}!?"),
            fully_disambiguated(position, mv, san),
        ];
        for variant in &variants {
            match position.parse_san(variant) {
                Ok(got) if got == mv => {}
                got => failures.push(format!(
                    "{line_no}: {fen}: parse_san({variant:?}) = {got:?}, want {uci_text}"
                )),
            }
        }
        assert_eq!(*position, before, "{line_no}: the position changed");
    }
    println!("san data: {checked} rows both ways, {checked_960} of them Chess960");
    assert!(
        failures.is_empty(),
        "{} failures, the first ones:\n{}",
        failures.len(),
        failures[..failures.len().min(50)].join("\n")
    );
    assert!(standard_in_file > 0, "{file}: no standard rows");
    assert_eq!(
        checked - checked_960,
        standard_in_file,
        "standard rows checked"
    );
    assert_eq!(checked, text.lines().count() - 1, "every row is checked");
    assert_eq!(checked, rows, "{file}: rows");
}

#[test]
fn writes_disambiguation_captures_promotions_and_castling() {
    // Rooks on a1 and a5 share the file: the rank tells them apart; a1 and h1 share the
    // rank: the file does.
    let rooks = pos("4k3/8/8/R7/8/8/4K3/R6R w - - 0 1");
    assert_eq!(rooks.san(uci(&rooks, "a1a3")), "R1a3");
    assert_eq!(rooks.san(uci(&rooks, "a1d1")), "Rad1");
    assert_eq!(rooks.san(uci(&rooks, "h1h4")), "Rh4");
    // Neither file nor rank alone: the a5 rook reaches h5 too.
    assert_eq!(rooks.san(uci(&rooks, "h1h5")), "Rhh5");
    // Three queens reach b2, one sharing the file and one the rank: both.
    let queens = pos("4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1");
    assert_eq!(queens.san(uci(&queens, "a1b2")), "Qa1b2");
    assert_eq!(queens.san(uci(&queens, "c1c4")), "Qc4");
    // A pinned knight does not count as a rival.
    let pinned = pos("4k3/8/8/8/4r3/8/4N3/1N2K3 w - - 0 1");
    assert_eq!(pinned.san(uci(&pinned, "b1c3")), "Nc3");
    let captures = pos("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
    assert_eq!(captures.san(uci(&captures, "e5d6")), "exd6");
    let promotions = pos("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(promotions.san(uci(&promotions, "a7a8q")), "a8=Q");
    assert_eq!(promotions.san(uci(&promotions, "a7b8q")), "axb8=Q+");
    assert_eq!(promotions.san(uci(&promotions, "a7b8n")), "axb8=N");
    let castles = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_eq!(castles.san(uci(&castles, "e1g1")), "O-O");
    assert_eq!(castles.san(uci(&castles, "e1c1")), "O-O-O");
    let mut text = String::new();
    castles.write_san(uci(&castles, "a1a8"), &mut text).unwrap();
    assert_eq!(text, "Rxa8+");
}

#[test]
fn writes_illegal_moves_as_uci_without_panicking() {
    let start = Position::startpos();
    for (from, to, kind) in [
        ("e2", "e5", MoveKind::Normal),
        ("e7", "e5", MoveKind::DoublePush),
        ("e4", "e5", MoveKind::Normal),
        ("e1", "g1", MoveKind::Castle),
        ("e2", "e4", MoveKind::Promotion(Piece::Pawn)),
    ] {
        let mv = Move::new(sq(from), sq(to), kind);
        assert_eq!(start.san(mv), mv.to_string());
    }
    // Every square pair and kind on random positions: no panic, and a legal move's SAN
    // parses back to it.
    let mut rng = XorShift(0x5A17_0001);
    let kinds = [
        MoveKind::Normal,
        MoveKind::DoublePush,
        MoveKind::Castle,
        MoveKind::EnPassant,
        MoveKind::Promotion(Piece::Queen),
        MoveKind::Promotion(Piece::Knight),
    ];
    let mut position = Position::startpos();
    for _ in 0..2_000 {
        let mv = Move::new(
            Square::new(rng.below(64) as u8).unwrap(),
            Square::new(rng.below(64) as u8).unwrap(),
            kinds[rng.below(kinds.len())],
        );
        let text = position.san(mv);
        if position.legal_moves().contains(&mv) {
            assert_eq!(position.parse_san(&text), Ok(mv), "{position}: {text}");
        } else {
            assert_eq!(text, mv.to_string(), "{position}");
        }
        let moves = position.legal_moves();
        if moves.is_empty() || position.halfmove_clock() > 60 {
            position = Position::startpos();
        } else {
            position.play(moves[rng.below(moves.len())]).unwrap();
        }
    }
}

#[test]
fn accepts_the_usual_variants() {
    let start = Position::startpos();
    for (text, want) in [
        ("Nf3", "g1f3"),
        ("Nf3+", "g1f3"),
        ("Nf3#", "g1f3"),
        ("e4!", "e2e4"),
        ("e4?!", "e2e4"),
        ("e4!!", "e2e4"),
        ("Nc3??", "b1c3"),
        ("Nf3+!?", "g1f3"),
        (" e4\t", "e2e4"),
        ("Ng1f3", "g1f3"),
        ("Ngf3", "g1f3"),
        ("N1f3", "g1f3"),
        ("e2e4", "e2e4"),
        ("ee4", "e2e4"),
    ] {
        assert_eq!(parsed(&start, text), Ok(want.to_owned()), "{text}");
    }
    let castles = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    for (text, want) in [
        ("O-O", "e1g1"),
        ("0-0", "e1g1"),
        ("O-O-O", "e1c1"),
        ("0-0-0", "e1c1"),
        ("O-O-O+", "e1c1"),
        ("0-0-0#", "e1c1"),
        ("O-O+", "e1g1"),
    ] {
        assert_eq!(parsed(&castles, text), Ok(want.to_owned()), "{text}");
    }
    let promotion = pos("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    for (text, want) in [
        ("a8=Q", "a7a8q"),
        ("a8Q", "a7a8q"),
        ("a8=q", "a7a8q"),
        ("a8=Q+", "a7a8q"),
        ("a8N", "a7a8n"),
        ("axb8=R", "a7b8r"),
        ("axb8R+", "a7b8r"),
        ("ab8=B", "a7b8b"),
        ("a7b8b", "a7b8b"),
    ] {
        assert_eq!(parsed(&promotion, text), Ok(want.to_owned()), "{text}");
    }
    // A capture without its x, en passant included.
    let captures = pos("4k3/8/8/3pP3/8/2n5/8/1N2K3 w - d6 0 2");
    for (text, want) in [
        ("Nxc3", "b1c3"),
        ("Nc3", "b1c3"),
        ("exd6", "e5d6"),
        ("ed6", "e5d6"),
        ("e6", "e5e6"),
    ] {
        assert_eq!(parsed(&captures, text), Ok(want.to_owned()), "{text}");
    }
}

#[test]
fn empty_text_is_empty() {
    let start = Position::startpos();
    for text in ["", " ", "\t\n "] {
        assert_eq!(start.parse_san(text), Err(SanError::Empty), "{text:?}");
    }
    assert_eq!(SanError::Empty.to_string(), "empty SAN move");
}

#[test]
fn malformed_text_is_named() {
    let start = Position::startpos();
    for text in [
        "+",
        "!?",
        "Zf3",
        "nf3",
        "Pe4",
        "e9",
        "i4",
        "4",
        "Nf",
        "Nf3x",
        "N f3",
        "Ne2e3e4",
        "Nxxf3",
        "Nf3=Q",
        "e8=K",
        "e8=",
        "e8=P",
        "O-O-O-O",
        "o-o",
        "O-0",
        "e4 e5",
        "\u{e9}4",
        "Nf3\u{1F600}",
        "\0",
    ] {
        let err = start.parse_san(text).unwrap_err();
        let SanError::Malformed { text: kept } = err else {
            panic!("{text:?}: {err:?}, want Malformed");
        };
        assert_eq!(kept.as_str(), text.trim(), "{text:?}");
        let message = err.to_string();
        assert!(
            message.starts_with("malformed SAN move \"") && message.contains("O-O"),
            "{message}"
        );
    }
    // Control characters are escaped and long text is cut, marked with an ellipsis.
    let err = start.parse_san("N\u{7}f3").unwrap_err();
    assert!(err.to_string().contains("\"N\\u{7}f3\""), "{err}");
    let long = "Nf3".repeat(40);
    let err = start.parse_san(&long).unwrap_err();
    let SanError::Malformed { text } = err else {
        panic!("{err:?}");
    };
    assert!(text.is_truncated() && long.starts_with(text.as_str()));
    assert!(err.to_string().contains("…\""), "{err}");
    // A cut never splits a character.
    let err = start.parse_san(&"\u{1F600}".repeat(10)).unwrap_err();
    assert!(
        matches!(err, SanError::Malformed { text } if text.as_str().chars().all(|c| c == '\u{1F600}'))
    );
}

#[test]
fn illegal_text_is_named() {
    let start = Position::startpos();
    for text in [
        "Nf4", "e5", "Ke2", "Qd4", "exd3", "xe4", "Nxf3", "Bb5", "O-O", "0-0-0", "e4=Q", "Nh1f3",
        "Nb1f3", "Ra3",
    ] {
        assert_eq!(
            start.parse_san(text).map_err(|err| err.to_string()),
            Err(format!(
                "illegal SAN move \"{}\": no legal move in this position matches it",
                text.trim()
            )),
            "{text}"
        );
    }
    // Castling is O-O, not a king move; a pawn without its file does not capture; a
    // promotion to the wrong square; the other side's move.
    let castles = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert!(matches!(
        castles.parse_san("Kg1"),
        Err(SanError::Illegal { .. })
    ));
    assert!(matches!(
        castles.parse_san("Kc1"),
        Err(SanError::Illegal { .. })
    ));
    let captures = pos("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
    assert!(matches!(
        captures.parse_san("d6"),
        Err(SanError::Illegal { .. })
    ));
    assert!(matches!(
        captures.parse_san("xd6"),
        Err(SanError::Illegal { .. })
    ));
    assert!(matches!(
        captures.parse_san("exe6"),
        Err(SanError::Illegal { .. })
    ));
    assert!(matches!(
        start.parse_san("e5"),
        Err(SanError::Illegal { .. })
    ));
    assert!(matches!(
        start.parse_san("Nf6"),
        Err(SanError::Illegal { .. })
    ));
}

#[test]
fn ambiguous_text_names_the_moves() {
    // Knights on b1 and f3 reach d2.
    let knights = pos("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
    let err = knights.parse_san("Nd2").unwrap_err();
    let SanError::Ambiguous { text, candidates } = err else {
        panic!("{err:?}");
    };
    assert_eq!(text.as_str(), "Nd2");
    assert_eq!(candidates.len(), 2);
    assert_eq!(candidates.total(), 2);
    assert_eq!(
        err.to_string(),
        "ambiguous SAN move \"Nd2\": it matches b1d2 and f3d2"
    );
    // Four knights reach d4 (c2 shares the file with c6, the rank with e2); a file or a
    // rank alone leaves two.
    let four = pos("4k3/8/2N1N3/8/8/8/2N1N3/4K3 w - - 0 1");
    let err = four.parse_san("Nxd4").unwrap_err();
    assert!(matches!(err, SanError::Illegal { .. }), "{err:?}");
    let err = four.parse_san("Nd4").unwrap_err();
    assert_eq!(
        err.to_string(),
        "ambiguous SAN move \"Nd4\": it matches c2d4, e2d4, c6d4 and e6d4"
    );
    assert!(
        matches!(four.parse_san("Ncd4"), Err(SanError::Ambiguous { candidates, .. }) if candidates.len() == 2)
    );
    assert!(
        matches!(four.parse_san("N2d4"), Err(SanError::Ambiguous { candidates, .. }) if candidates.len() == 2)
    );
    assert_eq!(parsed(&four, "Nc2d4"), Ok("c2d4".to_owned()));
    assert_eq!(four.san(uci(&four, "c2d4")), "Nc2d4");
    // Eight queens reach d4: the most one SAN text can match.
    let queens = pos("k7/8/1Q1Q1Q2/8/1Q3Q2/8/1Q1Q1Q2/7K w - - 0 1");
    let err = queens.parse_san("Qd4").unwrap_err();
    let SanError::Ambiguous { candidates, .. } = err else {
        panic!("{err:?}");
    };
    assert_eq!((candidates.len(), candidates.total()), (8, 8));
    // A promotion without its piece matches the four.
    let promotion = pos("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    let err = promotion.parse_san("axb8+").unwrap_err();
    assert_eq!(
        err.to_string(),
        "ambiguous SAN move \"axb8+\": it matches a7b8q, a7b8r, a7b8b and a7b8n"
    );
}

/// `parse_san` on `text`, catching a panic; whatever it accepts must be legal and written
/// back as SAN that parses to the same move.
fn parse_without_panic(position: &Position, text: &str) -> Result<Option<Move>, String> {
    catch_unwind(AssertUnwindSafe(|| {
        let before = position.clone();
        let result = position.parse_san(text);
        assert_eq!(*position, before);
        let _ = result.map_err(|err| err.to_string());
        let mv = result.ok()?;
        assert!(position.legal_moves().contains(&mv));
        assert_eq!(position.parse_san(&position.san(mv)), Ok(mv));
        Some(mv)
    }))
    .map_err(|_| format!("{position}: panicked on {text:?}"))
}

#[test]
fn random_text_never_panics_nor_changes_the_position() {
    let positions = [
        Position::startpos(),
        pos("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
        pos("4k3/8/8/3pP3/8/2n5/8/1N2K3 w - d6 0 2"),
        pos("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1"),
        pos("k7/8/1Q1Q1Q2/8/1Q3Q2/8/1Q1Q1Q2/7K w - - 0 1"),
        pos("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1"),
    ];
    let alphabet: Vec<char> = "KQRBNPkqrbnpabcdefgh123456780xX=+#!?-Oo \t\u{e9}\u{1F600}\0"
        .chars()
        .collect();
    let mut rng = XorShift(0x5A17_F022);
    let mut failures = Vec::new();
    let mut accepted = 0;
    for round in 0..40_000 {
        let position = &positions[round % positions.len()];
        let text: String = if round % 4 == 0 {
            // Arbitrary bytes, read as UTF-8 with replacement characters.
            let bytes: Vec<u8> = (0..rng.below(12)).map(|_| rng.next() as u8).collect();
            String::from_utf8_lossy(&bytes).into_owned()
        } else {
            (0..rng.below(9))
                .map(|_| alphabet[rng.below(alphabet.len())])
                .collect()
        };
        match parse_without_panic(position, &text) {
            Err(panic) => failures.push(panic),
            Ok(Some(_)) => accepted += 1,
            Ok(None) => {}
        }
    }
    // Mutated SAN of legal moves reaches the matching code more often than noise.
    for round in 0..20_000 {
        let position = &positions[round % positions.len()];
        let moves = position.legal_moves();
        let mut chars: Vec<char> = position
            .san(moves[rng.below(moves.len())])
            .chars()
            .collect();
        let at = rng.below(chars.len() + 1);
        let letter = alphabet[rng.below(alphabet.len())];
        match rng.below(3) {
            0 => chars.insert(at, letter),
            1 if at < chars.len() => {
                chars.remove(at);
            }
            _ if at < chars.len() => chars[at] = letter,
            _ => chars.push(letter),
        }
        let text: String = chars.into_iter().collect();
        match parse_without_panic(position, &text) {
            Err(panic) => failures.push(panic),
            Ok(Some(_)) => accepted += 1,
            Ok(None) => {}
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(accepted > 1_000, "only {accepted} random texts were moves");
}
