//! Stockman's SSS* (1979) with an explicit OPEN list, run over the chess tree cut at the
//! iteration depth: the `SSS` driver ([`Algorithm::Sss`](crate::search::Algorithm::Sss)).
//!
//! The Γ operator is the one of the explicit-tree lab (`src/lab/sss.rs`), rule for rule:
//!
//! | rule | state | condition | action |
//! |------|-------|-----------|--------|
//! | 1 | `(J, L, h)` | `J` terminal | add `(J, S, min(h, value(J)))` |
//! | 2 | `(J, L, h)` | `J` a MIN node | add `(J.1, L, h)` |
//! | 3 | `(J, L, h)` | `J` a MAX node | add `(J.j, L, h)` for every child `j` |
//! | 4 | `(J, S, h)` | `J` a MIN node | add `(parent(J), S, h)`; remove every state of a descendant of `parent(J)` |
//! | 5 | `(J, S, h)` | `J` a MAX node, last child | add `(parent(J), S, h)` |
//! | 6 | `(J, S, h)` | otherwise | add `(next sibling of J, L, h)` |
//!
//! OPEN is ordered by `(h descending, node in tree order)`: ties go to the leftmost node, as
//! in the lab. The search stops when the head of OPEN is the solved root.
//!
//! # The tree
//!
//! * The root is MAX (the side to move); levels alternate. Values are from the root player's
//!   view (negamax values negated at odd plies).
//! * A node is named by its path of child indices (Dewey notation), [`Path`].
//! * The children of a node are its legal moves (at the root: the root moves, in the order
//!   the previous iteration left them) in a fixed order: first the move that solved the same
//!   position in an earlier iteration of this search (a hint table written during an
//!   iteration and read only by the next ones, so the order is stable within an iteration),
//!   then captures and promotions as the engine orders root moves, then the rest in
//!   generation order. The order depends only on the position and the frozen hints.
//! * A node at the iteration depth is a leaf; its value is the engine's quiescence search
//!   (searched with the window `(-inf, h)` from the root player's view, which gives
//!   `min(h, value)` exactly, and without TT cutoffs). Above it, a node is terminal when the
//!   engine's node search would score it without searching: a draw by repetition, the 50-move
//!   rule or insufficient material (not at the root), mate (`-MATE + ply`) or stalemate. So
//!   the tree is the one the node search sees with check extensions and all pruning off
//!   (`Features::pure()`), and the values agree (tests/lab_chess.rs).
//!
//! # Cost and limits
//!
//! Rule 4's removal is eager (OPEN keeps a second index by node, so the subtree is one
//! range). There is no transposition table over the tree: a transposed subtree is searched
//! again, as on an explicit tree. Memory is capped at [`SSS_MAX_STATES`] states (changeable with
//! [`Searcher::set_sss_max_states`]); an iteration that needs more is abandoned like a stopped
//! one, and the search keeps the last complete iteration. Paths hold at most [`SSS_MAX_DEPTH`] plies, so deepening stops there.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, HashMap};

use crate::position::{Move, Position};
use crate::search::{DRAW, INFINITE, MATE, RootMove, SearchControl, Searcher, node};
use crate::tt::pack_move;

/// Most states SSS* may hold at once (OPEN plus the bookkeeping of MIN nodes in progress),
/// about 100 bytes each, so some 400 MB at the cap. SSS* keeps the frontier of a solution
/// tree: about `b^ceil(d/2)` states at depth `d` for `b` moves a node, i.e. the cap is
/// reached near depth 8 in the middlegame.
pub const SSS_MAX_STATES: usize = 4_000_000;
/// Most entries of the move-order hint table (about 40 bytes each); beyond it new hints are
/// not recorded (ordering only, no effect on values).
pub const SSS_MAX_HINTS: usize = 4_000_000;
/// Deepest iteration SSS* runs (the length of a [`Path`]).
pub const SSS_MAX_DEPTH: usize = 31;
/// Γ steps between two looks at the stop flag and the clock.
const SSS_POLL_STEPS: u32 = 256;

