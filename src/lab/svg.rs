//! SVG drawing of a tree together with what one algorithm did on it.
//!
//! Levels are drawn top-down; MAX nodes are triangles pointing up, MIN nodes
//! triangles pointing down; leaf values are written under the leaves with the
//! leaf names beneath them, and interior nodes are named at their upper
//! right. Every node gets one of three classes, each drawn
//! differently and explained in a legend:
//!
//! * `evaluated`: a leaf whose static value was computed (filled blue);
//! * `visited`: a node the algorithm reached (entered, or put on the OPEN
//!   list) without evaluating it (white, solid black outline);
//! * `never-visited`: a node the algorithm never reached (light grey, dashed
//!   grey outline; edges into it dashed too).
//!
//! Each node is an SVG group `<g class="node CLASS" data-dewey="…">`, so the
//! drawing can be checked mechanically.

use std::fmt::Write as _;

use super::kinds::SearchResult;
use super::tree::{Naming, NodeId, NodeKind, Tree, format_value};

/// How a node is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeClass {
    /// A leaf that was evaluated.
    Evaluated,
    /// Reached, but (for a leaf) not evaluated.
    Visited,
    /// Never reached.
    NeverVisited,
}

impl NodeClass {
    /// The CSS class name used in the SVG.
    pub fn css(self) -> &'static str {
        match self {
            NodeClass::Evaluated => "evaluated",
            NodeClass::Visited => "visited",
            NodeClass::NeverVisited => "never-visited",
        }
    }
}

/// Class of every node (indexed by [`NodeId`]) for a search result.
pub fn classify(tree: &Tree, result: &SearchResult) -> Vec<NodeClass> {
    let evaluated = result.evaluated_mask();
    (0..tree.len())
        .map(|n| {
            if evaluated.get(n).copied().unwrap_or(false) {
                NodeClass::Evaluated
            } else if result.was_visited(n) {
                NodeClass::Visited
            } else {
                NodeClass::NeverVisited
            }
        })
        .collect()
}

const DX: f64 = 46.0;
const DY: f64 = 80.0;
const R: f64 = 13.0;
const MARGIN_X: f64 = 30.0;
const TOP: f64 = 120.0;

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn triangle(kind: NodeKind, x: f64, y: f64, r: f64) -> String {
    match kind {
        NodeKind::Max => format!(
            "{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}",
            x,
            y - r,
            x - r,
            y + r * 0.8,
            x + r,
            y + r * 0.8
        ),
        NodeKind::Min => format!(
            "{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}",
            x,
            y + r,
            x - r,
            y - r * 0.8,
            x + r,
            y - r * 0.8
        ),
    }
}

