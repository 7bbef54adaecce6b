#!/usr/bin/env python3
"""Clock usage of an engine in real games: how much of its clock it spends, and when.

Plays a few games of the engine under test against an opponent (default /usr/games/glaurung,
Threads=1) from deterministically chosen openings, colours alternating. The script keeps both
clocks itself: the wall time around each engine call is taken off the mover's clock, then the
increment is added. A clock going negative is a time loss and ends the game.

The report, for the engine under test only, is a Markdown table (one row per game and a total):
moves played, average, median and longest think time, time spent in its moves 1-20, 21-40,
41-60 and 61+ (counted from the opening position), its clock after its move 60 (or after its
last move when the game was shorter), the share of its budget (base + inc x moves) it used, and
the result and termination. Time losses, illegal moves and crashes are listed above the table.
The exit status is 1 when the engine under test lost on time, played an illegal move or
crashed, else 0.

Examples:
  scripts/timeusage.py --engine target/release/nullwindow --games 2
  scripts/timeusage.py --engine target/release/nullwindow --tc 10+0.1 --games 4 --csv moves.csv
  scripts/timeusage.py --engine target/release/nullwindow --engine-opt Hash=64 \\
      --opponent /usr/games/stockfish --opponent-opt Threads=1 --opponent-opt "Skill Level=5"
  make timeusage
"""
import argparse
import csv
import os
import random
import shlex
import signal
import statistics
import sys
import threading
import time

import chess
import chess.engine

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PHASES = ((1, 20), (21, 40), (41, 60), (61, None))
REPORT_MOVE = 60
HANG_GRACE = 10.0  # seconds past its clock before a silent engine is killed (counted a crash)


def parse_args():
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--engine", required=True, help="command of the engine under test")
    p.add_argument("--engine-opt", action="append", default=[], metavar="NAME=VALUE",
                   help="UCI option for the engine under test (repeatable)")
    p.add_argument("--opponent", default="/usr/games/glaurung", help="command of the opponent")
    p.add_argument("--opponent-opt", action="append", default=None, metavar="NAME=VALUE",
                   help="UCI option for the opponent (repeatable; default Threads=1 for glaurung)")
    p.add_argument("--tc", default="60+0.6", help="time control BASE+INC in seconds")
    p.add_argument("--games", type=int, default=2, help="number of games")
    p.add_argument("--openings", default=None,
                   help="EPD/FEN file, one position a line (default: "
                        "$SHARED/data/openings/UHO_4060_v4.epd, SHARED defaulting to ../shared)")
    p.add_argument("--seed", type=int, default=1, help="seed of the opening choice")
    p.add_argument("--max-plies", type=int, default=400,
                   help="plies after which a game is adjudicated a draw")
    p.add_argument("--csv", default=None, help="write one row per move to this file")
    args = p.parse_args()
    try:
        base, inc = args.tc.split("+")
        args.base, args.inc = float(base), float(inc)
    except ValueError:
        p.error(f"--tc must be BASE+INC, got {args.tc!r}")
    if args.opponent_opt is None:
        glaurung = "glaurung" in os.path.basename(shlex.split(args.opponent)[0])
        args.opponent_opt = ["Threads=1"] if glaurung else []
    if args.openings is None:
        shared = os.environ.get("SHARED", os.path.join(ROOT, "..", "shared"))
        args.openings = os.path.join(shared, "data", "openings", "UHO_4060_v4.epd")
    return args


def options(pairs):
    out = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            sys.exit(f"option {pair!r} is not NAME=VALUE")
        out[name.strip()] = value.strip()
    return out


def read_openings(path, games, seed):
    """The FEN of each game's opening: `games` distinct lines picked with `seed`."""
    with open(path) as f:
        lines = [line.strip() for line in f if line.strip() and not line.startswith("#")]
    if not lines:
        sys.exit(f"no positions in {path}")
    picked = random.Random(seed).sample(lines, min(games, len(lines)))
    fens = []
    for i in range(games):
        line = picked[i % len(picked)]
        try:
            fens.append(chess.Board(line).fen())
        except ValueError:
            fens.append(chess.Board.from_epd(line)[0].fen())
    return fens


def start(cmd, opts):
    engine = chess.engine.SimpleEngine.popen_uci(shlex.split(cmd))
    engine.configure(opts)
    return engine


def think(engine, board, limit, budget):
    """engine.play under a watchdog that kills the engine `budget` seconds in."""
    watchdog = threading.Timer(budget, os.kill, (engine.transport.get_pid(), signal.SIGKILL))
    watchdog.start()
    try:
        return engine.play(board, limit)
    finally:
        watchdog.cancel()


