#!/usr/bin/env python3
"""Runs ../shared/tools/match.py with one guard added: the SPRT may not stop before
MIN_PAIRS game pairs (env SPRT_MIN_PAIRS, default 30).

With a handful of pairs the pentanomial variance estimate can be near zero (e.g. four
games, two identical pair results), and match.py's log-likelihood ratio then crosses a
bound at once. All arguments are passed through to match.py unchanged.

One addition for fixed-node matches: env NODES_A_FACTOR=F gives engine A (the engines started
with --a's command; make it a different path from --b's, e.g. a symlink, when both are the
same binary) F times the --nodes of B per move. It charges a slower evaluation for its speed
in a node-limited match (e.g. F = 0.9 for a net 10% slower in nodes per second), which load
on the machine does not distort as it distorts a timed one.

Resumable: env SPRT_JOURNAL=FILE writes each finished game pair to FILE (one JSON line: the
pair's number in match.py's opening order, both games' scores and endings). Started again with
the same arguments and journal, it counts the pairs the journal holds (W/D/L, pentanomial, time
losses, illegal moves, crashes) and plays only the others; a pair cut off by a kill is played
again whole. A journal made with other arguments (but --games: a cap may be raised) or another
openings file is refused. A long timed SPRT thus survives a stopped machine or session.
"""
import hashlib
import json
import os
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.environ.get("SHARED", os.path.join(HERE, "..", "..", "shared"))
sys.path.insert(0, os.path.join(SHARED, "tools"))

import match  # noqa: E402  (the shared match runner)

# A log redirected to a file shows each line as it comes (Python buffers a file by blocks, and a
# long match's progress was only seen at its end).
sys.stdout.reconfigure(line_buffering=True)
sys.stderr.reconfigure(line_buffering=True)

MIN_PAIRS = int(os.environ.get("SPRT_MIN_PAIRS", "30"))
_llr = match.Stats.llr


def guarded_llr(self, elo0, elo1):
    ps = self.pair_summary()
    if not ps or ps[0] < MIN_PAIRS:
        return 0.0
    return _llr(self, elo0, elo1)


match.Stats.llr = guarded_llr

NODES_A_FACTOR = float(os.environ.get("NODES_A_FACTOR", "1"))
if NODES_A_FACTOR != 1.0:
    import chess.engine  # noqa: E402

    a_cmd = sys.argv[sys.argv.index("--a") + 1].split()
    _popen, _play = chess.engine.SimpleEngine.popen_uci, chess.engine.SimpleEngine.play

    def popen_uci(command, *args, **kwargs):
        engine = _popen(command, *args, **kwargs)
        engine.nodes_factor = NODES_A_FACTOR if command in (a_cmd, a_cmd[0]) else 1.0
        return engine

    def play(self, board, limit, *args, **kwargs):
        factor = getattr(self, "nodes_factor", 1.0)
        if limit.nodes and factor != 1.0:
            limit = chess.engine.Limit(nodes=max(1, round(limit.nodes * factor)))
        return _play(self, board, limit, *args, **kwargs)

    chess.engine.SimpleEngine.popen_uci = staticmethod(popen_uci)
    chess.engine.SimpleEngine.play = play

JOURNAL = os.environ.get("SPRT_JOURNAL")


class Opening(str):
    """An opening's FEN that knows its pair's number in match.py's order."""

    number = -1


def _header(argv):
    """What a journal must agree with: the arguments but --games, and the openings' digest."""
    args, i = [], 0
    while i < len(argv):
        if argv[i] == "--games":
            i += 2
            continue
        if argv[i].startswith("--games="):
            i += 1
            continue
        args.append(argv[i])
        i += 1
    digest = None
    if "--openings" in argv:
        with open(argv[argv.index("--openings") + 1], "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
    return {"args": args, "openings_sha256": digest}


def _tally(stats, games):
    """Counts one journaled pair into match.py's statistics."""
    pair = 0.0
    for game in games:
        s, reason = game["score"], game["reason"]
        pair += s
        if s == 1.0:
            stats.w += 1
        elif s == 0.0:
            stats.l += 1
        else:
            stats.d += 1
        who, _, what = reason.partition(" ")
        if who in ("A", "B"):
            if what == "lost on time":
                stats.time_losses[who] += 1
            elif what == "crashed":
                stats.crashes[who] += 1
            elif what.startswith("engine error") or what.startswith("illegal move"):
                stats.illegal[who] += 1
    stats.penta[int(round(pair * 2))] += 1


def read_journal(path, header):
    """The finished pairs of a journal, {number: [game, game]}; exits on a foreign journal."""
    done = {}
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except FileNotFoundError:
        return done
    if not lines:
        return done
    try:
        first = json.loads(lines[0])
    except json.JSONDecodeError:
        first = None
    if first != {"header": header}:
        sys.exit(f"sprt.py: {path} was written by another match (arguments or openings differ)")
    for line in lines[1:]:
        try:
            entry = json.loads(line)
            if len(entry["games"]) == 2:
                done[int(entry["pair"])] = entry["games"]
        except (json.JSONDecodeError, KeyError, TypeError, ValueError):
            continue  # a line torn by a kill: its pair is played again
    return done


def install_journal(path):
    header = _header(sys.argv[1:])
    done = read_journal(path, header)
    out = open(path, "a+")
    if out.tell() == 0:
        out.write(json.dumps({"header": header}) + "\n")
    else:
        out.seek(out.tell() - 1)
        if out.read(1) != "\n":
            out.write("\n")  # a line torn by a kill ends here, so that the next pair's is whole
    write_lock, once = threading.Lock(), threading.Lock()
    first_games = {}
    prepared = False
    _worker, _play_game = match.worker, match.play_game

    def worker(pairs, args, stats, pgn_lock, pgn_out, stop, idx):
        nonlocal prepared
        with once:
            if not prepared:
                prepared = True
                with stats.lock:
                    n = len(pairs)
                    # match.py pops from the end: pairs[k] is the pair numbered n - 1 - k.
                    numbered = []
                    for k, fen in enumerate(pairs):
                        opening = Opening(fen)
                        opening.number = n - 1 - k
                        numbered.append(opening)
                    pairs[:] = [o for o in numbered if o.number not in done]
                    for number in sorted(done):
                        if number < n:
                            _tally(stats, done[number])
                    if done:
                        print(f"resumed: {n - len(pairs)} pairs from {path}", flush=True)
                        match.report(stats, args)
                        if args.sprt:
                            llr = stats.llr(*args.sprt)
                            lo = match.math.log(args.beta / (1 - args.alpha))
                            hi = match.math.log((1 - args.beta) / args.alpha)
                            if llr <= lo or llr >= hi:
                                print("SPRT: H1 accepted" if llr >= hi else "SPRT: H0 accepted")
                                stop.set()
        return _worker(pairs, args, stats, pgn_lock, pgn_out, stop, idx)

    def play_game(who_white, fen, *rest):
        score, reason = _play_game(who_white, fen, *rest)
        number = getattr(fen, "number", -1)
        game = {"a_white": who_white == "A", "score": score, "reason": reason}
        if who_white == "A":
            first_games[number] = game
        elif number in first_games:
            line = {"pair": number, "games": [first_games.pop(number), game]}
            with write_lock:
                out.write(json.dumps(line) + "\n")
                out.flush()
                os.fsync(out.fileno())
        return score, reason

    match.worker, match.play_game = worker, play_game


if __name__ == "__main__":
    if JOURNAL:
        install_journal(JOURNAL)
    match.main()
