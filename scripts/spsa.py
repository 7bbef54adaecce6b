#!/usr/bin/env python3
"""SPSA tuning of the search parameters on one machine, over the shared match runner.

Classic SPSA as OpenBench and Fishtest run it. The parameters and their schedule come from
the tune build's OpenBench input (`nullwindow spsa`, or --input FILE with the same lines):

    NAME, int, value, min, max, c_end, r_end

Each iteration draws a random sign d_i = +-1 per parameter, plays --pairs game pairs (each
opening with both colours) of theta + c_k*d against theta - c_k*d through the engine's UCI
options (values rounded, within min..max), and moves every parameter by

    theta_i += r_k * c_k * (wins - losses) * d_i        (clamped to min..max)

The schedule runs over the whole tune, iterations x pairs game pairs, with k the pairs
played before the iteration:

    c = c_end * pairs_total^gamma            c_k = c / (k + 1)^gamma
    a = r_end * c_end^2 * (A + pairs_total)^alpha
    a_k = a / (A + k + 1)^alpha              r_k = a_k / c_k^2
    A = --a-ratio * pairs_total;  alpha = 0.602, gamma = 0.101 (OpenBench's defaults)

so that the last pairs play about theta +- c_end and move it by about r_end * c_end per point
of result.

The state (schedule, theta, counts, the sum of results) is a JSON file written after every
iteration: run the same command again to go on after an interrupt. Openings and signs come
from --seed and the iteration number, so a resumed run draws what an unbroken one would.
Every --print-every iterations (and at the end) it prints the parameters: current values,
the start, and the OpenBench lines of the current values.

Examples:
  make tune
  scripts/spsa.py --engine target/tune/release/nullwindow --iterations 4 --nodes 2000
  scripts/spsa.py --params RFP_MARGIN,FP_MARGIN,LMR_BASE_X100 --iterations 5000 \\
      --pairs 2 --concurrency 2 --tc 5+0.05 --state spsa-rfp.json
  scripts/spsa.py --state spsa-rfp.json --show      # the parameters of a state file
  scripts/spsa.py --state spsa-rfp.json --a-opts    # its values as match.py's --a-opt NAME=V
      # (those that moved from the start, rounded), for the SPRT of the tune against the defaults
"""
import argparse
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FINAL = re.compile(r"^final: games (\d+) W (\d+) D (\d+) L (\d+)")
COUNTERS = re.compile(
    r"timeloss A (\d+) B (\d+) illegal A (\d+) B (\d+) crash A (\d+) B (\d+)")


def parse_args(argv=None):
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--engine", default=os.path.join(ROOT, "target/tune/release/nullwindow"),
                   help="the tune build (make tune); plays both sides")
    p.add_argument("--match", default=os.path.join(ROOT, "..", "shared", "tools", "match.py"),
                   help="the shared match runner")
    p.add_argument("--openings",
                   default=os.path.join(ROOT, "..", "shared", "data", "openings",
                                        "UHO_4060_v4.epd"),
                   help="EPD/FEN opening file, one position a line")
    p.add_argument("--input", help="OpenBench SPSA lines to tune (default: `ENGINE spsa`)")
    p.add_argument("--params",
                   help="comma-separated names to tune (default: every parameter of the input)")
    p.add_argument("--iterations", type=int, default=1000,
                   help="updates in the whole tune (fixed when the state file is made)")
    p.add_argument("--pairs", type=int, default=None,
                   help="game pairs per iteration (default: --concurrency)")
    p.add_argument("--concurrency", type=int, default=1, help="games at a time")
    limit = p.add_mutually_exclusive_group()
    limit.add_argument("--nodes", type=int, help="fixed nodes per move")
    limit.add_argument("--tc", help="base+increment in seconds (default 5+0.05)")
    p.add_argument("--option", action="append", default=[],
                   help="another UCI option NAME=VALUE for both sides (repeatable), e.g. Hash=16")
    p.add_argument("--alpha", type=float, default=0.602)
    p.add_argument("--gamma", type=float, default=0.101)
    p.add_argument("--a-ratio", type=float, default=0.1,
                   help="A as a share of the tune's game pairs")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--state", default="spsa-state.json", help="the resumable state file")
    p.add_argument("--print-every", type=int, default=10)
    p.add_argument("--show", action="store_true",
                   help="print the parameters of the state file and stop")
    p.add_argument("--a-opts", action="store_true",
                   help="print the state's values that differ from the start (rounded) as "
                        "match.py options --a-opt NAME=VALUE, and stop")
    p.add_argument("-v", "--verbose", action="store_true", help="show match.py's output")
    args = p.parse_args(argv)
    args.argv = sys.argv[1:] if argv is None else argv
    if args.pairs is None:
        args.pairs = max(1, args.concurrency)
    if args.nodes is None and args.tc is None:
        args.tc = "5+0.05"
    return args


