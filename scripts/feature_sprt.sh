#!/usr/bin/env bash
# Measures search techniques in games: for each name, the engine in its default setting (A)
# against the same binary with that technique switched off (B) through the SearchFeatures
# UCI option, as an SPRT with ../shared/tools/match.py. A name written +NAME measures a
# technique that is off by default the other way round: B is the default with it switched
# on, so a positive Elo means the technique loses.
#
#   scripts/feature_sprt.sh [-b BIN] [-t TC | -n NODES] [-g MAXGAMES] [-c CONCURRENCY] [-s SEED] name...
#   scripts/feature_sprt.sh lmr nmp rfp
#   scripts/feature_sprt.sh -n 20000 -g 200 -c 2 killers history +etc
#
# -t plays timed games (default 5+0.05); -n plays a fixed number of nodes per move instead:
# free of clock noise and of a loaded machine, but blind to what a technique costs per node.
#
# Results go to out/features/<name>.log (the last line is the verdict) and a summary line per
# feature is printed.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=target/release/nullwindow
limit=(--tc 5+0.05)
GAMES=400
CONC=1
. scripts/lib/match_opts.sh
mkdir -p out/features
for f in "$@"; do
  case $f in
    +*) name=${f#+}; spec="default +$name"; nb="with-$name"; log=out/features/with-$name.log ;;
    *) name=$f; spec="default -$name"; nb="no-$name"; log=out/features/$name.log ;;
  esac
  SHARED="$SHARED" python3 scripts/sprt.py --a "$BIN" --b "$BIN" --b-opt "SearchFeatures=$spec" \
    --name-a "default" --name-b "$nb" "${limit[@]}" --games "$GAMES" --concurrency "$CONC" "${seed[@]}" \
    --sprt 0 5 --openings "$SHARED/data/openings/UHO_4060_v4.epd" > "$log" 2>&1 || true
  echo "$f: $(tail -n 1 "$log")"
done
