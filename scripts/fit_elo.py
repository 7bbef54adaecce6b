#!/usr/bin/env python3
"""Fit the Elo of each UCI_LimitStrength level from matches against Stockfish 15.1's UCI_Elo.

Reads the logs of `match.py` runs named `nw<LEVEL>-sf<SFELO>.log` (A = Nullwindow at level
LEVEL, B = Stockfish 15.1 with UCI_LimitStrength at SFELO through `scripts/uci_depth.py`),
puts each Stockfish setting on the CCRL Blitz scale, and prints for each level the maximum
likelihood Elo over all its games (logistic model, draws as half points) with a 95% interval
from the likelihood's curvature; then a joint fit over every game of a curve through `--knots`
levels (the Elo at a level between two knots interpolated), which averages out the error of
single anchors: its values at the knots are the `CALIBRATION` table of
`src/search/strength.rs`. docs/history/measurements.md, "UCI_Elo calibration", has the runs.

Stockfish 15.1 turns UCI_Elo into a skill level with the formula of its PR #2225, calibrated in
2019 at 60+0.6 against CCRL 40/4 engines, which no longer fits its NNUE play (measured here:
its 1900 and 2200 are about 600 Elo apart, not 300). Stockfish 16 refitted the skill levels
against CCRL Blitz (commit a08b8d4, "Update UCI_Elo parameterization"):
level = ((37.2473 e - 40.8525) e + 22.2943) e - 0.311438, e = (Elo - 1320) / 1870. This
script inverts that fit at the skill level Stockfish 15.1 plays at for the setting. (Stockfish
16's network is somewhat stronger than 15.1's; the difference at a fixed skill level is not
measured here.)

Which level: Stockfish 16's fit went through the integer skill levels it measured, while a
setting between two of them searches to the depth of the lower one (`1 + int(level)`) with
nearly its noise (weakness 120 - 2 level): between integer levels the strength stays that of
the lower level and jumps at the next, where the fit rises smoothly. So a setting is placed at
the CCRL Elo of its integer level, `int(level)` (`--anchor floor`, the default since the
calibration of issue 69); `--anchor smooth` places it at its fractional level (the
calibration of 2026-11-26; it rates a setting just below an integer level up to 230 Elo too
high, docs/history/measurements.md). Settings at (or just above) an integer level are placed
alike by both.

    fit_elo.py LOGDIR [--knots 1000,1567,1800,1901,1930,2200,2600] [--anchor floor|smooth]
"""

import math
import re
import sys
from collections import defaultdict
from pathlib import Path

from uci_depth import stockfish15_depth, stockfish15_level


def sf16_level(e: float) -> float:
    return ((37.2473 * e - 40.8525) * e + 22.2943) * e - 0.311438


def ccrl_blitz(uci_elo: float, anchor: str = "floor") -> float:
    """The CCRL Blitz Elo of Stockfish 15.1 at a UCI_Elo setting (SF 16's fit, inverted at the
    integer skill level it plays at, or with `anchor="smooth"` at the fractional one)."""
    level = stockfish15_level(uci_elo)
    if anchor == "floor":
        level = math.floor(level)
    lo, hi = -0.2, 1.2
    for _ in range(100):
        mid = (lo + hi) / 2
        if sf16_level(mid) < level:
            lo = mid
        else:
            hi = mid
    return 1320 + 1870 * lo


FINAL = re.compile(r"final: games (\d+) W (\d+) D (\d+) L (\d+).*? elo ([-+][\d.]+) \[([-+][\d.]+), ([-+][\d.]+)\]")


def final_result(log: Path):
    """(games, W, D, L, elo, lo, hi) of a match log's last `final:` line, else None."""
    if not log.exists():
        return None
    lines = [l for l in log.read_text().splitlines() if l.startswith("final:")]
    m = FINAL.search(lines[-1]) if lines else None
    if not m:
        return None
    g, w, d, l = map(int, m.groups()[:4])
    return (g, w, d, l, *map(float, m.groups()[4:]))


