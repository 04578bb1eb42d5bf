//! Helpers shared by the integration tests: locating, decompressing and parsing the public
//! perft data in `tests/data/perft/`, and checking expected counts on one or both slider
//! backends with every mismatch collected before the test fails.
//!
//! Every parser panics with the file name and line number on a line it does not understand,
//! and every loader panics when a file is missing or yields no entries, so a test can never
//! pass by checking nothing.

use constmove::{Backend, Board, Color, PerftOptions, Piece, Position, Square};
use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The directory holding the test data (`perft/`, `san/`; see its README.md).
pub const TEST_DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");

/// The path of perft data file `name`.
pub fn data_path(name: &str) -> PathBuf {
    PathBuf::from(TEST_DATA).join("perft").join(name)
}

/// The text of the file at `path`, gunzipped when its name ends in `.gz`; panics (failing
/// the test) when it cannot be read.
pub fn read_text(path: &Path) -> String {
    let read = || -> std::io::Result<String> {
        let bytes = std::fs::read(path)?;
        if path.extension().is_some_and(|ext| ext == "gz") {
            let mut text = String::new();
            flate2::read::GzDecoder::new(&bytes[..]).read_to_string(&mut text)?;
            Ok(text)
        } else {
            String::from_utf8(bytes).map_err(std::io::Error::other)
        }
    };
    read().unwrap_or_else(|err| panic!("cannot read test data file {}: {err}", path.display()))
}

/// The text of perft data file `name` (see [`read_text`]).
pub fn read_data(name: &str) -> String {
    read_text(&data_path(name))
}

/// A position and the node counts the data file gives for it.
#[derive(Clone, Debug)]
pub struct PerftEntry {
    /// Where it comes from: file and line, plus the id or name when the file gives one.
    pub origin: String,
    /// The FEN (or EPD's first four fields) exactly as written in the file.
    pub fen: String,
    /// `(depth, nodes)` pairs in file order.
    pub counts: Vec<(u32, u64)>,
}

/// One expected count: a position, a depth and the published number of leaves.
#[derive(Clone, Debug)]
pub struct PerftCase {
    /// Where it comes from (see [`PerftEntry::origin`]).
    pub origin: String,
    /// The FEN as written in the file.
    pub fen: String,
    /// The perft depth.
    pub depth: u32,
    /// The published node count.
    pub nodes: u64,
}

impl PerftEntry {
    /// The entry's counts as separate cases.
    pub fn cases(&self) -> impl Iterator<Item = PerftCase> + '_ {
        self.counts.iter().map(|&(depth, nodes)| PerftCase {
            origin: self.origin.clone(),
            fen: self.fen.clone(),
            depth,
            nodes,
        })
    }
}

/// Every case of `entries` for which `keep(depth, nodes)` holds.
pub fn select_cases(entries: &[PerftEntry], keep: impl Fn(u32, u64) -> bool) -> Vec<PerftCase> {
    entries
        .iter()
        .flat_map(PerftEntry::cases)
        .filter(|case| keep(case.depth, case.nodes))
        .collect()
}

fn parse_number<T: std::str::FromStr>(text: &str, what: &str, file: &str, line: usize) -> T {
    match text.trim().parse() {
        Ok(value) => value,
        Err(_) => panic!("{file}:{line}: cannot parse {what} from {text:?}"),
    }
}

/// Parses an EPD perft suite: `FEN ;D1 n ;D2 n ...` per line. The space before a `;` is
/// optional (`perftsuite_extras.epd` has `11139762;D6`). Blank lines and `#` comments are
/// skipped.
pub fn parse_epd(text: &str, file: &str) -> Vec<PerftEntry> {
    let mut entries = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line_no = index + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split(';');
        let fen = parts.next().unwrap_or_default().trim().to_owned();
        let mut counts = Vec::new();
        for part in parts {
            let part = part.trim();
            if part.is_empty() {
                continue;
            }
            let Some(rest) = part.strip_prefix('D') else {
                panic!("{file}:{line_no}: expected `D<depth> <nodes>`, found {part:?}");
            };
            let mut words = rest.split_whitespace();
            let (Some(depth), Some(nodes), None) = (words.next(), words.next(), words.next())
            else {
                panic!("{file}:{line_no}: expected `D<depth> <nodes>`, found {part:?}");
            };
            counts.push((
                parse_number(depth, "depth", file, line_no),
                parse_number(nodes, "node count", file, line_no),
            ));
        }
        assert!(
            !fen.is_empty() && !counts.is_empty(),
            "{file}:{line_no}: a line needs a FEN and at least one count: {line:?}"
        );
        entries.push(PerftEntry {
            origin: format!("{file}:{line_no}"),
            fen,
            counts,
        });
    }
    entries
}