def parse_input(text):
    """OpenBench SPSA lines -> list of parameter dicts."""
    params = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        f = [x.strip() for x in line.split(",")]
        if len(f) != 7 or f[1] != "int":
            raise SystemExit(f"not an OpenBench SPSA line: '{line}'")
        name, value, lo, hi = f[0], float(f[2]), float(f[3]), float(f[4])
        c_end, r_end = float(f[5]), float(f[6])
        if not lo <= value <= hi or c_end <= 0 or r_end <= 0:
            raise SystemExit(f"bad range or schedule: '{line}'")
        params.append({"name": name, "start": value, "theta": value, "min": lo, "max": hi,
                       "c_end": c_end, "r_end": r_end})
    return params


def read_input(args):
    if args.input:
        with open(args.input) as f:
            text = f.read()
    else:
        try:
            text = subprocess.run([args.engine, "spsa"], capture_output=True, text=True,
                                  check=True).stdout
        except (OSError, subprocess.CalledProcessError) as e:
            err = getattr(e, "stderr", "") or str(e)
            raise SystemExit(f"{args.engine} spsa failed (a tune build? make tune): {err.strip()}")
    params = parse_input(text)
    if args.params:
        want = [n.strip().upper() for n in args.params.split(",") if n.strip()]
        known = {p["name"].upper(): p for p in params}
        missing = [n for n in want if n not in known]
        if missing:
            raise SystemExit(f"unknown parameters: {', '.join(missing)}")
        params = [known[n] for n in want]
    if not params:
        raise SystemExit("no parameters to tune")
    return params


def new_state(args):
    params = read_input(args)
    total = args.iterations * args.pairs
    big_a = args.a_ratio * total
    for p in params:
        p["c"] = p["c_end"] * total ** args.gamma
        p["a"] = p["r_end"] * p["c_end"] ** 2 * (big_a + total) ** args.alpha
    return {
        "version": 1,
        "iterations": args.iterations, "pairs": args.pairs, "alpha": args.alpha,
        "gamma": args.gamma, "A": big_a, "seed": args.seed,
        "limit": {"nodes": args.nodes} if args.nodes else {"tc": args.tc},
        "iteration": 0, "k": 0, "games": 0, "wins": 0, "draws": 0, "losses": 0,
        "params": params,
    }


def save_state(path, state):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(state, f, indent=1)
        f.write("\n")
    os.replace(tmp, path)


def load_state(args):
    with open(args.state) as f:
        state = json.load(f)
    given = {a.split("=")[0] for a in args.argv if a.startswith("--")}
    ours = {"iterations": args.iterations, "pairs": args.pairs, "seed": args.seed,
            "alpha": args.alpha, "gamma": args.gamma,
            "nodes": args.nodes, "tc": args.tc,
            "params": args.params and ",".join(n.strip().upper() for n in args.params.split(","))}
    theirs = dict(state, nodes=state["limit"].get("nodes"), tc=state["limit"].get("tc"),
                  params=",".join(p["name"].upper() for p in state["params"]))
    for key, v in ours.items():
        if f"--{key}" in given and v != theirs[key]:
            print(f"note: {args.state} keeps {key} {theirs[key]}, not {v}", file=sys.stderr)
    return state


def check_engine(args, state):
    """Every tuned parameter must be a UCI option of the engine (else match.py would stall)."""
    try:
        out = subprocess.run([args.engine], input="uci\nquit\n", capture_output=True,
                             text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired) as e:
        raise SystemExit(f"cannot run {args.engine}: {e}")
    options = {l.split(" type ")[0][len("option name "):].upper()
               for l in out.splitlines() if l.startswith("option name ")}
    missing = [p["name"] for p in state["params"] if p["name"].upper() not in options]
    if missing:
        raise SystemExit(f"{args.engine} has no UCI option {', '.join(missing[:5])}"
                         f"{' ...' if len(missing) > 5 else ''} (a tune build? make tune)")


def schedule(p, state):
    """c_k and r_k of parameter p for the next iteration."""
    k = state["k"] + 1
    c_k = p["c"] / k ** state["gamma"]
    a_k = p["a"] / (state["A"] + k) ** state["alpha"]
    return c_k, a_k / c_k ** 2


def clamp(p, x):
    return min(max(x, p["min"]), p["max"])


def show(state, out=sys.stdout):
    print(f"iteration {state['iteration']}/{state['iterations']} "
          f"({state['k']} pairs, games {state['games']} "
          f"W {state['wins']} D {state['draws']} L {state['losses']})", file=out)
    width = max(len(p["name"]) for p in state["params"])
    print(f"  {'name':<{width}} {'value':>10} {'start':>8} {'c_k':>7} {'r_k':>9}", file=out)
    for p in state["params"]:
        c_k, r_k = schedule(p, state)
        print(f"  {p['name']:<{width}} {p['theta']:10.2f} {p['start']:8g} {c_k:7.2f} "
              f"{r_k:9.5f}", file=out)
    print("OpenBench input of the current values:", file=out)
    for p in state["params"]:
        print(f"{p['name']}, int, {round(p['theta'])}, {p['min']:g}, {p['max']:g}, "
              f"{p['c_end']:g}, {p['r_end']:g}", file=out)
    out.flush()


