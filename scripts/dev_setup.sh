#!/usr/bin/env bash
# What a new machine needs for the strength work (not for building or testing the engine, which
# want Rust alone): the reference engines of the milestone and calibration runs, python-chess for
# the match tools, and an llvm-profdata that reads rustc's profiles for `make pgo` (the datagen
# loop's build: without it the loop falls back to a plain build, about a tenth slower).
# Idempotent: each piece is checked first and installed only when it is missing.
#
#   scripts/dev_setup.sh          # check and install
#   scripts/dev_setup.sh --check  # only say what is missing (exit 1 if anything is)
set -uo pipefail
cd "$(dirname "$0")/.."
check_only=""
[ "${1:-}" = "--check" ] && check_only=1
missing=0

need() { # WHAT TEST-COMMAND INSTALL-COMMAND
    if bash -c "$2" > /dev/null 2>&1; then
        echo "ok       $1"
    elif [ -n "$check_only" ]; then
        echo "missing  $1 ($3)"
        missing=1
    else
        echo "install  $1: $3"
        if bash -c "$3" > /dev/null 2>&1 && bash -c "$2" > /dev/null 2>&1; then
            echo "ok       $1"
        else
            echo "error    $1: '$3' did not make it work"
            missing=1
        fi
    fi
}

engines="stockfish ethereal-chess glaurung toga2 gnuchess polyglot"
for e in $engines; do
    need "$e" "test -x /usr/games/$e" "apt-get install -y $engines"
done
need python-chess "python3 -c 'import chess'" "pip install chess"
need llvm-profdata "test -n \"\$(make -s print-PROFDATA)\"" \
    "rustup component add llvm-tools --toolchain \$(rustc -V | awk '{print \$2}')"
exit "$missing"
