#!/usr/bin/env python3
"""Soak test: many fast games with the shared match runner, to catch time losses, illegal
moves and crashes rather than to measure strength.

Three phases, run one after another (choose with --phases):

  self       1000 games at 1+0.01 against the previous binary (--previous) or itself
  reference   200 games at 10+0.1 against a reference engine (default /usr/games/glaurung,
             Threads=1)
  repeating   200 games at the repeating control 40/10 against the reference engine

Each phase runs ../shared/tools/match.py, shows its progress lines, keeps its whole output and
PGN under --log-dir, watches the machine (the share of CPU time the host steals, from
/proc/stat, and the longest freeze a sleeping thread sees: a time loss during a freeze longer
than the clock is the machine's doing), and reads the counters from its last report line
(`... timeloss A x B y illegal A x B y crash A x B y`). A summary table comes last. The exit
status is 1 when the engine under test (A, and B too when B is the same binary) lost on time,
played an illegal move or crashed in any phase, or when a phase did not finish; else 0.

Examples:
  scripts/soak.py                                    # the whole soak (hours on 2 cores)
  scripts/soak.py --phases self --self-games 2       # a smoke run
  scripts/soak.py --previous /tmp/nullwindow-old --phases self
  make soak SOAK_OPT="--phases reference,repeating --concurrency 2"
"""
import argparse
import os
import re
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COUNTERS = re.compile(
    r"timeloss A (\d+) B (\d+) illegal A (\d+) B (\d+) crash A (\d+) B (\d+)")
SCORE = re.compile(r"games (\d+) W (\d+) D (\d+) L (\d+)")


def parse_args():
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--engine", default=os.path.join(ROOT, "target/release/nullwindow"),
                   help="the engine under test (A)")
    p.add_argument("--engine-opt", action="append", default=[],
                   help="UCI option NAME=VALUE for the engine under test (repeatable)")
    p.add_argument("--previous", default=None,
                   help="opponent of the self phase (default: the engine itself)")
    p.add_argument("--previous-opt", action="append", default=[],
                   help="UCI option NAME=VALUE for the self phase's opponent (repeatable; "
                        "e.g. Threads=2 to soak both sides with threads)")
    p.add_argument("--reference", default="/usr/games/glaurung",
                   help="opponent of the reference and repeating phases")
    p.add_argument("--reference-opt", action="append", default=None,
                   help="UCI option for the reference engine (default Threads=1)")
    p.add_argument("--shared", default=os.path.join(ROOT, "..", "shared"),
                   help="the shared folder with tools/match.py and data/openings")
    p.add_argument("--openings", default=None,
                   help="EPD opening file (default: shared/data/openings/UHO_4060_v4.epd)")
    p.add_argument("--phases", default="self,reference,repeating",
                   help="comma-separated phases to run")
    p.add_argument("--self-games", type=int, default=1000)
    p.add_argument("--self-tc", default="1+0.01")
    p.add_argument("--ref-games", type=int, default=200)
    p.add_argument("--ref-tc", default="10+0.1")
    p.add_argument("--rep-games", type=int, default=200)
    p.add_argument("--rep-tc", default="40/10")
    p.add_argument("--concurrency", type=int, default=1)
    p.add_argument("--timemargin", type=float, default=None,
                   help="seconds an engine may overrun its clock (match.py's default if unset)")
    p.add_argument("--log-dir", default=os.path.join(ROOT, "out", "soak"),
                   help="where each phase's output and PGN go")
    p.add_argument("--dry-run", action="store_true",
                   help="print the match commands without running them")
    return p.parse_args()


def phases(args):
    """(name, opponent, opponent options, tc, games) of each phase asked for."""
    ref_opt = args.reference_opt if args.reference_opt is not None else ["Threads=1"]
    known = {
        "self": (args.previous or args.engine, args.previous_opt, args.self_tc,
                 args.self_games),
        "reference": (args.reference, ref_opt, args.ref_tc, args.ref_games),
        "repeating": (args.reference, ref_opt, args.rep_tc, args.rep_games),
    }
    out = []
    for name in [p.strip() for p in args.phases.split(",") if p.strip()]:
        if name not in known:
            sys.exit(f"soak: unknown phase '{name}' (known: {', '.join(known)})")
        out.append((name, *known[name]))
    return out


def program(command):
    """The executable of an engine command line ("/usr/games/gnuchess --uci" -> its path),
    split on whitespace as match.py splits it."""
    return command.split()[0]


def match_command(args, name, opponent, opp_opts, tc, games):
    match = os.path.join(args.shared, "tools", "match.py")
    cmd = [sys.executable, match, "--a", args.engine, "--b", opponent, "--tc", tc,
           "--games", str(games), "--concurrency", str(args.concurrency),
           "--name-a", "nullwindow", "--name-b", os.path.basename(program(opponent)),
           "--pgn", os.path.join(args.log_dir, f"{name}.pgn")]
    for o in args.engine_opt:
        cmd += ["--a-opt", o]
    for o in opp_opts:
        cmd += ["--b-opt", o]
    openings = args.openings or os.path.join(
        args.shared, "data", "openings", "UHO_4060_v4.epd")
    if os.path.exists(openings):
        cmd += ["--openings", openings]
    if args.timemargin is not None:
        cmd += ["--timemargin", str(args.timemargin)]
    return cmd