def a_opts(state):
    """The tuned values that moved from the start (rounded) as match.py's --a-opt options."""
    return " ".join(f"--a-opt {p['name']}={round(p['theta'])}" for p in state["params"]
                    if round(p["theta"]) != round(p["start"]))


def load_openings(path):
    with open(path) as f:
        return [line.strip() for line in f if line.strip() and not line.startswith("#")]


def play(args, state, plus, minus, fens, workdir):
    """Plays the iteration's pairs: engine A with `plus`, B with `minus`. Returns (W, D, L)
    from A's side."""
    book = os.path.join(workdir, "openings.epd")
    with open(book, "w") as f:
        f.write("\n".join(fens) + "\n")
    cmd = [sys.executable, args.match, "--a", args.engine, "--b", args.engine,
           "--name-a", "plus", "--name-b", "minus", "--games", str(2 * len(fens)),
           "--concurrency", str(args.concurrency), "--openings", book,
           "--seed", str(state["iteration"])]
    limit = state["limit"]
    cmd += ["--nodes", str(limit["nodes"])] if "nodes" in limit else ["--tc", limit["tc"]]
    for side, values in (("--a-opt", plus), ("--b-opt", minus)):
        for opt in args.option:
            cmd += [side, opt]
        for name, v in values.items():
            cmd += [side, f"{name}={v}"]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if args.verbose:
        sys.stdout.write(proc.stdout)
    final = [l for l in proc.stdout.splitlines() if l.startswith("final:")]
    m = FINAL.match(final[-1]) if final else None
    if proc.returncode != 0 or not m:
        raise SystemExit(f"match.py failed (exit {proc.returncode}):\n{proc.stdout[-2000:]}"
                         f"\n{proc.stderr[-2000:]}")
    c = COUNTERS.search(final[-1])
    if c and any(int(x) for x in c.groups()):
        print(f"warning: time losses, illegal moves or crashes: {final[-1]}", file=sys.stderr)
    games, w, d, l = (int(x) for x in m.groups())
    if games != 2 * len(fens):
        raise SystemExit(f"match.py played {games} games, not {2 * len(fens)}")
    return w, d, l


def iterate(args, state, fens, workdir):
    it = state["iteration"] + 1
    flips = random.Random(f"{state['seed']}:{it}:flips")
    picks = random.Random(f"{state['seed']}:{it}:openings")
    plus, minus, steps = {}, {}, []
    for p in state["params"]:
        c_k, r_k = schedule(p, state)
        d = flips.choice((-1, 1))
        plus[p["name"]] = round(clamp(p, p["theta"] + c_k * d))
        minus[p["name"]] = round(clamp(p, p["theta"] - c_k * d))
        steps.append((p, c_k, r_k, d))
    w, dr, l = play(args, state, plus, minus,
                    [picks.choice(fens) for _ in range(state["pairs"])], workdir)
    for p, c_k, r_k, d in steps:
        p["theta"] = clamp(p, p["theta"] + r_k * c_k * (w - l) * d)
    state["iteration"] = it
    state["k"] += state["pairs"]
    state["games"] += w + dr + l
    state["wins"] += w
    state["draws"] += dr
    state["losses"] += l
    return w, dr, l


def main(argv=None):
    args = parse_args(argv)
    if args.show:
        show(load_state(args))
        return
    if args.a_opts:
        print(a_opts(load_state(args)))
        return
    if os.path.exists(args.state):
        state = load_state(args)
        print(f"resuming {args.state} at iteration {state['iteration']}/{state['iterations']}")
    else:
        state = new_state(args)
    check_engine(args, state)
    fens = load_openings(args.openings)
    if state["iteration"] == 0 and not os.path.exists(args.state):
        save_state(args.state, state)
        print(f"new tune {args.state}: {len(state['params'])} parameters, "
              f"{state['iterations']} iterations of {state['pairs']} pairs, {state['limit']}")
    with tempfile.TemporaryDirectory(prefix="spsa-") as workdir:
        while state["iteration"] < state["iterations"]:
            t0 = time.monotonic()
            w, d, l = iterate(args, state, fens, workdir)
            save_state(args.state, state)
            print(f"iteration {state['iteration']}/{state['iterations']}: W {w} D {d} L {l} "
                  f"({time.monotonic() - t0:.1f} s)", flush=True)
            if state["iteration"] % args.print_every == 0:
                show(state)
    if state["iteration"] % args.print_every != 0 or state["iteration"] == 0:
        show(state)


def interrupted(_signum, _frame):
    raise KeyboardInterrupt


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, interrupted)
    try:
        main()
    except KeyboardInterrupt:
        print("\ninterrupted: the state file holds every finished iteration", file=sys.stderr)
        sys.exit(130)
