//! Explicit game trees: the tree type, a small hand-written JSON reader for
//! nested integer arrays, and node naming (Dewey notation or letters).
//!
//! A tree is written as JSON nested arrays: an array is an interior node whose
//! elements are its children in left-to-right order, an integer is a leaf.
//! The root is a MAX node and levels alternate MAX/MIN, so a node at even depth
//! is MAX and a node at odd depth is MIN, whether it is a leaf or not. Leaves
//! can occur at any depth. A bare integer is a (degenerate) tree whose root is
//! a leaf.
//!
//! Nodes are stored in pre-order (depth-first, left to right), so a [`NodeId`]
//! orders nodes exactly as "left-to-right order of nodes" in the tree: an
//! ancestor comes before its descendants, and of two unrelated nodes the one
//! further left comes first. The descendants of a node form the contiguous id
//! range `id + 1 ..= subtree_end(id)`.

use std::fmt;

/// A minimax value. Leaf values are `i32` integers stored as `i64`, so that the
/// infinities [`INF`]/`-INF` and the `± 1` steps of the null-window drivers
/// can never overflow.
pub type Value = i64;

/// "Infinity": strictly larger than every leaf value, also after adding or
/// subtracting small amounts. Printed as `inf` / `-inf`.
pub const INF: Value = 1 << 40;

/// Index of a node in a [`Tree`]; node ids follow pre-order, the root is 0.
/// A `NodeId` identifies a Dewey path one-to-one (see [`Tree::dewey`],
/// [`Tree::find_dewey`]).
pub type NodeId = usize;

/// Maximum nesting depth accepted by the reader (root is depth 0). Guards the
/// recursive algorithms against stack exhaustion on hostile input.
pub const MAX_DEPTH: usize = 256;

/// Whether a node belongs to the maximising or the minimising player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NodeKind {
    /// The player to move maximises (even depth; the root).
    Max,
    /// The player to move minimises (odd depth).
    Min,
}

impl NodeKind {
    /// The other player.
    pub fn opposite(self) -> NodeKind {
        match self {
            NodeKind::Max => NodeKind::Min,
            NodeKind::Min => NodeKind::Max,
        }
    }
}

/// How nodes are named when printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Naming {
    /// Dewey notation: root `e`, children `1`, `2`, …, grandchildren `1.1`, ….
    #[default]
    Dewey,
    /// Letters in breadth-first order: root `a`, then `b`, `c`, … level by
    /// level, left to right. After `z` the names continue `aa`, `ab`, …, `az`,
    /// `ba`, … (bijective base 26, like spreadsheet columns).
    Letters,
}

impl Naming {
    /// Parses `dewey` or `letters` (case-insensitive).
    pub fn parse(s: &str) -> Result<Naming, String> {
        match s.to_ascii_lowercase().as_str() {
            "dewey" => Ok(Naming::Dewey),
            "letters" | "letter" => Ok(Naming::Letters),
            _ => Err(format!(
                "unknown naming '{s}' (expected 'dewey' or 'letters')"
            )),
        }
    }
}

/// A tree given by value, convenient for building trees in code (tests,
/// generators). Convert with [`Tree::from_spec`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TreeSpec {
    /// A leaf with its static value.
    Leaf(i32),
    /// An interior node with its children, left to right (must be non-empty).
    Node(Vec<TreeSpec>),
}

impl TreeSpec {
    /// Writes the spec as compact JSON (`[[1,2],3]`). Recursive: meant for
    /// specs of reasonable depth.
    pub fn to_json(&self) -> String {
        let mut out = String::new();
        self.write_json(&mut out);
        out
    }

    fn write_json(&self, out: &mut String) {
        match self {
            TreeSpec::Leaf(v) => out.push_str(&v.to_string()),
            TreeSpec::Node(children) => {
                out.push('[');
                for (i, c) in children.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    c.write_json(out);
                }
                out.push(']');
            }
        }
    }
}

/// Error from reading a tree: a message and the byte offset in the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// Byte offset in the input where the problem was detected.
    pub offset: usize,
    /// Human-readable description.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at byte {})", self.message, self.offset)
    }
}

impl std::error::Error for ParseError {}