/// A node of the depth-`d` tree: the child indices from the root (Dewey notation).
///
/// The derived order (indices padded with zeros, then length) is the tree's pre-order:
/// a node precedes its descendants and every node to its right.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Path {
    idx: [u8; SSS_MAX_DEPTH],
    len: u8,
}

impl Path {
    /// The root.
    pub const ROOT: Path = Path {
        idx: [0; SSS_MAX_DEPTH],
        len: 0,
    };

    /// Depth of the node (the root is 0).
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// True for the root.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The child indices from the root.
    pub fn indices(&self) -> &[u8] {
        &self.idx[..self.len()]
    }

    /// Child `i` (the caller keeps the length within [`SSS_MAX_DEPTH`]).
    fn child(&self, i: usize) -> Path {
        let mut p = *self;
        p.idx[p.len()] = i as u8;
        p.len += 1;
        p
    }

    /// The parent (the root is its own parent).
    fn parent(&self) -> Path {
        let mut p = *self;
        if p.len > 0 {
            p.len -= 1;
            p.idx[p.len()] = 0;
        }
        p
    }

    /// Index of the node among its siblings.
    fn last(&self) -> usize {
        self.len
            .checked_sub(1)
            .map_or(0, |l| self.idx[l as usize] as usize)
    }

    /// The next sibling (the caller checks that it exists).
    fn next_sibling(&self) -> Path {
        let mut p = *self;
        if let Some(l) = p.len.checked_sub(1) {
            p.idx[l as usize] += 1;
        }
        p
    }

    /// The greatest possible descendant: every descendant lies in `(self, subtree_end]`.
    fn subtree_end(&self) -> Path {
        let mut p = *self;
        for i in p.len()..SSS_MAX_DEPTH {
            p.idx[i] = u8::MAX;
        }
        p.len = SSS_MAX_DEPTH as u8;
        p
    }

    /// Length of the common prefix of two paths.
    fn common_prefix(&self, other: &Path) -> usize {
        self.indices()
            .iter()
            .zip(other.indices())
            .take_while(|(a, b)| a == b)
            .count()
    }
}

/// Status of a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Status {
    Live,
    Solved,
}

/// The OPEN list: ordered by `(h descending, tree order)`, with a second index by node for
/// rule 4's subtree removal.
#[derive(Default)]
struct Open {
    by_priority: BTreeSet<(Reverse<i32>, Path, Status)>,
    by_node: BTreeSet<(Path, Reverse<i32>, Status)>,
}

impl Open {
    fn insert(&mut self, node: Path, status: Status, h: i32) {
        self.by_priority.insert((Reverse(h), node, status));
        self.by_node.insert((node, Reverse(h), status));
    }

    fn pop_head(&mut self) -> Option<(Path, Status, i32)> {
        let (Reverse(h), node, status) = self.by_priority.pop_first()?;
        self.by_node.remove(&(node, Reverse(h), status));
        Some((node, status, h))
    }

    /// Removes every state of a proper descendant of `node`.
    fn purge_descendants(&mut self, node: &Path) {
        let lo = (*node, Reverse(i32::MIN), Status::Solved);
        let hi = (node.subtree_end(), Reverse(i32::MIN), Status::Solved);
        let doomed: Vec<_> = self.by_node.range(lo..=hi).copied().collect();
        for (n, h, s) in doomed {
            if n != *node {
                self.by_node.remove(&(n, h, s));
                self.by_priority.remove(&(h, n, s));
            }
        }
    }

    fn len(&self) -> usize {
        self.by_priority.len()
    }
}

/// What the `SSS` driver keeps in its [`Searcher`] between iterations.
pub(in crate::search) struct SssState {
    /// The move that solved each position in earlier iterations of this search (packed), for
    /// move ordering.
    hints: HashMap<u64, u16>,
    /// Most states an iteration may hold ([`SSS_MAX_STATES`] by default).
    pub(in crate::search) max_states: usize,
}

impl Default for SssState {
    fn default() -> Self {
        SssState {
            hints: HashMap::new(),
            max_states: SSS_MAX_STATES,
        }
    }
}

