#!/usr/bin/env bash
# Elo of each search driver against PVS: the same binary on both sides, A with
# `SearchAlgorithm=<driver>`, B with `SearchAlgorithm=PVS`, a fixed number of game pairs with
# ../shared/tools/match.py (UHO openings), by fixed nodes per move (default) or by clock.
#
#   scripts/driver_elo.sh [-b BIN] [-n NODES | -t TC] [-g GAMES] [-c CONCURRENCY] [-s SEED] driver...
#   scripts/driver_elo.sh AlphaBeta AspirationPVS MTDf MTDbi MTSSS MTDUAL SSS
#
# Fixed-node games measure what a driver does with a search budget, free of clock noise (and
# of a loaded machine); -t 10+0.1 plays timed games instead. Results go to
# out/drivers/<driver>.log (the last line is the final report) and one summary line per
# driver is printed.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=target/release/nullwindow
limit=(--nodes 20000)
GAMES=200
CONC=1
. scripts/lib/match_opts.sh
mkdir -p out/drivers
for d in "$@"; do
  log=out/drivers/$d.log
  python3 "$SHARED/tools/match.py" --a "$BIN" --b "$BIN" --a-opt "SearchAlgorithm=$d" \
    --b-opt "SearchAlgorithm=PVS" \
    --name-a "$d" --name-b "PVS" "${limit[@]}" --games "$GAMES" --concurrency "$CONC" "${seed[@]}" \
    --openings "$SHARED/data/openings/UHO_4060_v4.epd" --pgn "out/drivers/$d.pgn" \
    > "$log" 2>&1 || true
  echo "$d: $(tail -n 1 "$log")"
done
