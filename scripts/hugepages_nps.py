#!/usr/bin/env python3
"""Nodes a second with and without transparent huge pages for the hash table (issue 69, part 3).

For each `Hash` size, one engine process per run: `setoption name Hash value N`, then from each
of three positions (start, Kiwipete, CPW position 3) `ucinewgame`, `position`, `go movetime T`;
the run's speed is its total nodes over its total time (the last `info` line of each search).
Runs alternate with and without (`NULLWINDOW_HUGEPAGES=1` / `0`), the order swapped each round,
and the `info string Hash N MB: ...` line of each run is printed, so that what the system gave
is on record. Prints every run, then the mean, median and best of each setting.

    scripts/hugepages_nps.py target/release/nullwindow 4000 4
"""
import os
import re
import subprocess
import sys

FENS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
]
SIZES = (16, 256, 1024)


def run(binary, movetime, mb, huge):
    env = dict(os.environ, NULLWINDOW_HUGEPAGES=huge)
    p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                         env=env, bufsize=1)

    def send(s):
        p.stdin.write(s + "\n")
        p.stdin.flush()

    send("uci")
    send(f"setoption name Hash value {mb}")
    send("isready")
    pages = ""
    nodes = ms = 0
    for fen in FENS:
        send("ucinewgame")
        send(f"position fen {fen}")
        send(f"go movetime {movetime}")
        last = None
        while True:
            line = p.stdout.readline()
            if not line:
                sys.exit("the engine exited")
            if line.startswith(f"info string Hash {mb} MB"):
                pages = line.split(": ", 1)[1].strip()
            if line.startswith("info depth") and " nodes " in line:
                last = line
            if line.startswith("bestmove"):
                break
        nodes += int(re.search(r" nodes (\d+)", last).group(1))
        ms += int(re.search(r" time (\d+)", last).group(1))
    send("quit")
    p.wait()
    return nodes * 1000 // max(ms, 1), pages


def median(v):
    s = sorted(v)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    binary, movetime, rounds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    res = {}
    for r in range(rounds):
        for mb in SIZES:
            for huge in (("1", "0") if r % 2 == 0 else ("0", "1")):
                nps, pages = run(binary, movetime, mb, huge)
                res.setdefault((mb, huge), []).append(nps)
                print(f"round {r + 1} Hash {mb:5} NULLWINDOW_HUGEPAGES={huge} nps {nps:8}  [{pages}]",
                      flush=True)
    print()
    for mb in SIZES:
        w, wo = res[(mb, "1")], res[(mb, "0")]
        gain = lambda a, b: f"{100 * (a - b) / b:+.1f}%"
        mw, mwo = sum(w) / len(w), sum(wo) / len(wo)
        print(f"Hash {mb:5}: mean {mw:.0f} vs {mwo:.0f} ({gain(mw, mwo)}); "
              f"median {median(w):.0f} vs {median(wo):.0f} ({gain(median(w), median(wo))}); "
              f"best {max(w)} vs {max(wo)} ({gain(max(w), max(wo))})")


if __name__ == "__main__":
    main()
