# Option parsing shared by scripts/driver-elo.sh and scripts/feature-sprt.sh (sourced, not run):
#   -b BIN  -t TC | -n NODES (the last one given wins)  -g GAMES  -c CONCURRENCY
# The caller sets its defaults (BIN, limit, GAMES, CONC) first; afterwards "$@" holds the
# remaining arguments and `limit` the match.py clock or node arguments.
SHARED=${SHARED:-$(cd .. && pwd)/shared}
while getopts "b:t:n:g:c:" o; do
  case $o in
    b) BIN=$OPTARG ;;
    t) limit=(--tc "$OPTARG") ;;
    n) limit=(--nodes "$OPTARG") ;;
    g) GAMES=$OPTARG ;;
    c) CONC=$OPTARG ;;
    *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
