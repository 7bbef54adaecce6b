#!/usr/bin/env python3
"""How well each evaluation predicts game results: the mean squared error between the result
(side to move's view) and sigmoid(eval / K) over a sample of a result-labelled EPD file
(`<placement> <stm> <castling> <ep> c9 "<result>";`, e.g. the Texel tuning set), at the best K
of a grid and at a fixed K. Each net is loaded with `setoption name EvalFile`; `hce` stands for
the hand-crafted evaluation. A check on positions the nets never saw, not a training signal.

    scripts/eval_loss.py --engine target/release/nullwindow --epd FILE --positions 20000 \
        hce nets/nw-g4.nnue nets/nw-g5.nnue
"""
import argparse
import math
import random
import re
import subprocess


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default="target/release/nullwindow")
    ap.add_argument("--epd", required=True)
    ap.add_argument("--positions", type=int, default=20000, help="random sample size (seed --seed)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--k", type=float, default=200.0, help="the fixed K also reported")
    ap.add_argument("evals", nargs="+", help="network files, or hce")
    a = ap.parse_args()

    lines = open(a.epd).read().splitlines()
    random.seed(a.seed)
    sample = random.sample(lines, min(a.positions, len(lines)))
    pos = []
    for line in sample:
        m = re.match(r'(\S+ [wb] \S+ \S+) c9 "([^"]+)";', line)
        if not m or m.group(2) not in ("1-0", "0-1", "1/2-1/2"):
            continue
        r = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[m.group(2)]
        if m.group(1).split()[1] == "b":
            r = 1.0 - r
        pos.append((m.group(1), r))

    def loss(evals, k):
        return sum((r - 1.0 / (1.0 + math.exp(-max(-3000, min(3000, e)) / k))) ** 2
                   for e, (_, r) in zip(evals, pos)) / len(pos)

    print(f"{len(pos)} positions of {a.epd}")
    for ev in a.evals:
        cmds = [] if ev == "hce" else [f"setoption name EvalFile value {ev}"]
        for fen, _ in pos:
            cmds += [f"position fen {fen} 0 1", "eval"]
        cmds.append("quit")
        out = subprocess.run([a.engine], input="\n".join(cmds) + "\n",
                             capture_output=True, text=True).stdout
        if "error" in out and ev != "hce":
            print(f"{ev}: {next(l for l in out.splitlines() if 'error' in l)}")
            continue
        key = "Classical evaluation" if ev == "hce" else "NNUE evaluation"
        evals = [int(m.group(1)) for m in re.finditer(key + r": (-?\d+)", out)]
        if len(evals) != len(pos):
            print(f"{ev}: {len(evals)} evaluations for {len(pos)} positions")
            continue
        best = min((loss(evals, k), k) for k in range(100, 801, 25))
        mean = sum(abs(e) for e in evals) / len(evals)
        print(f"{ev}: loss {best[0]:.5f} at its best K {best[1]}, {loss(evals, a.k):.5f} at K {a.k:g};"
              f" mean |eval| {mean:.0f} cp", flush=True)


if __name__ == "__main__":
    main()
