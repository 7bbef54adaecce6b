#!/usr/bin/env bash
# Judges a candidate network against a reference network the way a net is judged before it is
# embedded (docs/history/nets.md, *Depth*): one binary against a copy of itself, each
# side loading its net through EvalFile, at a fixed number of nodes a move, over three opening
# sets (UHO_4060_v4, noob_3moves, 2moves_v1), GAMES games each; the three logs are then pooled
# with scripts/pool.py.
#
#   scripts/judge_net.sh [-b BIN] [-n NODES | -t TC] [-g GAMES] [-c CONCURRENCY] [-s SEED] \
#       CANDIDATE.nnue REFERENCE.nnue
#   scripts/judge_net.sh -n 10000 -g 400 data/ft-soup.nnue nets/nw-g10.nnue
#   scripts/judge_net.sh -n 50000 -g 400 -s 7 data/ft-soup.nnue nets/nw-g10.nnue
#
# Defaults: BIN target/release/nullwindow, 10,000 nodes, 400 games a set, concurrency 2, seed 7,
# logs in out/judge/<candidate>-vs-<reference>-<limit>-s<seed>/. Resumable: a set whose log
# already ends with a result of the full game count is not played again. Fixed-node runs are
# what to run beside data generation (load does not change a game); -t plays on the clock,
# which wants both cores free.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=target/release/nullwindow
limit=(--nodes 10000)
GAMES=400
CONC=2
seed=(--seed 7)
. scripts/lib/match_opts.sh
if [ $# -ne 2 ]; then
  echo "usage: scripts/judge_net.sh [-b BIN] [-n NODES | -t TC] [-g GAMES] [-c CONC] [-s SEED] CANDIDATE REFERENCE" >&2
  exit 2
fi
cand=$(realpath "$1")
ref=$(realpath "$2")
for f in "$cand" "$ref" "$BIN"; do
  [ -e "$f" ] || { echo "judge_net: $f: no such file" >&2; exit 2; }
done
bin=$(realpath "$BIN")
OUT=out/judge/$(basename "$cand" .nnue)-vs-$(basename "$ref" .nnue)-${limit[1]}-s${seed[1]}
mkdir -p "$OUT"
# The same binary under another path, so that the two sides are told apart in the logs.
copy="$OUT/engine-b"
cmp -s "$bin" "$copy" 2>/dev/null || cp "$bin" "$copy"
logs=()
for set in UHO_4060_v4 noob_3moves 2moves_v1; do
  log="$OUT/$set.log"
  logs+=("$log")
  if [ -f "$log" ] && grep -q "^final: games $GAMES " "$log"; then
    echo "$set: done ($log)"
    continue
  fi
  SHARED="$SHARED" python3 scripts/sprt.py --a "$bin" --b "$copy" \
    --a-opt "EvalFile=$cand" --b-opt "EvalFile=$ref" \
    --name-a "$(basename "$cand")" --name-b "$(basename "$ref")" "${limit[@]}" \
    --games "$GAMES" --concurrency "$CONC" "${seed[@]}" \
    --openings "$SHARED/data/openings/$set.epd" > "$log" 2>&1 || true
  echo "$set: $(tail -n 1 "$log")"
done
SHARED="$SHARED" python3 scripts/pool.py "${logs[@]}" | tee "$OUT/pooled.txt"