/// Parses the `id NAME` / `epd FEN` / `perft D N` format of `marcelk_perft_random.perft.gz`
/// and `shakmaty_tricky.perft`. `#` starts a comment line.
pub fn parse_perft_blocks(text: &str, file: &str) -> Vec<PerftEntry> {
    let mut entries: Vec<PerftEntry> = Vec::new();
    let mut id: Option<String> = None;
    for (index, line) in text.lines().enumerate() {
        let line_no = index + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (keyword, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        match keyword {
            "id" => id = Some(rest.to_owned()),
            "epd" => {
                assert!(!rest.is_empty(), "{file}:{line_no}: `epd` without a FEN");
                let name = id.take().unwrap_or_else(|| "(no id)".to_owned());
                entries.push(PerftEntry {
                    origin: format!("{file}:{line_no} ({name})"),
                    fen: rest.to_owned(),
                    counts: Vec::new(),
                });
            }
            "perft" => {
                let Some(entry) = entries.last_mut() else {
                    panic!("{file}:{line_no}: `perft` before any `epd`");
                };
                let mut words = rest.split_whitespace();
                let (Some(depth), Some(nodes), None) = (words.next(), words.next(), words.next())
                else {
                    panic!("{file}:{line_no}: expected `perft <depth> <nodes>`: {line:?}");
                };
                entry.counts.push((
                    parse_number(depth, "depth", file, line_no),
                    parse_number(nodes, "node count", file, line_no),
                ));
            }
            _ => panic!("{file}:{line_no}: unknown line {line:?}"),
        }
    }
    for entry in &entries {
        assert!(
            !entry.counts.is_empty(),
            "{}: position without perft counts",
            entry.origin
        );
    }
    entries
}

/// Splits one CSV record into fields (RFC 4180 quoting: `"a,b"` and `""` inside quotes).
pub fn split_csv_record(line: &str) -> Vec<String> {
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            '"' => quoted = !quoted,
            ',' if !quoted => fields.push(std::mem::take(&mut field)),
            _ => field.push(c),
        }
    }
    fields.push(field);
    fields
}

/// Whether `field` looks like a FEN: its first word is a placement of eight ranks.
fn looks_like_fen(field: &str) -> bool {
    field
        .split_whitespace()
        .next()
        .is_some_and(|placement| placement.split('/').count() == 8)
}

/// Parses `tricky_positions.csv` (`set,name,fen,depth,nodes,source`): one entry per row.
/// Quoted fields are honoured; should an unquoted name or source contain commas, the FEN
/// is found as the first field after the set that looks like a placement, the two fields
/// after it are the depth and count, and the rest are joined back into the source.
pub fn parse_tricky_csv(text: &str, file: &str) -> Vec<PerftEntry> {
    let mut lines = text.lines().enumerate();
    let header = lines
        .next()
        .map(|(_, line)| line.trim())
        .unwrap_or_default();
    assert_eq!(
        split_csv_record(header),
        ["set", "name", "fen", "depth", "nodes", "source"],
        "{file}: unexpected header"
    );
    let mut entries = Vec::new();
    for (index, line) in lines {
        let line_no = index + 1;
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let fields = split_csv_record(line);
        let Some(fen_at) = (2..fields.len()).find(|&i| looks_like_fen(&fields[i])) else {
            panic!("{file}:{line_no}: no FEN field in {line:?}");
        };
        assert!(
            fields.len() >= fen_at + 3,
            "{file}:{line_no}: depth and nodes missing after the FEN in {line:?}"
        );
        let name = fields[1..fen_at].join(",");
        let depth = parse_number(&fields[fen_at + 1], "depth", file, line_no);
        let nodes = parse_number(&fields[fen_at + 2], "node count", file, line_no);
        entries.push(PerftEntry {
            origin: format!("{file}:{line_no} ({}: {name})", fields[0]),
            fen: fields[fen_at].trim().to_owned(),
            counts: vec![(depth, nodes)],
        });
    }
    entries
}