def cpu_ticks():
    """(steal, total) jiffies of all CPUs from /proc/stat, or None where it cannot be read."""
    try:
        with open("/proc/stat") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    steal = fields[7] if len(fields) > 7 else 0
    return steal, sum(fields[:8])


class StallProbe:
    """Watches the machine while a phase runs: a thread sleeps 5 ms at a time and records how
    late it wakes (a process frozen by the scheduler or the hypervisor wakes late by the
    length of the freeze), and /proc/stat gives the share of CPU time stolen by the host.
    A time loss during a freeze longer than the engine's clock is the machine's, not the
    engine's; the summary prints both figures so that the two can be told apart."""

    def __init__(self):
        self.max_late, self.over_200ms, self.running = 0.0, 0, True
        self.ticks = cpu_ticks()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        while self.running:
            t = time.monotonic()
            time.sleep(0.005)
            late = time.monotonic() - t - 0.005
            self.max_late = max(self.max_late, late)
            self.over_200ms += late > 0.2

    def stop(self):
        """Ends the probe; returns (steal %, or None; longest stall in ms; stalls > 200 ms)."""
        self.running = False
        self.thread.join()
        end, steal = cpu_ticks(), None
        if self.ticks and end and end[1] > self.ticks[1]:
            steal = 100.0 * (end[0] - self.ticks[0]) / (end[1] - self.ticks[1])
        return steal, self.max_late * 1000.0, self.over_200ms


def run_phase(args, name, cmd):
    """Runs one match; returns (rc, last counters, last score, seconds, probe figures)."""
    log_path = os.path.join(args.log_dir, f"{name}.log")
    counters, score = None, None
    start = time.monotonic()
    probe = StallProbe()
    print(f"== {name}: {' '.join(cmd)}", flush=True)
    with open(log_path, "w") as log:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                text=True, errors="replace")
        for line in proc.stdout:
            log.write(line)
            log.flush()
            m = COUNTERS.search(line)
            if m:
                counters = tuple(int(x) for x in m.groups())
                s = SCORE.search(line)
                score = tuple(int(x) for x in s.groups()) if s else score
                print(f"   {name}: {line.strip()}", flush=True)
            elif line.strip():
                print(f"   {name}| {line.rstrip()}", flush=True)
        rc = proc.wait()
    return rc, counters, score, time.monotonic() - start, probe.stop()


def main():
    args = parse_args()
    args.engine = os.path.abspath(args.engine)
    if not os.access(args.engine, os.X_OK):
        sys.exit(f"soak: {args.engine} is not an executable (run `make` first)")
    todo = phases(args)
    for name, opponent, _, _, _ in todo:
        if not os.access(program(opponent), os.X_OK):
            sys.exit(f"soak: opponent of phase '{name}' is not an executable: {opponent}")
    os.makedirs(args.log_dir, exist_ok=True)
    rows, failed = [], False
    for name, opponent, opp_opts, tc, games in todo:
        cmd = match_command(args, name, opponent, opp_opts, tc, games)
        if args.dry_run:
            print(" ".join(cmd))
            continue
        rc, counters, score, secs, machine = run_phase(args, name, cmd)
        same = os.path.realpath(program(opponent)) == os.path.realpath(args.engine)
        if rc != 0 or counters is None:
            failed = True
            rows.append((name, tc, opponent, None, None, rc, secs, same, machine))
            continue
        tl_a, tl_b, il_a, il_b, cr_a, cr_b = counters
        ours = tl_a + il_a + cr_a + ((tl_b + il_b + cr_b) if same else 0)
        failed |= ours > 0
        rows.append((name, tc, opponent, score, counters, rc, secs, same, machine))
    if args.dry_run:
        return 0
    print()
    print("soak summary (A = engine under test; B = opponent, also ours when it is the same binary)")
    print(f"{'phase':10} {'tc':8} {'opponent':24} {'games':>6} {'W-D-L':>14} "
          f"{'timeloss A/B':>13} {'illegal A/B':>12} {'crash A/B':>10} {'time':>8}  machine")
    for name, tc, opponent, score, counters, rc, secs, same, machine in rows:
        steal, max_stall, stalls = machine
        steal_text = "steal n/a" if steal is None else f"steal {steal:.1f}%"
        machine_text = f"{steal_text}, longest stall {max_stall:.0f} ms, {stalls} over 200 ms"
        opp = ("itself" if same else os.path.basename(program(opponent)))[:24]
        if counters is None:
            print(f"{name:10} {tc:8} {opp:24} did not finish (match.py exit {rc}); "
                  f"see {os.path.join(args.log_dir, name + '.log')}; {machine_text}")
            continue
        n, w, d, l = score or (0, 0, 0, 0)
        tl_a, tl_b, il_a, il_b, cr_a, cr_b = counters
        print(f"{name:10} {tc:8} {opp:24} {n:>6} {f'{w}-{d}-{l}':>14} "
              f"{f'{tl_a}/{tl_b}':>13} {f'{il_a}/{il_b}':>12} {f'{cr_a}/{cr_b}':>10} "
              f"{secs:>7.0f}s  {machine_text}")
    print("SOAK FAILED" if failed else "soak passed: no time loss, illegal move or crash")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