#[derive(Clone, Debug)]
struct Node {
    parent: Option<NodeId>,
    children: Vec<NodeId>,
    depth: usize,
    /// 1-based position among the siblings (the root has 1).
    ordinal: usize,
    /// Static value if this is a leaf.
    value: Option<Value>,
    /// Last node id of the subtree rooted here (inclusive, pre-order).
    end: NodeId,
    /// Rank in breadth-first order (root 0), for letter names.
    bfs_rank: usize,
}

/// An explicit game tree with MAX root and alternating levels.
///
/// Build one with [`Tree::from_json`] or [`Tree::from_spec`].
#[derive(Clone, Debug)]
pub struct Tree {
    nodes: Vec<Node>,
    leaves: Vec<NodeId>,
}

/// Incremental pre-order builder shared by the JSON reader and `from_spec`.
struct Builder {
    nodes: Vec<Node>,
    /// Open interior nodes, innermost last.
    open: Vec<NodeId>,
    done: bool,
}

impl Builder {
    fn new() -> Builder {
        Builder {
            nodes: Vec::new(),
            open: Vec::new(),
            done: false,
        }
    }

    fn add(&mut self, value: Option<Value>) -> Result<NodeId, String> {
        if self.done {
            return Err("unexpected content after the end of the tree".into());
        }
        let id = self.nodes.len();
        let parent = self.open.last().copied();
        let depth = self.open.len();
        if depth > MAX_DEPTH {
            return Err(format!("tree deeper than {MAX_DEPTH} levels"));
        }
        let ordinal = match parent {
            Some(p) => {
                self.nodes[p].children.push(id);
                self.nodes[p].children.len()
            }
            None => 1,
        };
        self.nodes.push(Node {
            parent,
            children: Vec::new(),
            depth,
            ordinal,
            value,
            end: id,
            bfs_rank: 0,
        });
        Ok(id)
    }

    fn leaf(&mut self, v: i32) -> Result<(), String> {
        let id = self.add(Some(Value::from(v)))?;
        if self.open.is_empty() {
            // The whole tree is a single leaf.
            self.nodes[id].end = id;
            self.done = true;
        }
        Ok(())
    }

    fn open(&mut self) -> Result<(), String> {
        let id = self.add(None)?;
        self.open.push(id);
        Ok(())
    }

    fn close(&mut self) -> Result<(), String> {
        let Some(id) = self.open.pop() else {
            return Err("unbalanced ']'".into());
        };
        if self.nodes[id].children.is_empty() {
            return Err("empty array: an interior node needs at least one child".into());
        }
        self.nodes[id].end = self.nodes.len() - 1;
        if self.open.is_empty() {
            self.done = true;
        }
        Ok(())
    }

    fn finish(self) -> Result<Tree, String> {
        if !self.done || !self.open.is_empty() {
            return Err("unexpected end of input: unclosed '['".into());
        }
        Ok(Tree::from_nodes(self.nodes))
    }
}

impl Tree {
    /// The root's id (always 0).
    pub const ROOT: NodeId = 0;

    fn from_nodes(mut nodes: Vec<Node>) -> Tree {
        // Breadth-first ranks for letter names.
        let mut queue = std::collections::VecDeque::new();
        let mut rank = 0;
        if !nodes.is_empty() {
            queue.push_back(Tree::ROOT);
        }
        while let Some(n) = queue.pop_front() {
            nodes[n].bfs_rank = rank;
            rank += 1;
            queue.extend(nodes[n].children.iter().copied());
        }
        let leaves = (0..nodes.len())
            .filter(|&n| nodes[n].value.is_some())
            .collect();
        Tree { nodes, leaves }
    }

