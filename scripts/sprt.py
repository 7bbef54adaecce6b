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
"""
import os
import sys

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

if __name__ == "__main__":
    match.main()
