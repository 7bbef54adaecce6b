#!/usr/bin/env bash
# The milestone runs (issue 68's acceptance) in one resumable command: a build against Ethereal 12
# on UHO_4060_v4 and on 2moves_v1 (GAMES games each, then the two pooled), and against Stockfish
# 15.1 on UHO_4060_v4 (SF_GAMES games); every engine one thread, Hash 16.
#
#   scripts/milestone.sh [-b BIN] [-t TC] [-g GAMES] [-c CONCURRENCY] [-s SEED] NAME
#   scripts/milestone.sh -b target/release/nullwindow nw-g16
#   SF_GAMES=0 scripts/milestone.sh -g 2 -t 1+0.01 smoke      # a quick look that all runs
#   FRESH_GAMES=200 scripts/milestone.sh nw-g17                 # and a book no file of ../shared holds
#   FRESH_GAMES=200 scripts/milestone.sh -g 0 nw-g17            # Stockfish and the fresh book only
#
# Defaults: BIN target/release/nullwindow, 10+0.1, 200 games a set, SF_GAMES 100, concurrency 2,
# seed 5 (the seed of every milestone run since 2026-12-02). BIN is copied to out/milestone/NAME/
# first (a rebuild during the runs does not change what is measured); the logs, PGNs and journals
# go there too, with `pooled.txt` (Ethereal, both sets) and `summary.txt` (every result).
#
# FRESH_GAMES (default 0) adds a run against Ethereal on openings made for the check and held by no
# book of ../shared: `scripts/make_openings.py` with seed FRESH_SEED (default 1), 500 UHO-style
# lines (8 random plies, Stockfish's depth-12 score +80 to +110 cp), written once to
# out/milestone/fresh-FRESH_SEED.epd. It is reported on its own, outside the pooled figure.
#
# Timed games want both cores free: the datagen loop pauses its datagen by itself while a timed
# match runs (its gate looks for sprt.py with --tc). Resumable: each run keeps a journal
# (SPRT_JOURNAL, scripts/sprt.py), so the same command after a stop plays only the pairs not yet
# played, and a finished run is not played again.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=target/release/nullwindow
limit=(--tc 10+0.1)
GAMES=200
CONC=2
seed=(--seed 5)
SF_GAMES=${SF_GAMES:-100}
FRESH_GAMES=${FRESH_GAMES:-0}
FRESH_SEED=${FRESH_SEED:-1}
ETHEREAL=${ETHEREAL:-/usr/games/ethereal-chess}
STOCKFISH=${STOCKFISH:-/usr/games/stockfish}
. scripts/lib/match_opts.sh
if [ $# -ne 1 ]; then
  echo "usage: scripts/milestone.sh [-b BIN] [-t TC] [-g GAMES] [-c CONC] [-s SEED] NAME" >&2
  exit 2
fi
OUT=out/milestone/$1
for f in "$BIN" "$ETHEREAL" "$STOCKFISH"; do
  [ -x "$f" ] || { echo "milestone: $f: not an executable (apt-get install ethereal-chess stockfish)" >&2; exit 2; }
done
mkdir -p "$OUT"
bin=$(realpath "$OUT")/nullwindow
if [ -e "$bin" ] && ! cmp -s "$BIN" "$bin"; then
  echo "milestone: $OUT holds runs of another binary; give this one another NAME" >&2
  exit 2
fi
cp -n "$BIN" "$bin"
"$bin" --version > "$OUT/version.txt"
"$bin" bench 2> /dev/null | tail -n 1 > "$OUT/bench.txt"

# One run: opponent, its name, openings file, games. Skipped once its log ends with a result of
# the whole count.
run() {
  local opp=$1 name=$2 book=$3 games=$4
  local set
  set=$(basename "$book" .epd)
  local log="$OUT/$name-$set.log"
  [ "$games" -gt 0 ] || return 0
  if [ -f "$log" ] && grep -q "^final: games $games " "$log"; then
    echo "$name $set: done"
    return 0
  fi
  echo "$name $set: $games games, $(date '+%F %T') ..."
  SPRT_JOURNAL="$OUT/$name-$set.journal" SHARED="$SHARED" python3 scripts/sprt.py \
    --a "$bin" --b "$opp" --name-a nullwindow --name-b "$name" \
    --a-opt Hash=16 --b-opt Threads=1 --b-opt Hash=16 "${limit[@]}" \
    --games "$games" --concurrency "$CONC" "${seed[@]}" \
    --openings "$book" --pgn "$OUT/$name-$set.pgn" > "$log" 2>&1 || true
  echo "$name $set: $(tail -n 1 "$log")"
}

books=$SHARED/data/openings
run "$ETHEREAL" ethereal "$books/UHO_4060_v4.epd" "$GAMES"
run "$ETHEREAL" ethereal "$books/2moves_v1.epd" "$GAMES"
run "$STOCKFISH" stockfish "$books/UHO_4060_v4.epd" "$SF_GAMES"
if [ "$FRESH_GAMES" -gt 0 ]; then
  fresh=out/milestone/fresh-$FRESH_SEED.epd
  [ -s "$fresh" ] || SHARED="$SHARED" python3 scripts/make_openings.py --count 500 --depth 12 \
    --seed "$FRESH_SEED" --engine "$STOCKFISH" "$fresh"
  run "$ETHEREAL" ethereal "$fresh" "$FRESH_GAMES"
fi

# The pooled figure wants both Ethereal runs (`-g 0` plays neither: Stockfish and the fresh book only).
eth=("$OUT/ethereal-UHO_4060_v4.log" "$OUT/ethereal-2moves_v1.log")
if [ -f "${eth[0]}" ] && [ -f "${eth[1]}" ]; then
  SHARED="$SHARED" python3 scripts/pool.py "${eth[@]}" > "$OUT/pooled.txt"
else
  echo "no Ethereal run on one of the two sets" > "$OUT/pooled.txt"
fi
{
  echo "$(head -n 1 "$OUT/version.txt"), $(sed -n 2p "$OUT/version.txt"); bench $(cat "$OUT/bench.txt")"
  echo "limit ${limit[*]}, seed ${seed[*]:-default}, concurrency $CONC"
  for log in "$OUT"/*.log; do
    echo "$(basename "$log" .log): $(tail -n 1 "$log")"
  done
  echo "ethereal, both sets pooled: $(tail -n 1 "$OUT/pooled.txt")"
} | tee "$OUT/summary.txt"