    /// Reads a tree from JSON nested integer arrays, e.g. `[[5,-2,3],[1,-5,7]]`.
    ///
    /// Errors (never panics) on malformed JSON, empty arrays, non-integer
    /// values (floats, strings, `true`, `null`, objects), integers outside the
    /// `i32` range, nesting deeper than [`MAX_DEPTH`], or trailing content.
    pub fn from_json(input: &str) -> Result<Tree, ParseError> {
        let bytes = input.as_bytes();
        let mut b = Builder::new();
        let mut i = 0;
        // What the grammar allows next: a value (at the start or after ','),
        // a value or ']' (right after '['), or ',' / ']' (after a value).
        #[derive(PartialEq)]
        enum Want {
            Value,
            ValueOrClose,
            CommaOrClose,
        }
        let mut want = Want::Value;
        let err = |offset: usize, message: String| ParseError { offset, message };
        while i < bytes.len() {
            match bytes[i] {
                b' ' | b'\t' | b'\n' | b'\r' => {}
                b'[' => {
                    if want == Want::CommaOrClose {
                        return Err(err(i, "expected ',' or ']' before '['".into()));
                    }
                    b.open().map_err(|m| err(i, m))?;
                    want = Want::ValueOrClose;
                }
                b']' => {
                    if want == Want::Value {
                        return Err(err(i, "expected a value before ']'".into()));
                    }
                    b.close().map_err(|m| err(i, m))?;
                    want = Want::CommaOrClose;
                }
                b',' => {
                    if want != Want::CommaOrClose || b.open.is_empty() {
                        return Err(err(i, "unexpected ','".into()));
                    }
                    want = Want::Value;
                }
                b'-' | b'0'..=b'9' => {
                    if want == Want::CommaOrClose {
                        return Err(err(i, "expected ',' or ']' before a number".into()));
                    }
                    let (v, next) = read_integer(bytes, i)?;
                    b.leaf(v).map_err(|m| err(i, m))?;
                    want = Want::CommaOrClose;
                    i = next;
                    continue;
                }
                b'"' => {
                    return Err(err(
                        i,
                        "strings are not allowed: leaves are integers".into(),
                    ));
                }
                b'{' => return Err(err(i, "objects are not allowed: use nested arrays".into())),
                b't' | b'f' | b'n' => {
                    return Err(err(
                        i,
                        "true/false/null are not allowed: leaves are integers".into(),
                    ));
                }
                _ => {
                    let ch = input.get(i..).and_then(|s| s.chars().next()).unwrap_or('?');
                    return Err(err(i, format!("unexpected character '{ch}'")));
                }
            }
            i += 1;
        }
        if b.nodes.is_empty() {
            return Err(err(bytes.len(), "empty input: expected a tree".into()));
        }
        b.finish().map_err(|m| err(bytes.len(), m))
    }

    /// Builds a tree from a [`TreeSpec`]. Errors on empty interior nodes or
    /// nesting deeper than [`MAX_DEPTH`].
    pub fn from_spec(spec: &TreeSpec) -> Result<Tree, String> {
        fn walk(b: &mut Builder, s: &TreeSpec, depth: usize) -> Result<(), String> {
            if depth > MAX_DEPTH {
                return Err(format!("tree deeper than {MAX_DEPTH} levels"));
            }
            match s {
                TreeSpec::Leaf(v) => b.leaf(*v),
                TreeSpec::Node(children) => {
                    b.open()?;
                    for c in children {
                        walk(b, c, depth + 1)?;
                    }
                    b.close()
                }
            }
        }
        let mut b = Builder::new();
        walk(&mut b, spec, 0)?;
        b.finish()
    }

    /// Converts back to a [`TreeSpec`].
    pub fn to_spec(&self) -> TreeSpec {
        self.spec_of(Tree::ROOT)
    }

    fn spec_of(&self, n: NodeId) -> TreeSpec {
        match self.nodes[n].value {
            Some(v) => TreeSpec::Leaf(i32::try_from(v).unwrap_or(0)),
            None => TreeSpec::Node(
                self.nodes[n]
                    .children
                    .iter()
                    .map(|&c| self.spec_of(c))
                    .collect(),
            ),
        }
    }

    /// Writes the tree back as compact JSON.
    pub fn to_json(&self) -> String {
        self.to_spec().to_json()
    }

    /// Number of nodes (interior and leaves).
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Always false: a tree has at least its root.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Leaves in left-to-right order.
    pub fn leaves(&self) -> &[NodeId] {
        &self.leaves
    }

    /// Children of `n`, left to right (empty for a leaf).
    pub fn children(&self, n: NodeId) -> &[NodeId] {
        &self.nodes[n].children
    }

    /// Parent of `n` (`None` for the root).
    pub fn parent(&self, n: NodeId) -> Option<NodeId> {
        self.nodes[n].parent
    }

    /// Depth of `n` (root 0).
    pub fn depth(&self, n: NodeId) -> usize {
        self.nodes[n].depth
    }

    /// Depth of the deepest node.
    pub fn height(&self) -> usize {
        self.nodes.iter().map(|n| n.depth).max().unwrap_or(0)
    }

