#!/usr/bin/env python3
"""Makes a set of opening positions that no file in ../shared holds.

    scripts/make_openings.py [--plies N] [--count C] [--min CP] [--max CP] [--depth D]
        [--engine PATH] [--seed S] OUT.epd

A milestone measured on one opening book can be that book's (the brief: "tune for chess, not
for a set"). This writes a fresh book to check a result on: each line starts from the initial
position, plays N random legal moves (default 8; no move that takes a queen, and no line that
leaves the side to move a mate in one), and is kept if an engine's score of the position at depth D, from White's
view, lies within [MIN, MAX] centipawns: `--min 80 --max 110` gives UHO-style lines (White
better by about a pawn, as UHO_4060_v4), `--min -30 --max 30` balanced ones (as 2moves_v1).
Duplicates (same position) are dropped, and so is every position of the books given with
--exclude (by default every .epd of ../shared/data/openings, when it is there). The same seed,
engine and excluded books give the same file.

The scoring engine defaults to /usr/games/stockfish (another engine than the one judged, so
the book does not lean toward it); any UCI engine will do.
"""
import argparse
import glob
import os
import random
import sys

import chess
import chess.engine


HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.environ.get("SHARED", os.path.join(HERE, "..", "..", "shared"))


def book_positions(paths):
    """The positions (board, side, castling, en passant) of the EPD/FEN files `paths`."""
    found = set()
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                fields = line.split()
                if len(fields) >= 4:
                    found.add(" ".join(fields[:4]))
    return found


def random_line(rng, plies):
    """A board after `plies` random legal moves, or None when the line ended early."""
    board = chess.Board()
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            return None
        # No queen captured and no mate in one left for the side to move: such lines are lost
        # at once and tell nothing about an engine.
        rng.shuffle(moves)
        for move in moves:
            victim = board.piece_at(move.to_square)
            if victim is not None and victim.piece_type == chess.QUEEN:
                continue
            board.push(move)
            break
        else:
            return None
    if board.is_game_over():
        return None
    for move in board.legal_moves:
        board.push(move)
        mate = board.is_checkmate()
        board.pop()
        if mate:
            return None
    return board


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", help="the EPD file to write")
    ap.add_argument("--plies", type=int, default=8, help="random plies from the start (8)")
    ap.add_argument("--count", type=int, default=500, help="positions to write (500)")
    ap.add_argument("--min", type=int, default=80, help="lowest score kept, cp, White's view")
    ap.add_argument("--max", type=int, default=110, help="highest score kept, cp")
    ap.add_argument("--depth", type=int, default=12, help="depth of the scoring search (12)")
    ap.add_argument("--engine", default="/usr/games/stockfish", help="the scoring UCI engine")
    ap.add_argument("--hash", type=int, default=16, help="its Hash, MB (16)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the random moves (1)")
    ap.add_argument("--tries", type=int, default=200000, help="random lines tried at most")
    ap.add_argument("--exclude", action="append", default=None, metavar="EPD",
                    help="a book whose positions are not written (repeatable; default: "
                    "every .epd of ../shared/data/openings)")
    args = ap.parse_args()
    if args.plies < 1 or args.count < 1 or args.min > args.max:
        ap.error("want --plies >= 1, --count >= 1 and --min <= --max")

    if args.exclude is None:
        args.exclude = sorted(glob.glob(os.path.join(SHARED, "data", "openings", "*.epd")))
    try:
        excluded = book_positions(args.exclude)
    except OSError as e:
        ap.error(f"--exclude: {e}")
    rng = random.Random(args.seed)
    seen = set()
    kept = []
    tried = 0
    with chess.engine.SimpleEngine.popen_uci(args.engine) as engine:
        options = {}
        if "Threads" in engine.options:
            options["Threads"] = 1
        if "Hash" in engine.options:
            options["Hash"] = args.hash
        engine.configure(options)
        while len(kept) < args.count and tried < args.tries:
            tried += 1
            board = random_line(rng, args.plies)
            if board is None:
                continue
            key = board.epd()
            if key in seen or key in excluded:
                continue
            seen.add(key)
            # A new game for the engine each time: the score must not depend on what it saw
            # before, so the file is the same for a seed whatever the order.
            info = engine.analyse(board, chess.engine.Limit(depth=args.depth), game=object())
            score = info["score"].white()
            if score.is_mate():
                continue
            cp = score.score()
            if args.min <= cp <= args.max:
                kept.append(key)
                if len(kept) % 50 == 0:
                    print(f"{len(kept)} kept of {tried} lines", file=sys.stderr)
    if len(kept) < args.count:
        print(f"only {len(kept)} positions in {tried} lines", file=sys.stderr)
    with open(args.out, "w", encoding="utf-8") as f:
        for key in kept:
            f.write(key + "\n")
    print(f"wrote {len(kept)} positions to {args.out} ({tried} lines tried)", file=sys.stderr)


if __name__ == "__main__":
    main()