impl SssState {
    /// Forgets the hints of the last search (a new search starts).
    pub(in crate::search) fn new_search(&mut self) {
        self.hints.clear();
    }
}

/// What a complete SSS* iteration found.
struct SssOutcome {
    /// The root value (side to move at the root).
    pub value: i32,
    /// Index into the root moves of the child whose solved state solved the root.
    pub best: usize,
}

/// The position at one node of the tree, reached from the root by make/unmake along paths,
/// with the ordered children of every node on the current path.
struct Cursor {
    path: Path,
    /// `children[k]`: ordered moves of the node at depth `k` of `path` (computed on demand;
    /// `children.len() <= path.len() + 1`).
    children: Vec<Vec<Move>>,
}

impl Searcher {
    /// Ordered children of the current node (see the module docs).
    fn sss_order(&self, pos: &Position) -> Vec<Move> {
        let hint = self.sss.hints.get(&pos.key()).copied().unwrap_or(0);
        let mut moves: Vec<Move> = pos.legal_moves().into_iter().collect();
        moves.sort_by_cached_key(|&m| -node::root_order(pos, m, hint));
        moves
    }

    /// Moves the cursor (and `pos`) to `target`; afterwards `cur.children` holds the lists of
    /// every proper ancestor of `target`.
    fn sss_goto(&mut self, pos: &mut Position, cur: &mut Cursor, target: &Path) {
        let keep = cur.path.common_prefix(target);
        while cur.path.len() > keep {
            pos.unmake();
            cur.path = cur.path.parent();
        }
        cur.children.truncate(keep + 1);
        for k in keep..target.len() {
            if cur.children.len() == k {
                let list = self.sss_order(pos);
                cur.children.push(list);
            }
            let m = cur.children[k][target.indices()[k] as usize];
            pos.make(m);
            cur.path = cur.path.child(target.indices()[k] as usize);
        }
    }

    /// Number of children of the node the cursor is at (computing its list if needed).
    fn sss_child_count(&self, pos: &Position, cur: &mut Cursor) -> usize {
        let k = cur.path.len();
        if cur.children.len() == k {
            let list = self.sss_order(pos);
            cur.children.push(list);
        }
        cur.children[k].len()
    }