    /// Whether `n` is a leaf (terminal).
    pub fn is_leaf(&self, n: NodeId) -> bool {
        self.nodes[n].value.is_some()
    }

    /// The static value of a leaf, `None` for an interior node.
    pub fn leaf_value(&self, n: NodeId) -> Option<Value> {
        self.nodes[n].value
    }

    /// MAX at even depth, MIN at odd depth.
    pub fn kind(&self, n: NodeId) -> NodeKind {
        if self.nodes[n].depth.is_multiple_of(2) {
            NodeKind::Max
        } else {
            NodeKind::Min
        }
    }

    /// 1-based position of `n` among its siblings.
    pub fn ordinal(&self, n: NodeId) -> usize {
        self.nodes[n].ordinal
    }

    /// The next sibling to the right, if any.
    pub fn next_sibling(&self, n: NodeId) -> Option<NodeId> {
        let p = self.nodes[n].parent?;
        self.nodes[p].children.get(self.nodes[n].ordinal).copied()
    }

    /// Whether `n` is the last child of its parent (false for the root).
    pub fn is_last_child(&self, n: NodeId) -> bool {
        self.nodes[n].parent.is_some() && self.next_sibling(n).is_none()
    }

    /// Last id of the subtree rooted at `n` (inclusive).
    pub fn subtree_end(&self, n: NodeId) -> NodeId {
        self.nodes[n].end
    }

    /// Whether `d` is a proper descendant of `a`.
    pub fn is_descendant(&self, d: NodeId, a: NodeId) -> bool {
        d > a && d <= self.nodes[a].end
    }

    /// Dewey label: `e` for the root, else `i.j.k` (1-based child indices).
    pub fn dewey(&self, n: NodeId) -> String {
        if n == Tree::ROOT {
            return "e".into();
        }
        let mut parts = Vec::new();
        let mut cur = n;
        while let Some(p) = self.nodes[cur].parent {
            parts.push(self.nodes[cur].ordinal.to_string());
            cur = p;
        }
        parts.reverse();
        parts.join(".")
    }

    /// Letter label (see [`Naming::Letters`]).
    pub fn letters(&self, n: NodeId) -> String {
        letter_name(self.nodes[n].bfs_rank)
    }

    /// Label of `n` in the requested naming.
    pub fn label(&self, n: NodeId, naming: Naming) -> String {
        match naming {
            Naming::Dewey => self.dewey(n),
            Naming::Letters => self.letters(n),
        }
    }

    /// Looks up a node by Dewey label (`e`, `2`, `2.1.3`).
    pub fn find_dewey(&self, label: &str) -> Option<NodeId> {
        let mut cur = Tree::ROOT;
        if label == "e" {
            return Some(cur);
        }
        for part in label.split('.') {
            let k: usize = part.parse().ok()?;
            cur = *self.nodes[cur].children.get(k.checked_sub(1)?)?;
        }
        Some(cur)
    }

    /// Looks up a node by label in the given naming.
    pub fn find_label(&self, label: &str, naming: Naming) -> Option<NodeId> {
        match naming {
            Naming::Dewey => self.find_dewey(label),
            Naming::Letters => (0..self.len()).find(|&n| self.letters(n) == label),
        }
    }

    /// The minimax value, computed directly (reference for tests).
    pub fn minimax_value(&self) -> Value {
        self.value_of(Tree::ROOT)
    }

    /// The minimax value of the subtree rooted at `n`.
    pub fn value_of(&self, n: NodeId) -> Value {
        match self.nodes[n].value {
            Some(v) => v,
            None => {
                let vals = self.nodes[n].children.iter().map(|&c| self.value_of(c));
                match self.kind(n) {
                    NodeKind::Max => vals.max().unwrap_or(-INF),
                    NodeKind::Min => vals.min().unwrap_or(INF),
                }
            }
        }
    }
}

