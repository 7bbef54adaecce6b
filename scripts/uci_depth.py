#!/usr/bin/env python3
"""Run a UCI engine with every `go` turned into `go depth D`.

Used to calibrate `UCI_Elo` (docs/measurements.md, "UCI_Elo calibration") against Stockfish
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
import subprocess
import sys
import threading


def stockfish15_depth(elo: int) -> int:
    """The pick depth of Stockfish 15.1's UCI_Elo (search.cpp, `Skill`)."""
    level = min(max(math.pow((elo - 1346.6) / 143.4, 1 / 0.806), 0.0), 20.0)
    return 1 + int(level)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = ap.add_mutually_exclusive_group(required=True)
    group.add_argument("--depth", type=int)
    group.add_argument("--stockfish-elo", type=int)
    ap.add_argument("engine", nargs="+", help="the engine's command line (after --)")
    args = ap.parse_args()
    depth = args.depth if args.depth is not None else stockfish15_depth(args.stockfish_elo)

    proc = subprocess.Popen(args.engine, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True, bufsize=1)

    def pump() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            sys.stdout.write(line)
            sys.stdout.flush()

    out = threading.Thread(target=pump, daemon=True)
    out.start()
    assert proc.stdin is not None
    try:
        for line in sys.stdin:
            words = line.split()
            if words and words[0] == "go":
                line = f"go depth {depth}\n"
            proc.stdin.write(line)
            proc.stdin.flush()
            if words and words[0] == "quit":
                break
    except BrokenPipeError:
        pass
    try:
        proc.stdin.close()
    except BrokenPipeError:
        pass
    proc.wait()
    out.join(timeout=1)
    return proc.returncode or 0


if __name__ == "__main__":
    sys.exit(main())
