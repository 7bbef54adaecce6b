#!/usr/bin/env python3
"""Lazy SMP scaling: time to depth and nodes per second with 1, 2, ... threads.

For each thread count, each position of the bench file (every STEP-th line) is searched with
`go depth D` in a fresh engine (`ucinewgame`, Hash MB), REPEAT times; the wall time from `go`
to `bestmove` and the last `nodes` reported are recorded. Prints a Markdown table: per thread
count the summed time to depth, the summed nodes, nodes per second, and the speed-ups against
the first thread count (time to depth: the ratio of the summed times; nps: the ratio of the
rates). Run on an idle machine: the figures measure the cores, not the program alone.

  scripts/smp_scaling.py --engine target/release/nullwindow --threads 1,2 --depth 16
"""
import argparse
import subprocess
import sys
import time


def read_positions(path, step):
    fens = []
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                fens.append(line)
    return fens[::step]


class Engine:
    def __init__(self, cmd):
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                  bufsize=1)

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait_for(self, prefix):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("engine closed its output")
            lines.append(line.strip())
            if line.startswith(prefix):
                return lines

    def quit(self):
        self.send("quit")
        self.p.wait(timeout=10)


def search(cmd, threads, hash_mb, fen, depth):
    e = Engine(cmd)
    e.send("uci")
    e.wait_for("uciok")
    e.send(f"setoption name Threads value {threads}")
    e.send(f"setoption name Hash value {hash_mb}")
    e.send("ucinewgame")
    e.send(f"position fen {fen}")
    e.send("isready")
    e.wait_for("readyok")
    t0 = time.monotonic()
    e.send(f"go depth {depth}")
    lines = e.wait_for("bestmove")
    elapsed = time.monotonic() - t0
    nodes = 0
    for line in lines:
        words = line.split()
        if words[:1] == ["info"] and "nodes" in words:
            nodes = int(words[words.index("nodes") + 1])
    e.quit()
    return elapsed, nodes


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", default="target/release/nullwindow")
    ap.add_argument("--threads", default="1,2", help="comma-separated thread counts")
    ap.add_argument("--depth", type=int, default=16)
    ap.add_argument("--hash", type=int, default=64, help="MB")
    ap.add_argument("--positions", default="bench-positions/bench.epd")
    ap.add_argument("--step", type=int, default=9, help="take every STEP-th position")
    ap.add_argument("--repeat", type=int, default=2)
    a = ap.parse_args()
    fens = read_positions(a.positions, a.step)
    counts = [int(t) for t in a.threads.split(",")]
    rows = []
    for t in counts:
        total_time, total_nodes = 0.0, 0
        for _ in range(a.repeat):
            for fen in fens:
                el, n = search([a.engine], t, a.hash, fen, a.depth)
                total_time += el
                total_nodes += n
                print(f"threads {t} {el:7.2f} s {n:>11} nodes  {fen}", file=sys.stderr)
        rows.append((t, total_time, total_nodes))
    base_t, base_time, base_nodes = rows[0]
    base_nps = base_nodes / base_time
    print(f"{len(fens)} positions x {a.repeat}, go depth {a.depth}, Hash {a.hash}\n")
    print(f"| threads | time to depth (s) | nodes | nps | time-to-depth speed-up | nps speed-up |")
    print("|---:|---:|---:|---:|---:|---:|")
    for t, tt, n in rows:
        nps = n / tt
        print(f"| {t} | {tt:.2f} | {n:,} | {nps:,.0f} | {base_time / tt:.2f}x | "
              f"{nps / base_nps:.2f}x |")


if __name__ == "__main__":
    main()