def play_game(args, index, fen, engine_white, writer):
    """Play one game; return the record of the engine under test."""
    board = chess.Board(fen)
    test_colour = chess.WHITE if engine_white else chess.BLACK
    clock = {chess.WHITE: args.base, chess.BLACK: args.base}
    moves = {chess.WHITE: 0, chess.BLACK: 0}
    rec = {"game": index + 1, "colour": "white" if engine_white else "black", "times": [],
           "clock60": None, "clock_last": args.base, "fault": None}
    players = {}
    loser, termination = None, None
    try:
        players[test_colour] = start(args.engine, options(args.engine_opt))
        players[not test_colour] = start(args.opponent, options(args.opponent_opt))
        while True:
            outcome = board.outcome(claim_draw=True)
            if outcome:
                rec["result"] = outcome.result()
                termination = outcome.termination.name.lower().replace("_", " ")
                break
            if len(board.move_stack) >= args.max_plies:
                rec["result"], termination = "1/2-1/2", f"adjudicated after {args.max_plies} plies"
                break
            side = board.turn
            who = "engine" if side == test_colour else "opponent"
            limit = chess.engine.Limit(white_clock=clock[chess.WHITE],
                                       black_clock=clock[chess.BLACK],
                                       white_inc=args.inc, black_inc=args.inc)
            before = clock[side]
            patience = before + HANG_GRACE
            t0 = time.monotonic()
            try:
                result = think(players[side], board, limit, patience)
            except chess.engine.EngineTerminatedError as e:
                hung = time.monotonic() - t0 >= patience
                loser, termination = side, (f"{who} hung, killed after {patience:.0f} s" if hung
                                            else f"{who} crashed ({e})")
                break
            except chess.engine.EngineError as e:
                loser, termination = side, f"{who} illegal or unreadable move ({e})"
                break
            spent = time.monotonic() - t0
            if result.move is None or result.move not in board.legal_moves:
                loser, termination = side, f"{who} illegal move {result.move}"
                break
            moves[side] += 1
            clock[side] = before - spent
            if clock[side] >= 0:
                clock[side] += args.inc
            board.push(result.move)
            if writer:
                writer.writerow([index + 1, len(board.move_stack), chess.COLOR_NAMES[side],
                                 moves[side], round(spent * 1000), round(before * 1000),
                                 round(clock[side] * 1000)])
            if side == test_colour:
                rec["times"].append(spent)
                rec["clock_last"] = clock[side]
                if moves[side] == REPORT_MOVE:
                    rec["clock60"] = clock[side]
            if clock[side] < 0:
                loser, termination = side, f"{who} lost on time ({clock[side]:.3f} s)"
                break
    finally:
        for engine in players.values():
            try:
                engine.quit()
            except (chess.engine.EngineError, TimeoutError):
                engine.close()
    if loser is not None:
        rec["result"] = "0-1" if loser == chess.WHITE else "1-0"
        if loser == test_colour:
            rec["fault"] = termination
    rec["termination"] = termination
    won = {"1-0": chess.WHITE, "0-1": chess.BLACK}.get(rec["result"])
    rec["score"] = 0.5 if won is None else float(won == test_colour)
    return rec


def secs(x):
    return f"{x:.2f} s"


def row(label, colour, recs, args, total=False):
    times = [t for r in recs for t in r["times"]]
    n = len(times)
    phases = []
    for lo, hi in PHASES:
        spent = [t for r in recs for t in r["times"][lo - 1:hi]]
        phases.append(secs(sum(spent)) if spent else "-")
    budget = sum(args.base + args.inc * len(r["times"]) for r in recs)
    if not total:
        r = recs[0]
        clock = (secs(r["clock60"]) if r["clock60"] is not None else
                 f"game ended at move {len(r['times'])}, {secs(r['clock_last'])} left")
        result = f"{r['result']} ({['loss', 'draw', 'win'][int(r['score'] * 2)]})"
        termination = r["termination"]
    else:
        at60 = [r["clock60"] for r in recs if r["clock60"] is not None]
        clock = (f"mean {secs(statistics.mean(at60))} ({len(at60)} of {len(recs)} games)"
                 if at60 else f"no game reached move {REPORT_MOVE}")
        result = f"{sum(r['score'] for r in recs):g}/{len(recs)}"
        termination = ""
    cells = [label, colour, str(n),
             f"{statistics.mean(times) * 1000:.0f} ms" if n else "-",
             f"{statistics.median(times) * 1000:.0f} ms" if n else "-",
             f"{max(times) * 1000:.0f} ms" if n else "-",
             *phases, clock, f"{100 * sum(times) / budget:.1f} %", result, termination]
    return "| " + " | ".join(cells) + " |"


def report(args, recs):
    print(f"Engine `{args.engine}` against `{args.opponent}` at {args.tc}, "
          f"{len(recs)} game(s), openings from {os.path.basename(args.openings)} "
          f"(seed {args.seed})."
          "\nMoves are counted from the opening position.\n")
    faults = [r for r in recs if r["fault"]]
    for r in faults:
        print(f"**FINDING: game {r['game']}: {r['fault']}**\n")
    head = ["Game", "Colour", "Moves", "Avg", "Median", "Max",
            *[f"Moves {lo}-{hi}" if hi else f"Moves {lo}+" for lo, hi in PHASES],
            f"Clock after move {REPORT_MOVE}", "Budget used", "Result", "Termination"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for r in recs:
        print(row(str(r["game"]), r["colour"], [r], args))
    print(row("**All**", "", recs, args, total=True))
    return 1 if faults else 0


def main():
    args = parse_args()
    fens = read_openings(args.openings, args.games, args.seed)
    out = open(args.csv, "w", newline="") if args.csv else None
    writer = csv.writer(out) if out else None
    if writer:
        writer.writerow(["game", "ply", "side", "move", "think_ms", "clock_before_ms",
                         "clock_after_ms"])
    recs = []
    try:
        for i, fen in enumerate(fens):
            try:
                rec = play_game(args, i, fen, i % 2 == 0, writer)
            except (OSError, chess.engine.EngineError) as e:
                sys.exit(f"cannot start the engines: {e}")
            print(f"game {i + 1}/{args.games}: {rec['result']} {rec['termination']}",
                  file=sys.stderr)
            recs.append(rec)
    finally:
        if out:
            out.close()
    sys.exit(report(args, recs))


if __name__ == "__main__":
    main()
