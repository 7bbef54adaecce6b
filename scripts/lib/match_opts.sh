# Option parsing shared by scripts/driver_elo.sh, scripts/feature_sprt.sh and
# scripts/judge_net.sh (sourced, not run):
#   -b BIN  -t TC | -n NODES (the last one given wins)  -g GAMES  -c CONCURRENCY  -s SEED
# The caller sets its defaults (BIN, limit, GAMES, CONC, and `seed` if it wants one) first;
# afterwards "$@" holds the remaining arguments, `limit` the match.py clock or node arguments
# and `seed` the match.py seed arguments (empty unless set: match.py's own default).
SHARED=${SHARED:-$(cd .. && pwd)/shared}
seed=("${seed[@]+"${seed[@]}"}")
while getopts "b:t:n:g:c:s:" o; do
  case $o in
    b) BIN=$OPTARG ;;
    t) limit=(--tc "$OPTARG") ;;
    n) limit=(--nodes "$OPTARG") ;;
    g) GAMES=$OPTARG ;;
    c) CONC=$OPTARG ;;
    s) seed=(--seed "$OPTARG") ;;
    *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