/// Renders `tree` with the classes derived from `result`, naming nodes with
/// `naming`. Returns a complete standalone SVG document.
pub fn render_svg(tree: &Tree, result: &SearchResult, naming: Naming) -> String {
    let classes = classify(tree, result);
    // x: leaves on consecutive slots, interior nodes centred over children.
    let mut x = vec![0.0f64; tree.len()];
    for (slot, &leaf) in tree.leaves().iter().enumerate() {
        x[leaf] = MARGIN_X + R + slot as f64 * DX;
    }
    for n in (0..tree.len()).rev() {
        let ch = tree.children(n);
        if let (Some(&first), Some(&last)) = (ch.first(), ch.last()) {
            x[n] = (x[first] + x[last]) / 2.0;
        }
    }
    let y = |n: NodeId| TOP + tree.depth(n) as f64 * DY;
    let width =
        (MARGIN_X * 2.0 + R * 2.0 + (tree.leaves().len().max(1) - 1) as f64 * DX).max(520.0);
    let height = TOP + tree.height() as f64 * DY + 70.0;

    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="sans-serif">"#
    );
    s.push_str(
        r#"<style>
  .edge { stroke: #333; stroke-width: 1.2; }
  .edge.never-visited { stroke: #aaa; stroke-dasharray: 4 3; }
  .node.evaluated polygon { fill: #2b6cb0; stroke: #1a365d; stroke-width: 1.5; }
  .node.visited polygon { fill: #ffffff; stroke: #000000; stroke-width: 1.5; }
  .node.never-visited polygon { fill: #eeeeee; stroke: #999999; stroke-width: 1.2; stroke-dasharray: 3 2; }
  .label { font-size: 10px; fill: #555; }
  .leaf-label { text-anchor: middle; }
  .value { font-size: 12px; font-weight: bold; fill: #000; text-anchor: middle; }
  .node.never-visited .value, .node.never-visited .label { fill: #aaa; }
  .title { font-size: 13px; }
  .legend { font-size: 11px; }
</style>
"#,
    );
    let _ = writeln!(
        s,
        r#"<text class="title" x="10" y="18">{} — value {}, {} leaf evaluations, {} distinct leaves</text>"#,
        escape(result.algorithm.name()),
        escape(&format_value(result.value)),
        result.evaluations,
        result.distinct_leaves()
    );
    // Legend.
    let legend = [
        (NodeClass::Evaluated, "evaluated leaf"),
        (NodeClass::Visited, "visited, not evaluated"),
        (NodeClass::NeverVisited, "never visited"),
    ];
    s.push_str(r#"<g class="legend">"#);
    s.push('\n');
    for (i, (class, text)) in legend.iter().enumerate() {
        let lx = 20.0 + i as f64 * 170.0;
        let _ = writeln!(
            s,
            r#"<g class="node {}"><polygon points="{}"/></g><text x="{:.1}" y="48">{}</text>"#,
            class.css(),
            triangle(NodeKind::Max, lx, 44.0, 8.0),
            lx + 14.0,
            text
        );
    }
    let _ = writeln!(
        s,
        r#"<g class="node visited"><polygon points="{}"/></g><text x="34" y="74">MAX node</text>"#,
        triangle(NodeKind::Max, 20.0, 70.0, 8.0)
    );
    let _ = writeln!(
        s,
        r#"<g class="node visited"><polygon points="{}"/></g><text x="204" y="74">MIN node</text>"#,
        triangle(NodeKind::Min, 190.0, 70.0, 8.0)
    );
    s.push_str("</g>\n");
    // Edges first, so nodes are drawn on top.
    for n in 0..tree.len() {
        for &c in tree.children(n) {
            let dashed = if classes[c] == NodeClass::NeverVisited {
                " never-visited"
            } else {
                ""
            };
            let _ = writeln!(
                s,
                r#"<line class="edge{dashed}" x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}"/>"#,
                x[n],
                y(n),
                x[c],
                y(c)
            );
        }
    }
    for n in 0..tree.len() {
        let dewey = tree.dewey(n);
        let label = tree.label(n, naming);
        let _ = write!(
            s,
            r#"<g class="node {}" data-dewey="{}"><title>{} ({})</title><polygon points="{}"/>"#,
            classes[n].css(),
            escape(&dewey),
            escape(&label),
            classes[n].css(),
            triangle(tree.kind(n), x[n], y(n), R),
        );
        match tree.leaf_value(n) {
            // Leaves: value, then the name underneath (leaves sit side by side).
            Some(v) => {
                let _ = write!(
                    s,
                    r#"<text class="value" x="{:.1}" y="{:.1}">{}</text><text class="label leaf-label" x="{:.1}" y="{:.1}">{}</text>"#,
                    x[n],
                    y(n) + R + 16.0,
                    v,
                    x[n],
                    y(n) + R + 29.0,
                    escape(&label)
                );
            }
            // Interior nodes: name to the upper right.
            None => {
                let _ = write!(
                    s,
                    r#"<text class="label" x="{:.1}" y="{:.1}">{}</text>"#,
                    x[n] + R + 2.0,
                    y(n) - R + 4.0,
                    escape(&label)
                );
            }
        }
        s.push_str("</g>\n");
    }
    s.push_str("</svg>\n");
    s
}