/// Reads and parses data file `name` with `parse`, failing when it yields no entries.
pub fn load(name: &str, parse: fn(&str, &str) -> Vec<PerftEntry>) -> Vec<PerftEntry> {
    let entries = parse(&read_data(name), name);
    assert!(!entries.is_empty(), "{name}: no entries parsed");
    entries
}

/// The backends every count is checked on: `Magic` always, `Pext` when this CPU runs it
/// (a note is printed when it is skipped).
pub fn backends() -> Vec<Backend> {
    let mut backends = vec![Backend::Magic];
    match Backend::Pext.resolve() {
        Ok(_) => backends.push(Backend::Pext),
        Err(err) => eprintln!("note: skipping the PEXT backend: {err}"),
    }
    backends
}

/// A count that did not match the data.
#[derive(Clone, Debug)]
pub struct Mismatch {
    /// Where the expected count comes from.
    pub origin: String,
    /// The FEN.
    pub fen: String,
    /// The perft depth.
    pub depth: u32,
    /// The published count.
    pub expected: u64,
    /// What constmove returned, or why it returned nothing.
    pub got: Result<u64, String>,
    /// The backend that was asked.
    pub backend: Backend,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: fen {:?} depth {} backend {}: expected {}, got ",
            self.origin, self.fen, self.depth, self.backend, self.expected
        )?;
        match &self.got {
            Ok(nodes) => {
                let diff = *nodes as i128 - self.expected as i128;
                write!(f, "{nodes} (difference {diff:+})")
            }
            Err(err) => write!(f, "error: {err}"),
        }
    }
}

/// What a run of [`check_cases`] did.
#[derive(Debug, Default)]
pub struct CheckReport {
    /// Counts compared (one per case and backend).
    pub checked: usize,
    /// Leaves counted in all, summed over the backends.
    pub nodes: u64,
    /// Every count that differed from the data.
    pub mismatches: Vec<Mismatch>,
}

/// How many worker threads [`check_cases`] uses: 2 (the CI machines have two cores), or 1
/// where only one is available.
pub fn worker_threads() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get().min(2))
}

/// Checks every case on every backend, sharing the work between [`worker_threads`] threads
/// (largest counts first so the threads finish together). Mismatches are collected, never
/// panicked on; FENs that do not parse are mismatches too.
pub fn check_cases(cases: &[PerftCase], backends: &[Backend]) -> CheckReport {
    let mut jobs: Vec<(usize, Backend)> = (0..cases.len())
        .flat_map(|case| backends.iter().map(move |&backend| (case, backend)))
        .collect();
    jobs.sort_by_key(|&(case, _)| std::cmp::Reverse(cases[case].nodes));
    let next = AtomicUsize::new(0);
    let report = Mutex::new(CheckReport::default());
    std::thread::scope(|scope| {
        for _ in 0..worker_threads() {
            scope.spawn(|| {
                let mut local = CheckReport::default();
                while let Some(&(index, backend)) = jobs.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let case = &cases[index];
                    let got = match Position::from_fen(&case.fen) {
                        Err(err) => Err(format!("FEN rejected: {err}")),
                        Ok(position) => PerftOptions::new()
                            .backend(backend)
                            .perft(&position, case.depth)
                            .map_err(|err| err.to_string()),
                    };
                    local.checked += 1;
                    if let Ok(nodes) = got {
                        local.nodes += nodes;
                    }
                    if got != Ok(case.nodes) {
                        local.mismatches.push(Mismatch {
                            origin: case.origin.clone(),
                            fen: case.fen.clone(),
                            depth: case.depth,
                            expected: case.nodes,
                            got,
                            backend,
                        });
                    }
                }
                let mut report = report.lock().unwrap_or_else(|poison| poison.into_inner());
                report.checked += local.checked;
                report.nodes += local.nodes;
                report.mismatches.append(&mut local.mismatches);
            });
        }
    });
    let mut report = report
        .into_inner()
        .unwrap_or_else(|poison| poison.into_inner());
    report
        .mismatches
        .sort_by(|a, b| (&a.origin, a.depth).cmp(&(&b.origin, b.depth)));
    report
}