    /// One SSS* iteration to `depth` over `root_moves` (in their current order). `None` when
    /// the search was stopped or the iteration ran out of memory (then `self.stopped` is set).
    fn sss_iteration(
        &mut self,
        pos: &mut Position,
        root_moves: &[RootMove],
        depth: usize,
        ctl: &SearchControl,
    ) -> Option<SssOutcome> {
        if depth > SSS_MAX_DEPTH || root_moves.is_empty() {
            self.stopped = true;
            return None;
        }
        let mut next_hints: HashMap<u64, u16> = HashMap::new();
        // MIN nodes whose children are being searched: (best child so far, current bound).
        let mut min_nodes: BTreeMap<Path, (usize, i32)> = BTreeMap::new();
        let mut open = Open::default();
        let mut cur = Cursor {
            path: Path::ROOT,
            children: vec![root_moves.iter().map(|rm| rm.mv).collect()],
        };
        let mut best_root_child = 0;
        let mut steps = 0u32;
        open.insert(Path::ROOT, Status::Live, INFINITE);

        let outcome = loop {
            steps = steps.wrapping_add(1);
            if steps.is_multiple_of(SSS_POLL_STEPS) && self.poll_stop(ctl) {
                break None;
            }
            if open.len() + min_nodes.len() > self.sss.max_states {
                self.stopped = true;
                break None;
            }
            self.stats.sss_peak_open = self.stats.sss_peak_open.max(open.len() as u64 + 1);
            // Every rule adds a state, so OPEN is never empty here.
            let Some((j, status, h)) = open.pop_head() else {
                break None;
            };
            if status == Status::Solved && j.is_empty() {
                break Some(SssOutcome {
                    value: h,
                    best: best_root_child,
                });
            }
            let ply = j.len();
            let max_node = ply % 2 == 0;
            match status {
                Status::Live => {
                    self.sss_goto(pos, &mut cur, &j);
                    if ply > 0 {
                        self.stats.nodes += 1;
                    }
                    if ply == depth {
                        // Rule 1 at a leaf: quiescence with the window (-inf, h) in the root
                        // player's view.
                        self.stats.leaves += 1;
                        let v = if max_node {
                            self.quiescence::<false>(pos, -INFINITE, h, ply, ctl)
                        } else {
                            -self.quiescence::<false>(pos, -h, INFINITE, ply, ctl)
                        };
                        if self.stopped {
                            break None;
                        }
                        open.insert(j, Status::Solved, h.min(v));
                        continue;
                    }
                    if ply > 0 {
                        self.stats.interior += 1;
                    }
                    if let Some(v) = self.sss_terminal(pos, &mut cur, ply) {
                        // Rule 1 at a terminal interior node.
                        let v = if max_node { v } else { -v };
                        open.insert(j, Status::Solved, h.min(v));
                        continue;
                    }
                    self.stats.sss_expansions += 1;
                    if max_node {
                        // Rule 3: every child.
                        for i in 0..self.sss_child_count(pos, &mut cur) {
                            open.insert(j.child(i), Status::Live, h);
                        }
                    } else {
                        // Rule 2: the first child.
                        open.insert(j.child(0), Status::Live, h);
                        min_nodes.insert(j, (0, h));
                    }
                }
                Status::Solved => {
                    let parent = j.parent();
                    self.sss_goto(pos, &mut cur, &parent);
                    let n = self.sss_child_count(pos, &mut cur);
                    let mv = cur.children[ply - 1][j.last()];
                    if !max_node {
                        // Rule 4: a MIN node solved its MAX parent.
                        open.purge_descendants(&parent);
                        let end = parent.subtree_end();
                        let doomed: Vec<Path> = min_nodes
                            .range(parent..=end)
                            .map(|(p, _)| *p)
                            .filter(|p| *p != parent)
                            .collect();
                        for p in doomed {
                            min_nodes.remove(&p);
                        }
                        open.insert(parent, Status::Solved, h);
                        if parent.is_empty() {
                            best_root_child = j.last();
                        }
                        if next_hints.len() < SSS_MAX_HINTS {
                            next_hints.insert(pos.key(), pack_move(mv));
                        }
                    } else {
                        // A MAX child of a MIN node: note whether it lowered the bound.
                        let best = match min_nodes.get_mut(&parent) {
                            Some(t) => {
                                if h < t.1 {
                                    t.0 = j.last();
                                }
                                t.1 = h;
                                t.0
                            }
                            None => j.last(),
                        };
                        if j.last() + 1 < n {
                            // Rule 6: the next sibling.
                            open.insert(j.next_sibling(), Status::Live, h);
                        } else {
                            // Rule 5: the last child solved its MIN parent.
                            min_nodes.remove(&parent);
                            open.insert(parent, Status::Solved, h);
                            if next_hints.len() < SSS_MAX_HINTS {
                                let m = cur.children[ply - 1][best];
                                next_hints.insert(pos.key(), pack_move(m));
                            }
                        }
                    }
                }
            }
        };
        // Back to the root position.
        let root = Path::ROOT;
        self.sss_goto(pos, &mut cur, &root);
        if outcome.is_some() {
            if self.sss.hints.len() + next_hints.len() > SSS_MAX_HINTS {
                self.sss.hints = next_hints;
            } else {
                self.sss.hints.extend(next_hints);
            }
        }
        outcome
    }

    /// Score of an interior node the node search would not search (side to move's view):
    /// a draw by rule (except at the root), mate or stalemate.
    fn sss_terminal(&mut self, pos: &Position, cur: &mut Cursor, ply: usize) -> Option<i32> {
        if ply > 0
            && (pos.is_repetition(self.root_ply)
                || pos.is_fifty_move_draw()
                || pos.is_insufficient_material())
        {
            return Some(DRAW);
        }
        if self.sss_child_count(pos, cur) == 0 {
            return Some(if pos.is_check() {
                -MATE + ply as i32
            } else {
                DRAW
            });
        }
        None
    }

