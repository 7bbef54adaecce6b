#!/usr/bin/env python3
"""Runs ../shared/tools/match.py with one guard added: the SPRT may not stop before
MIN_PAIRS game pairs (env SPRT_MIN_PAIRS, default 30).

With a handful of pairs the pentanomial variance estimate can be near zero (e.g. four
games, two identical pair results), and match.py's log-likelihood ratio then crosses a
bound at once. All arguments are passed through to match.py unchanged.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.environ.get("SHARED", os.path.join(HERE, "..", "..", "shared"))
sys.path.insert(0, os.path.join(SHARED, "tools"))

import match  # noqa: E402  (the shared match runner)

MIN_PAIRS = int(os.environ.get("SPRT_MIN_PAIRS", "30"))
_llr = match.Stats.llr


def guarded_llr(self, elo0, elo1):
    ps = self.pair_summary()
    if not ps or ps[0] < MIN_PAIRS:
        return 0.0
    return _llr(self, elo0, elo1)


match.Stats.llr = guarded_llr

if __name__ == "__main__":
    match.main()