/// Checks `cases` on every available backend, prints a summary under `label`, and fails
/// listing every mismatch. Fails as well when there is nothing to check.
pub fn assert_cases(label: &str, cases: &[PerftCase]) {
    assert!(!cases.is_empty(), "{label}: no counts selected");
    let backends = backends();
    let start = std::time::Instant::now();
    let report = check_cases(cases, &backends);
    let names: Vec<&str> = backends.iter().map(|b| b.name()).collect();
    println!(
        "{label}: {} counts x backends {names:?} = {} checks, {} leaves, {:.2?}",
        cases.len(),
        report.checked,
        report.nodes,
        start.elapsed()
    );
    assert_eq!(report.checked, cases.len() * backends.len());
    if !report.mismatches.is_empty() {
        let shown = 200;
        let mut message = format!(
            "{label}: {} of {} checks differ from the data:\n",
            report.mismatches.len(),
            report.checked
        );
        for mismatch in report.mismatches.iter().take(shown) {
            message.push_str(&format!("  {mismatch}\n"));
        }
        if report.mismatches.len() > shown {
            message.push_str(&format!(
                "  ... and {} more\n",
                report.mismatches.len() - shown
            ));
        }
        panic!("{message}");
    }
}

/// xorshift64* with a fixed seed: reproducible random play and fuzzing, no dependency.
pub struct XorShift(pub u64);

impl XorShift {
    /// The next 64 pseudo-random bits.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number below `n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// One of `moves` at random; half the time one of those `preferred` picks, if any
    /// (random play alone rarely reaches the moves a test is about).
    pub fn pick_preferring<T: Copy>(
        &mut self,
        moves: &[T],
        preferred: impl FnMut(&T) -> bool,
    ) -> T {
        let favoured: Vec<T> = moves.iter().copied().filter(preferred).collect();
        if !favoured.is_empty() && self.below(2) == 0 {
            favoured[self.below(favoured.len())]
        } else {
            moves[self.below(moves.len())]
        }
    }
}

// ---------------------------------------------------------------------------------------
// Piece geometry for the tests' reference generators, written out here rather than taken
// from the library, so that a wrong table there cannot hide in both.
// ---------------------------------------------------------------------------------------

/// Knight jumps as (file step, rank step).
pub const KNIGHT_STEPS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
/// King steps as (file step, rank step).
pub const KING_STEPS: [(i32, i32); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];
/// Rook directions.
pub const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
/// Bishop directions.
pub const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// `square` moved by `df` files and `dr` ranks, if still on the board.
pub fn offset(square: Square, df: i32, dr: i32) -> Option<Square> {
    let file = i32::from(square.file()) + df;
    let rank = i32::from(square.rank()) + dr;
    ((0..8).contains(&file) && (0..8).contains(&rank))
        .then(|| Square::from_file_rank(file as u8, rank as u8).unwrap())
}

/// The squares of `by`'s pieces that attack `square`, by walking from it.
pub fn attackers(board: &Board, square: Square, by: Color) -> Vec<Square> {
    let mut found = Vec::new();
    let is = |at: Square, piece: Piece| board.piece_at(at) == Some((by, piece));
    // A white pawn attacks upwards, so it stands one rank below the square.
    let pawn_rank = if by == Color::White { -1 } else { 1 };
    for df in [-1, 1] {
        if let Some(at) = offset(square, df, pawn_rank)
            && is(at, Piece::Pawn)
        {
            found.push(at);
        }
    }
    for (df, dr) in KNIGHT_STEPS {
        if let Some(at) = offset(square, df, dr)
            && is(at, Piece::Knight)
        {
            found.push(at);
        }
    }
    for (df, dr) in KING_STEPS {
        if let Some(at) = offset(square, df, dr)
            && is(at, Piece::King)
        {
            found.push(at);
        }
    }
    for (dirs, slider) in [(ROOK_DIRS, Piece::Rook), (BISHOP_DIRS, Piece::Bishop)] {
        for (df, dr) in dirs {
            let mut at = square;
            while let Some(next) = offset(at, df, dr) {
                if let Some(found_piece) = board.piece_at(next) {
                    if found_piece == (by, slider) || found_piece == (by, Piece::Queen) {
                        found.push(next);
                    }
                    break;
                }
                at = next;
            }
        }
    }
    found
}
