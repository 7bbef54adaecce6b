#!/usr/bin/env python3
"""Pools the results of several match logs between the same two engines.

    scripts/pool.py [--sprt ELO0 ELO1] LOG...

Each LOG is the output of ../shared/tools/match.py (or scripts/sprt.py); its last result line
(`games N W .. D .. L .. penta [..] ...`) is read. The pentanomial pair counts, W/D/L and
the time losses, illegal moves and crashes are summed, and the Elo with its 95% interval and
the SPRT log-likelihood ratio are computed by match.py's own statistics, as if the games had
been one run. Pool only fixed-length runs (or runs not stopped on their result) of the same
two builds under the same conditions; use a different --seed for each so the openings differ.
"""
import argparse
import math
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.environ.get("SHARED", os.path.join(HERE, "..", "..", "shared"))
sys.path.insert(0, os.path.join(SHARED, "tools"))

import match  # noqa: E402  (the shared match runner)

RESULT = re.compile(
    r"games (\d+) W (\d+) D (\d+) L (\d+) penta \[([\d, ]+)\].*?"
    r"timeloss A (\d+) B (\d+) illegal A (\d+) B (\d+) crash A (\d+) B (\d+)"
)


def last_result(path):
    """The counts of the last result line of a log, or None if it has none."""
    found = None
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = RESULT.search(line)
            if m:
                found = m
    if found is None:
        return None
    g = found.groups()
    return {
        "games": int(g[0]),
        "wdl": [int(g[1]), int(g[2]), int(g[3])],
        "penta": [int(x) for x in g[4].split(",")],
        "faults": [int(x) for x in g[5:11]],
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sprt", nargs=2, type=float, default=[0.0, 5.0], metavar=("ELO0", "ELO1"))
    ap.add_argument("logs", nargs="+")
    args = ap.parse_args()

    st = match.Stats()
    games = 0
    faults = [0] * 6
    for path in args.logs:
        try:
            r = last_result(path)
        except OSError as e:
            sys.exit(f"pool.py: {path}: {e}")
        if r is None:
            sys.exit(f"pool.py: {path}: no result line")
        print(f"{path}: games {r['games']} W {r['wdl'][0]} D {r['wdl'][1]} L {r['wdl'][2]} "
              f"penta {r['penta']}")
        games += r["games"]
        st.w += r["wdl"][0]
        st.d += r["wdl"][1]
        st.l += r["wdl"][2]
        st.penta = [a + b for a, b in zip(st.penta, r["penta"])]
        faults = [a + b for a, b in zip(faults, r["faults"])]

    elo = st.elo()
    if elo is None:
        sys.exit("pool.py: no game pairs")
    e, lo, hi = elo
    llr = st.llr(*args.sprt)
    lower, upper = math.log(0.05 / 0.95), math.log(0.95 / 0.05)
    print(f"pooled: games {games} W {st.w} D {st.d} L {st.l} penta {st.penta} "
          f"elo {e:+.1f} [{lo:+.1f}, {hi:+.1f}] "
          f"LLR({args.sprt[0]:g},{args.sprt[1]:g}) {llr:.2f} [{lower:.2f}, {upper:.2f}] "
          f"timeloss A {faults[0]} B {faults[1]} illegal A {faults[2]} B {faults[3]} "
          f"crash A {faults[4]} B {faults[5]}")


if __name__ == "__main__":
    main()