/// Reads a JSON integer starting at `start`; rejects fractions, exponents,
/// leading zeros and values outside `i32`.
fn read_integer(bytes: &[u8], start: usize) -> Result<(i32, usize), ParseError> {
    let err = |offset: usize, message: &str| ParseError {
        offset,
        message: message.into(),
    };
    let mut i = start;
    let negative = bytes[i] == b'-';
    if negative {
        i += 1;
    }
    let digits_start = i;
    while i < bytes.len() && bytes[i].is_ascii_digit() {
        i += 1;
    }
    if i == digits_start {
        return Err(err(start, "'-' must be followed by digits"));
    }
    if i - digits_start > 1 && bytes[digits_start] == b'0' {
        return Err(err(start, "leading zeros are not allowed in JSON numbers"));
    }
    if i < bytes.len() && matches!(bytes[i], b'.' | b'e' | b'E') {
        return Err(err(start, "non-integer number: leaves must be integers"));
    }
    if i < bytes.len() && bytes[i].is_ascii_alphabetic() {
        return Err(err(i, "unexpected letter after a number"));
    }
    let mut v: i64 = 0;
    for &d in &bytes[digits_start..i] {
        v = v
            .checked_mul(10)
            .and_then(|v| v.checked_add(i64::from(d - b'0')))
            .filter(|&v| v <= i64::from(i32::MAX) + 1)
            .ok_or_else(|| err(start, "integer out of range (leaves must fit in i32)"))?;
    }
    if negative {
        v = -v;
    }
    let v = i32::try_from(v)
        .map_err(|_| err(start, "integer out of range (leaves must fit in i32)"))?;
    Ok((v, i))
}

/// `0 -> a`, `25 -> z`, `26 -> aa`, `27 -> ab`, … (bijective base 26).
fn letter_name(mut rank: usize) -> String {
    let mut out = Vec::new();
    loop {
        out.push(b'a' + (rank % 26) as u8);
        if rank < 26 {
            break;
        }
        rank = rank / 26 - 1;
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

/// Formats a value, writing the infinities as `inf` and `-inf`.
pub fn format_value(v: Value) -> String {
    if v >= INF {
        "inf".into()
    } else if v <= -INF {
        "-inf".into()
    } else {
        v.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_names() {
        let t = Tree::from_json("[[[2,2]],[[7],[6,0]],[[1]],[[2],[9]]]").unwrap();
        assert_eq!(t.leaves().len(), 8);
        let n = t.find_dewey("4.2.1").unwrap();
        assert_eq!(t.dewey(n), "4.2.1");
        assert_eq!(t.leaf_value(n), Some(9));
        assert_eq!(t.kind(t.find_dewey("1").unwrap()), NodeKind::Min);
        assert_eq!(t.kind(t.find_dewey("1.1").unwrap()), NodeKind::Max);
        assert_eq!(t.minimax_value(), 6);
        assert_eq!(t.to_json(), "[[[2,2]],[[7],[6,0]],[[1]],[[2],[9]]]");
    }

    #[test]
    fn letters_are_breadth_first() {
        let t = Tree::from_json("[[5,-2,3],[1,-5,7],[5,5,4]]").unwrap();
        let names: Vec<String> = (0..t.len()).map(|n| t.letters(n)).collect();
        // Pre-order: a b e f g c h i j d k l m.
        assert_eq!(
            names,
            [
                "a", "b", "e", "f", "g", "c", "h", "i", "j", "d", "k", "l", "m"
            ]
        );
        assert_eq!(letter_name(25), "z");
        assert_eq!(letter_name(26), "aa");
        assert_eq!(letter_name(27), "ab");
        assert_eq!(letter_name(26 + 26), "ba");
        assert_eq!(letter_name(26 + 26 * 26), "aaa");
    }

    #[test]
    fn rejects_bad_input() {
        for bad in [
            "",
            "   ",
            "[",
            "]",
            "[]",
            "[[]]",
            "[1,]",
            "[,1]",
            "[1 2]",
            "[1.5]",
            "[1e3]",
            "[\"a\"]",
            "[true]",
            "[null]",
            "{}",
            "[1]]",
            "[1][2]",
            "[01]",
            "[-]",
            "[2147483648]",
            "[1,[2,[]]]",
            "[1x]",
            "[[1],[2]",
            "é",
            "1 2",
        ] {
            assert!(Tree::from_json(bad).is_err(), "accepted {bad:?}");
        }
        assert!(Tree::from_json("[-2147483648, 2147483647]").is_ok());
        assert!(Tree::from_json(" 7 ").is_ok());
        let deep = "[".repeat(MAX_DEPTH + 5) + "1" + &"]".repeat(MAX_DEPTH + 5);
        assert!(Tree::from_json(&deep).is_err());
        let huge = "[".repeat(1_000_000);
        assert!(Tree::from_json(&huge).is_err());
    }
}