def interpolate(knots, values, level):
    if level <= knots[0]:
        return values[0]
    for i in range(1, len(knots)):
        if level <= knots[i] or i == len(knots) - 1:
            k0, k1, v0, v1 = knots[i - 1], knots[i], values[i - 1], values[i]
            return v0 + (v1 - v0) * (level - k0) / (k1 - k0)
    return values[-1]


def joint_fit(knots, matches):
    """ML Elo at each knot from [(level, opponent_elo, points, games)] (coordinate ascent:
    the log-likelihood is concave in the knot values). Returns values and 95% half-widths
    (each from the curvature with the other knots held)."""

    def loglik(values):
        total = 0.0
        for level, opp, pts, n in matches:
            r = interpolate(knots, values, level)
            p = 1 / (1 + 10 ** ((opp - r) / 400))
            total += pts * math.log(p) + (n - pts) * math.log(1 - p)
        return total

    values = [float(k) for k in knots]
    for _ in range(60):
        for i in range(len(values)):
            lo, hi = values[i] - 800, values[i] + 800
            for _ in range(80):
                m1, m2 = lo + (hi - lo) / 3, hi - (hi - lo) / 3
                a, b = values.copy(), values.copy()
                a[i], b[i] = m1, m2
                if loglik(a) < loglik(b):
                    lo = m1
                else:
                    hi = m2
            values[i] = (lo + hi) / 2
    widths = []
    for i in range(len(values)):
        up, down = values.copy(), values.copy()
        up[i] += 1
        down[i] -= 1
        curv = -(loglik(up) - 2 * loglik(values) + loglik(down))
        widths.append(1.96 / math.sqrt(curv) if curv > 0 else float("inf"))
    return values, widths


def main() -> int:
    args = sys.argv[1:]
    knots = [1000, 1567, 1800, 1901, 1930, 2200, 2600]
    if "--knots" in args:
        i = args.index("--knots")
        knots = [int(k) for k in args[i + 1].split(",")]
        del args[i : i + 2]
    anchor = "floor"
    if "--anchor" in args:
        i = args.index("--anchor")
        anchor = args[i + 1]
        del args[i : i + 2]
    logdir = Path(args[0] if args else ".")
    matches = []
    by_level = defaultdict(list)
    for log in sorted(logdir.glob("nw*-sf*.log")):
        m = re.match(r"nw(\d+)-sf(\d+)\.log", log.name)
        result = final_result(log)
        if not m or not result:
            continue
        n, w, d = result[:3]
        level, sf = int(m.group(1)), int(m.group(2))
        opp = ccrl_blitz(sf, anchor)
        by_level[level].append((opp, w + d / 2, n))
        matches.append((level, opp, w + d / 2, n))
        print(f"level {level:5d} vs SF 15.1 UCI_Elo {sf} (CCRL Blitz {opp:.0f}, skill "
              f"{stockfish15_level(sf):.2f}, depth {stockfish15_depth(sf)}): {n} games, "
              f"{100 * (w + d / 2) / n:.1f}%")
    print()
    for level in sorted(by_level):
        # One level alone: the joint fit with that level as its only knot.
        (r,), (ci,) = joint_fit([level], [(level, *m) for m in by_level[level]])
        games = sum(n for _, _, n in by_level[level])
        print(f"level {level:5d}: {r:.0f} +- {ci:.0f} ({games} games)")
    values, widths = joint_fit(knots, matches)
    print()
    print("joint fit (the CALIBRATION table):")
    for k, v, w in zip(knots, values, widths):
        print(f"    ({k}, {v:.0f}),   // +- {w:.0f}")
    for level, opp, pts, n in matches:
        r = interpolate(knots, values, level)
        expected = n / (1 + 10 ** ((opp - r) / 400))
        print(f"level {level:5d} vs {opp:.0f}: scored {pts:.1f} of {n}, the fit expects {expected:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
