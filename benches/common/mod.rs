//! What every bench shares: the published rows of `tests/data/perft/cpw_perft_results.csv`,
//! so each measurement asserts counts from data rather than from an earlier run, and the
//! engine path that `engine.rs` times and `instructions.rs` counts.

/// One published row: the position's FEN and its cells, nodes first (`None` where the CSV
/// leaves a statistic unpublished).
pub struct Published {
    /// The position, as the CSV gives it.
    pub fen: String,
    /// nodes, captures, e.p., castles, promotions, checks, discovered, double checks, mates.
    pub cells: Vec<Option<u64>>,
}

impl Published {
    /// The published node count.
    pub fn nodes(&self) -> u64 {
        self.cells[0].expect("every row publishes its node count")
    }
}

/// Perft data file `name` in the project's `tests/data/perft/`. The benches are built by
/// crates/constmove-benches and (the instruction counts) by crates/instruction-gate: the
/// project root is whichever ancestor of theirs holds the data.
fn data_file(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .map(|dir| dir.join("tests/data/perft").join(name))
        .find(|path| path.exists())
        .unwrap_or_else(|| panic!("no tests/data/perft/{name} in the project root"))
}

/// The row of CSV position `id` at `depth`; panics naming the file when it is missing.
pub fn published(id: &str, depth: u32) -> Published {
    let path = data_file("cpw_perft_results.csv");
    let path = path.display();
    let csv = std::fs::read_to_string(path.to_string()).expect("read cpw_perft_results.csv");
    csv.lines()
        .skip(1)
        .map(|line| line.split(',').collect::<Vec<_>>())
        .find(|cells| cells[0] == id && cells[2] == depth.to_string())
        .map(|cells| Published {
            fen: cells[1].to_string(),
            cells: cells[3..].iter().map(|cell| cell.parse().ok()).collect(),
        })
        .unwrap_or_else(|| panic!("position {id} depth {depth} is not in {path}"))
}

/// The first `count` lines of `tests/data/perft/fischer.epd` (Chess960 start positions): each
/// FEN with its published count at `depth`.
#[allow(dead_code, reason = "used by the perft bench only")]
pub fn fischer(count: usize, depth: u32) -> Vec<(String, u64)> {
    let path = data_file("fischer.epd");
    let text = std::fs::read_to_string(&path).expect("read fischer.epd");
    let field = format!("D{depth} ");
    text.lines()
        .take(count)
        .map(|line| {
            let mut parts = line.split(';');
            let fen = parts.next().expect("a FEN").trim().to_string();
            let nodes = parts
                .find_map(|part| part.trim().strip_prefix(&field))
                .and_then(|nodes| nodes.trim().parse().ok())
                .unwrap_or_else(|| panic!("no depth {depth} count in {line}"));
            (fen, nodes)
        })
        .collect()
}

/// The engine path: `legal_moves` and a copy played with `play_unchecked` at every node
/// (perft without bulk counting).
#[allow(dead_code, reason = "used by the engine and instruction benches only")]
pub fn make_every_move(position: &constmove::Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    for mv in position.legal_moves().iter() {
        let mut child = position.clone();
        child.play_unchecked(*mv);
        nodes += make_every_move(&child, depth - 1);
    }
    nodes
}

/// `count` positions from fixed-seed random play (xorshift64*, games of up to 100 plies from
/// the start, captures preferred half the time so games open up): the positions the
/// noisy-against-full generation benches run on. Mates and stalemates are left out.
#[allow(dead_code, reason = "used by the engine and instruction benches only")]
pub fn random_play(count: usize) -> Vec<constmove::Position> {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move |n: usize| {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        (state.wrapping_mul(0x2545_F491_4F6C_DD1D) % n as u64) as usize
    };
    let mut positions = Vec::with_capacity(count);
    while positions.len() < count {
        let mut position = constmove::Position::startpos();
        for _ in 0..100 {
            let moves = position.legal_moves();
            if moves.is_empty() || positions.len() == count {
                break;
            }
            positions.push(position.clone());
            let occupied = position.board().occupied();
            let captures: Vec<constmove::Move> = moves
                .iter()
                .copied()
                .filter(|mv| occupied.contains(mv.to()))
                .collect();
            let mv = if !captures.is_empty() && next(2) == 0 {
                captures[next(captures.len())]
            } else {
                moves[next(moves.len())]
            };
            position.play_unchecked(mv);
        }
    }
    positions
}

/// Counts the root's children (each one made) under a mask.
#[allow(dead_code, reason = "used by the engine and instruction benches only")]
pub struct CountChildren(pub u64);

impl constmove::walk::Children for CountChildren {
    #[inline(always)]
    fn child<C: constmove::walk::StatusFlags>(
        &mut self,
        _: constmove::walk::Node<'_, C>,
        _: constmove::Move,
    ) {
        self.0 += 1;
    }
}

/// [`CountChildren`] from the root.
#[allow(dead_code, reason = "used by the engine and instruction benches only")]
pub struct ChildrenWalk(pub constmove::MoveMask);

impl constmove::walk::Walk for ChildrenWalk {
    type Output = u64;
    fn walk<S: constmove::walk::StatusFlags, G: constmove::walk::Generator>(
        self,
        root: constmove::walk::Node<'_, S>,
    ) -> u64 {
        let mut count = CountChildren(0);
        G::children_masked(root, self.0, &mut count);
        count.0
    }
}
