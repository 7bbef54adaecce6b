#!/usr/bin/env python3
"""Calibrate `UCI_Elo` (`make calibrate`): knot matches, the fit, the table, the checks.

Unattended and resumable; docs/history/measurements.md ("UCI_Elo calibration with nw-g15") has
the method and the figures. Four steps:

1. **Knots.** Each `LEVEL:SF` of `--knots` is a match of Nullwindow at the internal level LEVEL
   (selected by the environment variable NULLWINDOW_STRENGTH_LEVEL, node- and depth-bound)
   against Stockfish 15.1 with UCI_LimitStrength at UCI_Elo SF, turned into `go depth
   1 + int(skill)` by scripts/uci_depth.py: neither side is bound by the clock, so the load of
   the machine cannot change a game. The knots are played by a copy of `--engine` made when the
   output directory is new (`OUT/nullwindow-knots`), so a run continued later plays the same
   build; a new net wants a new output directory.
2. **Fit.** scripts/fit_elo.py's joint maximum likelihood fit of every knot game gives the Elo of
   each knot level on the CCRL Blitz scale; printed as the Rust source of `CALIBRATION`.
3. With `--write`, the table replaces the block between `CALIBRATION_BEGIN` and
   `CALIBRATION_END` in src/search/strength.rs and `make build` makes the engine again; the
   README's *Playing weaker* sentence is edited by hand to the same points (a unit test holds it).
4. **Checks.** Each `ELO:SF` of `--checks` is a match of the engine at `UCI_Elo` ELO against
   Stockfish at SF; the measured Elo (SF's CCRL Blitz Elo plus the match's) is compared with
   ELO. Checks are played only by a build whose table is the fitted one (asked with `debug
   on`), and their logs are named by the level the table gives ELO (`chkELO-lLEVEL-sfSF.log`):
   a new table that moves the setting to another level is checked again, one that does not
   (a knot added far away) keeps the games, which would be the same.

A match whose complete log is in the output directory is not played again (a log is renamed
from `.part` when its match ends), so a stopped run continues where it stopped.

    calibrate.py --out data-calib --games 200 --knots 1000:1350,1800:1850 --checks 2000:1900 --write
"""

import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
from datetime import date
from pathlib import Path

from fit_elo import ccrl_blitz, final_result as final, interpolate, joint_fit
from uci_depth import stockfish15_depth

ROOT = Path(__file__).resolve().parent.parent
STRENGTH_RS = ROOT / "src" / "search" / "strength.rs"
# The highest level, read from its one declaration in strength.rs.
LEVEL_MAX = int(re.search(r"pub const LEVEL_MAX: i32 = (\d+);", STRENGTH_RS.read_text()).group(1))


def pairs(text):
    """`A:B[:GAMES],...` as [(A, B, GAMES or None)]."""
    out = []
    for item in filter(None, text.split(",")):
        fields = [int(f) for f in item.split(":")]
        if len(fields) not in (2, 3):
            raise argparse.ArgumentTypeError(f"{item}: not A:B or A:B:GAMES")
        out.append((fields[0], fields[1], fields[2] if len(fields) == 3 else None))
    return out


def play(args, log: Path, a_cmd: str, a_opts, sf: int, seed: int, games):
    """One match of `games` (None: --games) into `log` unless its complete log exists."""
    games = games or args.games
    if final(log) and final(log)[0] >= games:
        print(f"{log.name}: done, skipped", flush=True)
        return
    cmd = [sys.executable, args.match, "--a", a_cmd]
    for o in a_opts + ["Hash=64"]:
        cmd += ["--a-opt", o]
    cmd += ["--b", f"{sys.executable} {ROOT}/scripts/uci_depth.py --stockfish-elo {sf} -- {args.stockfish}"]
    for o in ["UCI_LimitStrength=true", f"UCI_Elo={sf}", "Hash=64", "Threads=1"]:
        cmd += ["--b-opt", o]
    cmd += ["--tc", args.tc, "--games", str(games), "--concurrency", str(args.concurrency),
            "--openings", args.openings, "--seed", str(seed)]
    part = log.with_suffix(".part")
    print(f"{log.name}: playing {games} games ...", flush=True)
    with open(part, "w") as f:
        f.write("# " + " ".join(cmd) + "\n")
        f.flush()
        subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, check=True)
    if not final(part):
        sys.exit(f"{part}: the match ended without a result")
    part.rename(log)
    print(f"{log.name}: {final(log)[:4]}", flush=True)


