#!/usr/bin/env python3
"""Import circles and upward imports between the modules of src/.

Reads every `use` of the library's files (`crate::`, `super::`, `self::` and child-module
paths, brace groups expanded) and every inline `crate::a::b` path, outside `#[cfg(test)]`
blocks, and resolves each to the deepest module it names (src/a/b.rs or src/a/b/mod.rs is
`a::b`). Then it reports

  1. circles: strongly connected groups of modules that import each other, ignoring a child's
     imports of its own ancestors (`use super::Searcher` in search/node.rs: a module's file
     `mod.rs` is the parent's own code, which its children may use) and a parent's imports of
     its own descendants (a `mod.rs` re-exporting or calling its children);
  2. upward arrows: an import from a module of a lower layer of LAYERS into one of a higher
     layer (each top-level module sits in one layer; a layer may import from its own and the
     ones below).

Exit status 1 when there is either. `python3 scripts/check_layers.py --edges` also prints the
module graph.
"""

import os
import re
import sys

SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")

# Bottom to top. A module may import from its own layer and the layers below it.
LAYERS = [
    ["position", "movegen", "cli"],
    ["eval", "nnue", "tt", "tb", "limits", "timeman"],
    ["search"],
    ["book", "bench", "lab", "datagen", "tune", "train"],
    ["uci"],
]


def module_of(path):
    rel = os.path.relpath(path, SRC)[:-3].split(os.sep)
    if rel[-1] in ("mod", "lib"):
        rel = rel[:-1]
    return "::".join(rel)


def strip_tests_and_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text)
    out, i = [], 0
    for m in re.finditer(r"#\[cfg\(test\)\]\s*mod\s+\w+\s*\{", text):
        if m.start() < i:
            continue
        out.append(text[i:m.start()])
        depth, j = 1, m.end()
        while j < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
        i = j
    out.append(text[i:])
    return "".join(out)


def expand(tree):
    """`a::{b, c::{d, e}}` -> ['a::b', 'a::c::d', 'a::c::e']."""
    tree = tree.strip()
    m = re.match(r"^(.*?)\{(.*)\}$", tree, re.S)
    if not m:
        return [re.sub(r"\s+as\s+\w+$", "", tree).strip()]
    prefix, inner = m.group(1), m.group(2)
    parts, depth, cur = [], 0, ""
    for ch in inner:
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        depth += {"{": 1, "}": -1}.get(ch, 0)
        cur += ch
    parts.append(cur)
    return [p for part in parts if part.strip() for p in expand(prefix + part.strip())]


def main():
    files = {}
    for root, _, names in os.walk(SRC):
        for n in names:
            if n.endswith(".rs") and n != "main.rs":
                p = os.path.join(root, n)
                files[module_of(p)] = p
    modules = set(files)

    def resolve(cur, path):
        segs = [s for s in path.split("::") if s]
        if not segs:
            return None
        base = cur.split("::") if cur else []
        if segs[0] == "crate":
            base, segs = [], segs[1:]
        elif segs[0] in ("super", "self"):
            while segs and segs[0] in ("super", "self"):
                if segs[0] == "super":
                    base = base[:-1]
                segs = segs[1:]
        elif "::".join(base + [segs[0]]) not in modules:
            return None  # an external crate or std
        full = base + segs
        for k in range(len(full), 0, -1):
            cand = "::".join(full[:k])
            if cand in modules:
                return cand
        return None

    edges = {m: set() for m in modules}
    for mod, path in files.items():
        text = strip_tests_and_comments(open(path, encoding="utf-8").read())
        paths = []
        for m in re.finditer(r"\buse\s+([^;]+);", text):
            paths += expand(m.group(1))
        paths += re.findall(r"\bcrate(?:::\w+)+", text)
        for p in paths:
            target = resolve(mod, p)
            if target and target != mod and target != "":
                edges[mod].add(target)

    def related(a, b):
        return a.startswith(b + "::") or b.startswith(a + "::")

    graph = {a: {b for b in bs if not related(a, b)} for a, bs in edges.items()}

    # Tarjan's strongly connected components.
    index, low, stack, on, sccs, counter = {}, {}, [], set(), [], [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                sccs.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)

    layer = {}
    for i, names in enumerate(LAYERS):
        for n in names:
            layer[n] = i
    top = lambda m: m.split("::")[0]
    unknown = sorted({top(m) for m in modules if m and top(m) not in layer})
    upward = sorted(
        (a, b)
        for a, bs in edges.items()
        for b in bs
        if a and top(a) in layer and top(b) in layer and layer[top(b)] > layer[top(a)]
    )

    if "--edges" in sys.argv:
        for a in sorted(edges):
            if edges[a]:
                print(f"{a or 'crate'} -> {', '.join(sorted(edges[a]))}")
    for comp in sccs:
        print("circle:", " <-> ".join(comp))
    for a, b in upward:
        print(f"upward: {a} (layer {layer[top(a)]}) imports {b} (layer {layer[top(b)]})")
    for u in unknown:
        print(f"unplaced: top-level module '{u}' is in no layer of LAYERS")
    n_edges = sum(len(b) for b in edges.values())
    print(
        f"{len(modules)} modules, {n_edges} imports: {len(sccs)} circles, "
        f"{len(upward)} upward imports, {len(unknown)} unplaced"
    )
    return 1 if sccs or upward or unknown else 0


if __name__ == "__main__":
    sys.exit(main())