    /// The SSS driver's iteration: runs SSS*, puts the best move first with the value and a
    /// PV read from the hint table.
    pub(in crate::search) fn sss(
        &mut self,
        pos: &mut Position,
        root_moves: &mut [RootMove],
        depth: i32,
        ctl: &SearchControl,
    ) {
        self.stats.root_searches += 1;
        let Some(out) = self.sss_iteration(pos, root_moves, depth.max(1) as usize, ctl) else {
            return;
        };
        root_moves[..=out.best].rotate_right(1);
        for rm in root_moves.iter_mut() {
            rm.score = -INFINITE;
        }
        let first = root_moves[0].mv;
        root_moves[0].score = out.value;
        root_moves[0].pv = self.sss_pv(pos, first, depth.max(1) as usize);
    }

    /// `first`, then at each position the hinted move (the move that solved it) or else the
    /// TT move, up to `max_len` moves.
    fn sss_pv(&self, pos: &mut Position, first: Move, max_len: usize) -> Vec<Move> {
        let mut pv = vec![first];
        pos.make(first);
        while pv.len() < max_len && !pos.is_repetition(self.root_ply) {
            let hinted = self.sss.hints.get(&pos.key()).copied();
            let from_tt = || self.tt.probe(pos.key()).map(|e| e.mv);
            let Some(m) = hinted.or_else(from_tt).and_then(|p| pos.unpack_move(p)) else {
                break;
            };
            pv.push(m);
            pos.make(m);
        }
        for _ in 0..pv.len() {
            pos.unmake();
        }
        pv
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(ix: &[u8]) -> Path {
        let mut p = Path::ROOT;
        for &i in ix {
            p = p.child(i as usize);
        }
        p
    }

    #[test]
    fn path_order_is_pre_order() {
        let order = [
            path(&[]),
            path(&[0]),
            path(&[0, 0]),
            path(&[0, 0, 0]),
            path(&[0, 1]),
            path(&[0, 200, 3]),
            path(&[1]),
            path(&[1, 0]),
            path(&[2]),
        ];
        for w in order.windows(2) {
            assert!(w[0] < w[1], "{:?} < {:?}", w[0].indices(), w[1].indices());
        }
        let p = path(&[0, 1]);
        assert!(path(&[0, 1, 255, 255]) <= p.subtree_end());
        assert!(path(&[0, 2]) > p.subtree_end());
        assert_eq!(p.parent(), path(&[0]));
        assert_eq!(p.next_sibling(), path(&[0, 2]));
        assert_eq!(p.common_prefix(&path(&[0, 1, 4])), 2);
        assert_eq!(p.common_prefix(&path(&[1])), 0);
    }

    #[test]
    fn purge_removes_only_proper_descendants() {
        let mut open = Open::default();
        for (p, h) in [
            (path(&[0]), 5),
            (path(&[0, 1]), 9),
            (path(&[0, 1, 2]), 3),
            (path(&[1]), 7),
        ] {
            open.insert(p, Status::Live, h);
        }
        open.purge_descendants(&path(&[0]));
        assert_eq!(open.len(), 2);
        assert_eq!(open.pop_head(), Some((path(&[1]), Status::Live, 7)));
        assert_eq!(open.pop_head(), Some((path(&[0]), Status::Live, 5)));
    }

    #[test]
    fn ties_go_to_the_leftmost_node() {
        let mut open = Open::default();
        open.insert(path(&[2]), Status::Solved, 4);
        open.insert(path(&[0, 3]), Status::Live, 4);
        open.insert(path(&[1]), Status::Live, 6);
        assert_eq!(open.pop_head().map(|s| s.0), Some(path(&[1])));
        assert_eq!(open.pop_head().map(|s| s.0), Some(path(&[0, 3])));
        assert_eq!(open.pop_head().map(|s| s.0), Some(path(&[2])));
    }
}