def snapshot(engine: Path, copy: Path) -> Path:
    if not copy.exists():
        shutil.copy2(engine, copy)
        (copy.parent / (copy.name + ".txt")).write_text(
            subprocess.run([str(copy), "--version"], capture_output=True, text=True).stdout
            + subprocess.run([str(copy), "bench"], capture_output=True, text=True).stdout.splitlines()[-1] + "\n")
    return copy


def engine_level(engine: Path, elo: int):
    """The level the engine's own table gives `UCI_Elo` elo (from `debug on`)."""
    script = (f"setoption name UCI_LimitStrength value true\nsetoption name UCI_Elo value {elo}\n"
              "debug on\nposition startpos\ngo depth 1\nisready\nquit\n")
    env = {k: v for k, v in os.environ.items() if k != "NULLWINDOW_STRENGTH_LEVEL"}
    out = subprocess.run([str(engine)], input=script, capture_output=True, text=True, env=env).stdout
    m = re.search(r"info string strength elo \d+ level (\d+)", out)
    return int(m.group(1)) if m else None


def table_level(table, elo: int) -> int:
    """src/search/strength.rs's `level_for_elo` for a table."""
    points = [(float(l), float(e)) for l, e in table]
    (l0, e0), (l1, e1) = points[-2], points[-1]
    if l1 < LEVEL_MAX:
        points.append((LEVEL_MAX, e1 + (e1 - e0) / (l1 - l0) * (LEVEL_MAX - l1)))
    inv = [(e, l) for l, e in points]
    x = float(elo)
    if x <= inv[0][0]:
        y = inv[0][1]
    elif x >= inv[-1][0]:
        y = inv[-1][1]
    else:
        y = next(l0 + (l1 - l0) * (x - e0) / (e1 - e0)
                 for (e0, l0), (e1, l1) in zip(inv, inv[1:]) if x <= e1)
    return int(y + 0.5)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", default=str(ROOT / "target/release/nullwindow"))
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--match", default=str(ROOT / "../shared/tools/match.py"))
    ap.add_argument("--openings", default=str(ROOT / "../shared/data/openings/noob_3moves.epd"))
    ap.add_argument("--out", default=str(ROOT / "data-calib"))
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--concurrency", type=int, default=1)
    ap.add_argument("--tc", default="60+0.6", help="nominal: both sides stop at nodes or depth first")
    ap.add_argument("--knots", type=pairs, required=True, help="LEVEL:SF_UCI_ELO[:GAMES],...")
    ap.add_argument("--checks", type=pairs, default=[], help="UCI_ELO:SF_UCI_ELO[:GAMES],...")
    ap.add_argument("--write", action="store_true", help="write the table into strength.rs, make build")
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    knots_engine = snapshot(Path(args.engine), out / "nullwindow-knots")
    print("knots played by", (out / "nullwindow-knots.txt").read_text().replace("\n", "; "))
    for level, sf, games in args.knots:
        play(args, out / f"nw{level}-sf{sf}.log", f"env NULLWINDOW_STRENGTH_LEVEL={level} {knots_engine}",
             ["UCI_LimitStrength=true"], sf, level, games)

    matches = []
    for level, sf, _ in args.knots:
        g, w, d, l, elo, lo, hi = final(out / f"nw{level}-sf{sf}.log")
        opp = ccrl_blitz(sf)
        matches.append((level, opp, w + d / 2, g))
        print(f"level {level:5d} vs SF 15.1 UCI_Elo {sf} (CCRL Blitz {opp:.0f}, depth "
              f"{stockfish15_depth(sf)}): W{w} D{d} L{l}, {elo:+.1f} [{lo:+.1f}, {hi:+.1f}] "
              f"-> about {opp + elo:.0f}")
    knots = sorted({level for level, _, _ in args.knots})
    values, widths = joint_fit(knots, matches)
    table = [(k, round(v)) for k, v in zip(knots, values)]
    print("\njoint fit:")
    for (k, v), wd in zip(table, widths):
        print(f"  level {k:5d}: {v} +- {wd:.0f}")
    for level, opp, pts, n in matches:
        exp = n / (1 + 10 ** ((opp - interpolate(knots, values, level)) / 400))
        print(f"  level {level:5d} vs {opp:.0f}: scored {pts:.1f} of {n}, the fit expects {exp:.1f}")
    if any(b[1] <= a[1] for a, b in zip(table, table[1:])):
        sys.exit("the fitted Elo does not rise with the level: more games or other knots")
    games = sum(n for *_, n in matches)
    widths_text = ", ".join(f"{w:.0f}" for w in widths)
    # The day the last knot match ended (so a run continued later prints the same block).
    day = date.fromtimestamp(max((out / f"nw{l}-sf{s}.log").stat().st_mtime for l, s, _ in args.knots))
    # The network the knots were played with (the snapshot's `--version`): the table holds for it.
    version = (out / "nullwindow-knots.txt").read_text()
    net = re.search(r"^network: (\S+)", version, re.M)
    if not net:
        sys.exit("the knot engine names no network (`--version`): the table would hold for nothing")
    rust = (f"// Measured by `make calibrate` (scripts/calibrate.py, {day}): {games:,} games of\n"
            f"// {len(knots)} levels against Stockfish 15.1 with UCI_LimitStrength, each setting at the\n"
            "// CCRL Blitz Elo of its integer skill level by Stockfish 16's refit (scripts/fit_elo.py).\n"
            f"// 95% intervals of the fit: {widths_text}.\n"
            "/// Measured strength of some levels.\n"
            f"pub const CALIBRATION: [(i32, i32); {len(table)}] = [\n"
            + "".join(f"    ({k}, {v}),\n" for k, v in table) + "];\n"
            "/// The network the calibration's games were played with (a test holds it to the\n"
            "/// embedded one: a new net wants `make calibrate`).\n"
            f"pub const CALIBRATION_NET: &str = \"{net.group(1)}\";\n")
    print("\n" + rust)
    digest = hashlib.sha256(repr(table).encode()).hexdigest()[:8]

    if args.write:
        src = STRENGTH_RS.read_text()
        begin = src.index("// CALIBRATION_BEGIN")
        begin = src.index("\n", begin) + 1
        end = src.index("// CALIBRATION_END")
        if src[begin:end] != rust:
            STRENGTH_RS.write_text(src[:begin] + rust + src[end:])
            print(f"written into {STRENGTH_RS}")
        subprocess.run(["make", "-C", str(ROOT), "build"], check=True)
    if not args.checks:
        return 0
    engine = Path(args.engine)
    wrong = [e for e, _, _ in args.checks if engine_level(engine, e) != table_level(table, e)]
    if wrong:
        print(f"{engine} has another table (UCI_Elo {wrong[0]}): run with --write, or put the "
              "table above into src/search/strength.rs and `make build`; checks not played")
        return 1
    checks_engine = snapshot(engine, out / f"nullwindow-checks-{digest}")
    print("\nchecks (table", digest + "):")

    def check_log(elo, sf):
        return out / f"chk{elo}-l{table_level(table, elo)}-sf{sf}.log"

    for elo, sf, games in args.checks:
        play(args, check_log(elo, sf), str(checks_engine),
             ["UCI_LimitStrength=true", f"UCI_Elo={elo}"], sf, elo, games)
    for elo, sf, _ in args.checks:
        g, w, d, l, diff, lo, hi = final(check_log(elo, sf))
        opp = ccrl_blitz(sf)
        print(f"UCI_Elo {elo} (level {table_level(table, elo)}) vs SF 15.1 UCI_Elo {sf} (CCRL "
              f"Blitz {opp:.0f}): {g} games W{w} D{d} L{l}, {diff:+.1f} [{lo:+.1f}, {hi:+.1f}]: plays "
              f"at about {opp + diff:.0f}, {opp + diff - elo:+.0f} [{opp + lo - elo:+.0f}, "
              f"{opp + hi - elo:+.0f}] from the setting")
    return 0


if __name__ == "__main__":
    sys.exit(main())
