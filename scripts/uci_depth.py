#!/usr/bin/env python3
"""Run a UCI engine with every `go` turned into `go depth D`.

Used to calibrate `UCI_Elo` (docs/history/measurements.md, "UCI_Elo calibration") against Stockfish
15.1's own `UCI_Elo`, which is a skill level: Stockfish searches MultiPV 4 and picks its
(weakened) move when iteration `1 + int(level)` ends; deeper iterations do not change the pick.
So `go depth 1 + int(level)` plays the move the calibrated setting plays at any clock long
enough to reach that depth (Stockfish calibrated it at 60+0.6), at a fraction of the CPU, and
machine load cannot change it.

    uci_depth.py --depth D -- /usr/games/stockfish
    uci_depth.py --stockfish-elo 1800 -- /usr/games/stockfish   # D = 1 + int(level(1800))

The clock fields of `go` are dropped; everything else passes through unchanged.
"""

import argparse
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from uci_relay import relay  # noqa: E402


def stockfish15_level(elo: float) -> float:
    """The skill level of Stockfish 15.1's UCI_Elo (search.cpp, `Skill`)."""
    return min(max(math.pow((elo - 1346.6) / 143.4, 1 / 0.806), 0.0), 20.0)


def stockfish15_depth(elo: float) -> int:
    """The depth at which that skill level picks its move."""
    return 1 + int(stockfish15_level(elo))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = ap.add_mutually_exclusive_group(required=True)
    group.add_argument("--depth", type=int)
    group.add_argument("--stockfish-elo", type=int)
    ap.add_argument("engine", nargs="+", help="the engine's command line (after --)")
    args = ap.parse_args()
    depth = args.depth if args.depth is not None else stockfish15_depth(args.stockfish_elo)

    def to_engine(line: str) -> str:
        return f"go depth {depth}\n" if line.split()[:1] == ["go"] else line

    return relay(args.engine, to_engine=to_engine)


if __name__ == "__main__":
    sys.exit(main())
