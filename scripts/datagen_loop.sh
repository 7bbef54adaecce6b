#!/usr/bin/env bash
# The datagen loop: keeps self-play running at nice 19 and makes every segment remakeable.
#
#   scripts/datagen_loop.sh start      start the loop in the background (a running loop is left alone)
#   scripts/datagen_loop.sh status     the loop, its datagen process and the manifest
#   scripts/datagen_loop.sh pause      SIGSTOP the datagen process until `resume`
#   scripts/datagen_loop.sh resume     SIGCONT it (unless a timed match runs: see below)
#   scripts/datagen_loop.sh stop       stop the loop and its datagen process (both resumable)
#   scripts/datagen_loop.sh upgrade    build HEAD at nice 19 beside the running datagen; the loop
#                                      then goes on with that build if it has the segment's Bench
#                                      and arguments (a speed-up reaches the data without a stop;
#                                      a higher DATAGEN_GAMES lets a complete segment go on)
#   scripts/datagen_loop.sh manifest   print the manifest
#   scripts/datagen_loop.sh run        the loop itself, in the foreground
#   scripts/datagen_loop.sh record SEED REV BIN ARGS...
#                                      write the manifest line of a segment made by hand (BIN, a
#                                      build of REV, ran `datagen ARGS`)
#
# What the loop does, once a minute:
# - reads DATAGEN_SEED and the segment's arguments from the Makefile of the *committed* HEAD
#   (`make datagen-args`: the one declaration `make datagen` uses too), never the working tree;
# - builds that revision in $DATA_DIR/loop/src-REV (`make pgo`, or a plain build where there is no
#   llvm-profdata) at nice 19, once no timed match runs (below), and runs its `bench` for the
#   segment's Bench;
# - runs `nullwindow datagen` for the segment at nice 19, restarting it whenever it stops
#   (datagen resumes from its .progress file; a torn tail is cut);
# - when the committed DATAGEN_SEED changes (a new net embedded, or the self-play search changed),
#   stops the old segment and starts the new one with the new revision's build;
# - a segment is only ever continued by a build of the Bench that started it: if HEAD's build has
#   another Bench under the same seed, the loop keeps the old binary (and says so in its log);
#   HEAD's build replaces the running one only at a start or after `upgrade` (a build per commit
#   would take the cores from the data);
# - a segment that has all its games waits (logged once) rather than restarting a datagen that
#   would end at once;
# - every 10 minutes and at each rotation, rewrites the segment's line of $DATA_DIR/manifest.tsv:
#   file, seed, commit, Bench, net, games, positions, bytes, sha256, and the exact command that
#   remakes the file (positions are whole games, so `--games G` remakes it byte for byte);
# - yields to timed matches: every few seconds it looks for a process whose command line matches
#   DATAGEN_YIELD_TO (default: match.py, sprt.py or spsa.py with `--tc`; fixed-node matches are
#   not disturbed by load and are not waited for) and not DATAGEN_YIELD_EXCEPT (default:
#   `uci_depth.py`, the depth-bound Stockfish of `make calibrate`, whose matches pass a nominal
#   `--tc` but stop both sides at nodes or depth) and SIGSTOPs the datagen while one runs,
#   SIGCONT once none has been seen for two looks in a row;
# - keeps a copy of the manifest in the work tree, nets/data-manifest.tsv (tracked: commit it),
#   because the data directory can be lost with the machine and the manifest with it; a loop
#   that finds no $DATA_DIR/manifest.tsv starts from that copy, and each write merges the two.
set -uo pipefail
cd "$(dirname "$0")/.."
REPO=$(pwd)
DATA_DIR=${DATA_DIR:-data}
mkdir -p "$DATA_DIR/loop"
DATA_DIR=$(cd "$DATA_DIR" && pwd)
LOOP=$DATA_DIR/loop
PIDFILE=$LOOP/loop.pid
CHILDFILE=$LOOP/datagen.pid
LOG=$LOOP/loop.log
MANIFEST=$DATA_DIR/manifest.tsv
KEPT_MANIFEST=${DATAGEN_KEPT_MANIFEST:-$REPO/nets/data-manifest.tsv}
POLL=${DATAGEN_LOOP_POLL:-60}
GATE_POLL=${DATAGEN_LOOP_GATE_POLL:-5}
YIELD_TO=${DATAGEN_YIELD_TO-'(match|sprt|spsa)\.py .*--tc'}
YIELD_EXCEPT=${DATAGEN_YIELD_EXCEPT-'uci_depth\.py'}
GATED=$LOOP/paused-for-match
USER_PAUSED=$LOOP/paused-by-hand

say() { echo "$(date '+%F %T') $*" >> "$LOG"; }
alive() { [ -n "${1:-}" ] && kill -0 "$1" 2> /dev/null; }
loop_pid() { cat "$PIDFILE" 2> /dev/null; }
child_pid() { cat "$CHILDFILE" 2> /dev/null; }

# The value of a make variable in the committed Makefile of REV, paths as seen from the repo.
seg_var() { # REV VAR
    git show "$1:Makefile" > "$LOOP/Makefile.$1" 2> /dev/null || return 1
    make -s -f "$LOOP/Makefile.$1" --no-print-directory -C "$REPO" DATA_DIR="$DATA_DIR" \
        print-"$2" 2> /dev/null
}

# The segment's arguments; DATAGEN_THREADS in the environment overrides the Makefile's (the
# thread count does not change the file).
seg_args() { # REV
    make -s -f "$LOOP/Makefile.$1" --no-print-directory -C "$REPO" DATA_DIR="$DATA_DIR" \
        ${DATAGEN_THREADS:+DATAGEN_THREADS=$DATAGEN_THREADS} datagen-args
}

# The loop's binary runs only here, so it is built for this CPU's level where the CPU has every
# feature of x86-64-v3 (the same games: the search is integer arithmetic; about 7% less CPU a
# game). LOOP_RUSTFLAGS in the environment overrides it (empty: the portable build).
loop_rustflags() {
    if [ -n "${LOOP_RUSTFLAGS+set}" ]; then
        echo "$LOOP_RUSTFLAGS"
        return
    fi
    local level
    level=$("$REPO/scripts/cpu_level.sh" 2> /dev/null) || level=""
    if [ -n "$level" ]; then echo "-Ctarget-cpu=$level"; fi
}

# What the build of REV is made from: the git objects of its sources, bench positions (the
# profile's run), Makefile and networks, and the loop's rustc flags. Two revisions with the same
# key build the same binary (a commit of docs or of the manifest changes nothing here).
build_key() { # REV
    {
        local p
        for p in src Cargo.toml Cargo.lock bench-positions Makefile; do
            echo "$p $(git -C "$REPO" rev-parse -q --verify "$1:$p" 2> /dev/null)"
        done
        git -C "$REPO" ls-tree "$1" -- nets/ | awk '$4 ~ /\.nnue$/'
        loop_rustflags
    } | sha256sum | cut -c1-16
}

# Builds REV (once) and prints the binary's path; its Bench goes to $LOOP/bin/REV.bench. A build
# of another revision with the same build key is used instead of building again.
build_rev() { # REV [yield]
    local rev=$1 bin=$LOOP/bin/nullwindow-$1 src=$LOOP/src-$1
    if [ -x "$bin" ] && [ -s "$LOOP/bin/$rev.bench" ]; then
        echo "$bin"
        return 0
    fi
    mkdir -p "$LOOP/bin"
    local key same
    key=$(build_key "$rev")
    same=$(cat "$LOOP/bin/key-$key" 2> /dev/null)
    if [ -n "$same" ] && [ -x "$LOOP/bin/nullwindow-$same" ] && [ -s "$LOOP/bin/$same.bench" ]; then
        cp "$LOOP/bin/nullwindow-$same" "$bin" && cp "$LOOP/bin/$same.bench" "$LOOP/bin/$rev.bench"
        cp "$LOOP/bin/$same.how" "$LOOP/bin/$rev.how" 2> /dev/null
        say "$rev builds what $same built (same sources, Makefile and nets): its binary reused"
        echo "$bin"
        return 0
    fi
    # The loop's build (REV yield) takes the cores for minutes, even at nice 19 (its profiling
    # run): it waits for a timed match to end as its datagen does, until two looks in a row find
    # none (a tune's matches follow each other within a second; `upgrade` builds at once).
    if [ "${2:-}" = yield ] && timed_match; then
        say "the build of $rev waits for the timed match to end"
        local clear=0
        while [ "$clear" -lt 2 ]; do
            [ -e "$LOOP/STOP" ] && return 1
            sleep "$GATE_POLL" &
            wait $!
            if timed_match; then clear=0; else clear=$((clear + 1)); fi
        done
    fi
    rm -rf "$src" && mkdir -p "$src"
    git archive "$rev" | tar -x -C "$src" || return 1
    say "building $rev in $src"
    local flags
    flags=$(loop_rustflags)
    local pgo=""
    if nice -n 19 make -C "$src" pgo PGO_RUSTFLAGS="$flags" >> "$LOOP/build.log" 2>&1; then
        cp "$src/target/pgo/release/nullwindow" "$bin"
        pgo=1
        echo "make pgo${flags:+ PGO_RUSTFLAGS=$flags}" > "$LOOP/bin/$rev.how"
        say "built $rev ($(cat "$LOOP/bin/$rev.how"))"
    elif nice -n 19 make -C "$src" build >> "$LOOP/build.log" 2>&1; then
        cp "$src/target/release/nullwindow" "$bin"
        # The same games, about a tenth slower: said in the log and by `status` while it runs.
        echo "plain build: make pgo failed (no llvm-profdata? rustup component add llvm-tools; then make datagen-stop and datagen-loop), see $LOOP/build.log" > "$LOOP/bin/$rev.how"
        say "built $rev ($(cat "$LOOP/bin/$rev.how"))"
    else
        say "error: cannot build $rev (see $LOOP/build.log)"
        return 1
    fi
    "$bin" bench 2> /dev/null | tail -1 | awk '{print $1}' > "$LOOP/bin/$rev.bench"
    # Only a profile-guided build stands for its key (a plain one is built again once it can be).
    [ -n "$pgo" ] && echo "$rev" > "$LOOP/bin/key-$key"
    rm -rf "$src/target"
    echo "$bin"
}

# Rewrites the manifest line of segment SEED (fails while its file does not exist yet).
write_manifest() { # SEED REV BIN ARGS
    local seed=$1 rev=$2 bin=$3 args=$4 file=$DATA_DIR/gen$1.bin
    [ -f "$file" ] || return 1
    local bytes games positions sha bench net
    bytes=$(stat -c %s "$file")
    games=$(sed -n 's/^games //p' "$file.progress" 2> /dev/null)
    local pbytes
    pbytes=$(sed -n 's/^bytes //p' "$file.progress" 2> /dev/null)
    [ -n "$pbytes" ] && bytes=$pbytes
    positions=$(((bytes - 32) / 32))
    sha=$(head -c "$bytes" "$file" | sha256sum | cut -d' ' -f1)
    # The Bench of the commit that started the segment, or (a manifest restored on another
    # machine, where that commit was never built) of the binary's build: the loop continues a
    # segment only with a build of the same Bench.
    bench=$(cat "$LOOP/bin/$rev.bench" 2> /dev/null)
    [ -n "$bench" ] || bench=$(cat "$LOOP/bin/${bin##*/nullwindow-}.bench" 2> /dev/null)
    net=$("$bin" --version 2> /dev/null | sed -n 's/^network: \([^ ]*\).*/\1/p')
    local evalarg
    evalarg=$(echo "$args" | sed -n 's/.*--eval \([^ ]*\).*/\1/p')
    [ -n "$evalarg" ] && net="$evalarg"
    # The command that remakes the file: the same arguments with --games set to the games
    # written (whole games, so the same bytes), from a checkout of REV.
    local remake
    remake="git checkout $rev && cargo build --release --locked && target/release/nullwindow datagen $(echo "$args" | sed "s/--games [0-9]*/--games $games/; s|$DATA_DIR/|data/|g")"
    local tmp=$MANIFEST.tmp
    {
        printf 'file\tseed\tcommit\tbench\tnet\tgames\tpositions\tbytes\tsha256\tupdated\tremake\n'
        # The kept copy's lines of files this data directory has no line for (a directory lost
        # with its machine), then this directory's lines, then the segment's new line.
        local f
        for f in "$KEPT_MANIFEST" "$MANIFEST"; do
            [ -f "$f" ] && tail -n +2 "$f"
        done | awk -F'\t' -v f="gen$seed.bin" '$1 != f { last[$1] = $0; if (!($1 in seen)) { seen[$1] = 1; order[n++] = $1 } }
            END { for (i = 0; i < n; i++) print last[order[i]] }'
        printf 'gen%s.bin\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$seed" "$seed" "$rev" "$bench" \
            "$net" "$games" "$positions" "$bytes" "$sha" "$(date '+%F %T')" "$remake"
    } > "$tmp" && mv "$tmp" "$MANIFEST"
    mkdir -p "$(dirname "$KEPT_MANIFEST")" && cp "$MANIFEST" "$KEPT_MANIFEST.tmp" &&
        mv "$KEPT_MANIFEST.tmp" "$KEPT_MANIFEST"
}

# A data directory without a manifest (a new machine) starts from the work tree's kept copy:
# the Bench and commit that started each segment, and the command that remakes each file.
restore_manifest() {
    if [ ! -f "$MANIFEST" ] && [ -f "$KEPT_MANIFEST" ]; then
        cp "$KEPT_MANIFEST" "$MANIFEST" && say "manifest restored from $KEPT_MANIFEST"
    fi
}

# The game count of a segment's arguments.
args_games() { # ARGS
    echo "$1" | sed -n 's/.*--games \([0-9]*\).*/\1/p'
}

# The arguments without the game count (which only caps the run: the games are the same).
args_but_games() { # ARGS
    echo "$1" | sed 's/--games [0-9]*//'
}

# Whether segment SEED has written every game ARGS asks for (a datagen started then would end
# at once: the loop waits for a higher DATAGEN_GAMES or a new DATAGEN_SEED instead).
seg_complete() { # SEED ARGS
    local want had
    want=$(args_games "$2")
    had=$(sed -n 's/^games //p' "$DATA_DIR/gen$1.bin.progress" 2> /dev/null)
    [ -n "$want" ] && [ -n "$had" ] && [ "$had" -ge "$want" ]
}

start_child() { # BIN ARGS SEED
    local bin=$1 args=$2 seed=$3
    # shellcheck disable=SC2086
    (cd "$REPO" && exec nice -n 19 "$bin" datagen $args >> "$DATA_DIR/gen$seed.log" 2>&1) &
    echo $! > "$CHILDFILE"
    say "datagen gen$seed started (pid $!): $bin datagen $args"
    # A restart while paused stays paused.
    if [ -e "$GATED" ] || [ -e "$USER_PAUSED" ]; then
        kill -STOP "$!" 2> /dev/null
    fi
}

# A timed match (or tune) runs: a process whose command line matches DATAGEN_YIELD_TO and not
# DATAGEN_YIELD_EXCEPT.
timed_match() {
    [ -n "$YIELD_TO" ] || return 1
    # Without an exception, `^$` (a pgrep line is never empty) keeps every line.
    pgrep -af -- "$YIELD_TO" 2> /dev/null | grep -Ev -- "${YIELD_EXCEPT:-^\$}" > /dev/null
}

# One look of the gate: pause the datagen while a timed match runs, resume it after two looks
# without one (the tune's matches follow each other with a gap of a fraction of a second).
gate() {
    local c
    c=$(child_pid)
    if timed_match; then
        gate_clear=0
        if [ ! -e "$GATED" ]; then
            touch "$GATED"
            alive "$c" && kill -STOP "$c" 2> /dev/null
            say "a timed match runs: datagen paused"
        fi
    elif [ -e "$GATED" ]; then
        gate_clear=$((gate_clear + 1))
        if [ "$gate_clear" -ge 2 ]; then
            rm -f "$GATED"
            if [ ! -e "$USER_PAUSED" ]; then
                alive "$c" && kill -CONT "$c" 2> /dev/null
                say "no timed match: datagen resumed"
            fi
        fi
    fi
}

stop_child() {
    local c
    c=$(child_pid)
    if alive "$c"; then
        kill -CONT "$c" 2> /dev/null
        kill -TERM "$c" 2> /dev/null
        for _ in $(seq 50); do alive "$c" || break; sleep 0.2; done
        alive "$c" && kill -KILL "$c" 2> /dev/null
    fi
    rm -f "$CHILDFILE"
}

run() {
    if alive "$(loop_pid)" && [ "$(loop_pid)" != "$$" ]; then
        echo "a datagen loop is already running (pid $(loop_pid))"
        exit 0
    fi
    echo $$ > "$PIDFILE"
    local seed="" rev="" bin="" bin_rev="" args="" last_manifest=0 gate_clear=0
    # Stopped: the segment's manifest line is brought up to date (seed, rev, bin and args are
    # run's locals, seen by the trap).
    trap 'say "loop stopped"; stop_child; [ -n "$seed" ] && write_manifest "$seed" "$rev" "$bin" "$args"; rm -f "$PIDFILE"; exit 0' TERM INT
    # A note of `upgrade` left by an earlier loop: this one starts with HEAD's build anyway.
    rm -f "$LOOP/STOP" "$GATED" "$USER_PAUSED" "$LOOP/upgrade"
    say "loop started (pid $$) in $REPO, data in $DATA_DIR"
    restore_manifest
    # With the kernel's autogroups on (most desktops and this project's machines), nice only
    # ranks processes within one session: a datagen at nice 19 in its own session still took half
    # the cores from a match or a build started elsewhere. `start` runs the loop in a session of
    # its own (setsid), so the whole group is niced too and self-play keeps to idle cores. Only
    # a loop that leads its session does it (`run` in a terminal would renice the terminal's).
    local stat f
    stat=$(cat /proc/$$/stat 2> /dev/null)
    read -ra f <<< "${stat##*) }" # the fields after the command name: state ppid pgrp session
    if [ "${f[3]:-}" = "$$" ] && [ -w /proc/self/autogroup ]; then
        echo 19 > /proc/self/autogroup 2> /dev/null && say "its session's autogroup at nice 19"
    fi
    while [ ! -e "$LOOP/STOP" ]; do
        local head new_seed
        head=$(git -C "$REPO" rev-parse --short=12 HEAD)
        new_seed=$(seg_var "$head" DATAGEN_SEED)
        if [ -z "$new_seed" ]; then
            say "error: no DATAGEN_SEED in $head's Makefile"
            sleep "$POLL"
            continue
        fi
        if [ "$new_seed" != "$seed" ]; then
            # A new segment (or the loop's first): close the old one, build the new one.
            if [ -n "$seed" ]; then
                stop_child
                write_manifest "$seed" "$rev" "$bin" "$args"
                say "gen$seed closed: $(grep -P "^gen$seed.bin\t" "$MANIFEST" | cut -f6,7 | tr '\t' ' ') (games positions)"
            fi
            local nb
            if ! nb=$(build_rev "$head" yield); then
                sleep "$POLL"
                continue
            fi
            local want had
            want=$(cat "$LOOP/bin/$head.bench")
            had=$(awk -F'\t' -v f="gen$new_seed.bin" '$1 == f {print $4}' "$MANIFEST" 2> /dev/null)
            if [ -n "$had" ] && [ "$had" != "$want" ]; then
                say "error: gen$new_seed was made by Bench $had, $head has Bench $want: not continued (give the new search a new DATAGEN_SEED)"
                sleep "$POLL"
                continue
            fi
            seed=$new_seed rev=$head bin=$nb bin_rev=$head
            args=$(seg_args "$rev")
            # The manifest names the commit that started the segment (its remake command); the
            # binary may be a later build of the same Bench.
            [ -n "$had" ] && rev=$(awk -F'\t' -v f="gen$seed.bin" '$1 == f {print $3}' "$MANIFEST")
        elif [ -e "$LOOP/upgrade" ]; then
            # `upgrade` built a later revision: take it if it plays the segment's games.
            local up up_bench seg_bench
            up=$(cat "$LOOP/upgrade")
            rm -f "$LOOP/upgrade"
            up_bench=$(cat "$LOOP/bin/$up.bench" 2> /dev/null)
            seg_bench=$(awk -F'\t' -v f="gen$seed.bin" '$1 == f {print $4}' "$MANIFEST" 2> /dev/null)
            [ -n "$seg_bench" ] || seg_bench=$(cat "$LOOP/bin/$bin_rev.bench" 2> /dev/null)
            local up_args
            up_args=$(seg_args "$up")
            if [ ! -x "$LOOP/bin/nullwindow-$up" ] || [ -z "$up_bench" ]; then
                say "error: upgrade: no build of $up"
            elif [ "$up_bench" != "$seg_bench" ]; then
                say "upgrade refused: $up has Bench $up_bench, gen$seed was made by Bench $seg_bench (give the new search a new DATAGEN_SEED)"
            elif [ "$(seg_var "$up" DATAGEN_SEED)" != "$seed" ] ||
                [ "$(args_but_games "$up_args")" != "$(args_but_games "$args")" ]; then
                say "upgrade refused: $up's Makefile gives gen$seed other arguments"
            elif [ "$up" = "$bin_rev" ] || cmp -s "$LOOP/bin/nullwindow-$up" "$bin"; then
                # Only the game count may differ: a datagen that runs stops at its own count,
                # and the loop starts the next with this one.
                [ "$up_args" != "$args" ] && say "upgrade: gen$seed's game count from $up: $(args_games "$up_args")"
                args=$up_args
                say "upgrade: gen$seed already runs the build of $up"
            else
                stop_child
                write_manifest "$seed" "$rev" "$bin" "$args"
                bin=$LOOP/bin/nullwindow-$up bin_rev=$up args=$up_args
                touch "$LOOP/checked-$up"
                say "upgrade: gen$seed goes on with the build of $up (Bench $up_bench, the segment's)"
            fi
        elif [ "$head" != "$bin_rev" ] && [ ! -e "$LOOP/checked-$head" ]; then
            touch "$LOOP/checked-$head"
            say "HEAD is $head; gen$seed goes on with the build of $bin_rev (same DATAGEN_SEED; segment started at $rev)"
        fi
        # Look for a timed match first, so that a datagen (re)started beside one starts paused.
        gate
        if seg_complete "$seed" "$args"; then
            if [ ! -e "$LOOP/complete-gen$seed" ]; then
                touch "$LOOP/complete-gen$seed"
                write_manifest "$seed" "$rev" "$bin" "$args"
                say "gen$seed is complete ($(args_games "$args") games): waiting for a higher DATAGEN_GAMES (then make datagen-upgrade) or a new DATAGEN_SEED"
            fi
        elif ! alive "$(child_pid)"; then
            rm -f "$LOOP/complete-gen$seed"
            start_child "$bin" "$args" "$seed"
            sleep 5
        fi
        local now
        now=$(date +%s)
        if [ $((now - last_manifest)) -ge 600 ] && write_manifest "$seed" "$rev" "$bin" "$args"; then
            last_manifest=$now
        fi
        local waited=0
        while [ "$waited" -lt "$POLL" ] && [ ! -e "$LOOP/STOP" ]; do
            gate
            sleep "$GATE_POLL" &
            wait $!
            waited=$((waited + GATE_POLL))
        done
    done
    say "STOP file found"
    stop_child
    [ -n "$seed" ] && write_manifest "$seed" "$rev" "$bin" "$args"
    rm -f "$PIDFILE"
}

case "${1:-status}" in
start)
    if alive "$(loop_pid)"; then
        echo "the datagen loop is running (pid $(loop_pid)); log $LOG"
        exit 0
    fi
    setsid nohup "$0" run > /dev/null 2>&1 < /dev/null &
    sleep 1
    echo "datagen loop started (pid $(loop_pid)); log $LOG, manifest $MANIFEST"
    ;;
# exit at once: bash reads a script as it runs, and this file may be edited while a loop runs.
run) run; exit ;;
stop)
    touch "$LOOP/STOP"
    p=$(loop_pid)
    alive "$p" && kill -TERM "$p"
    stop_child
    # The loop ends after its manifest write: wait for it, so that a `start` right after starts one.
    for _ in $(seq 100); do alive "$p" || break; sleep 0.1; done
    echo "stopped (run 'make datagen-loop' to go on: every segment resumes)"
    ;;
upgrade)
    head=$(git rev-parse --short=12 HEAD)
    alive "$(loop_pid)" || { echo "no datagen loop runs: 'make datagen-loop' starts one with HEAD's build"; exit 1; }
    echo "building $head at nice 19 beside the datagen (log $LOOP/build.log) ..."
    nb=$(build_rev "$head") || { echo "error: cannot build $head (see $LOOP/build.log)"; exit 1; }
    echo "$head" > "$LOOP/upgrade"
    echo "built $nb (Bench $(cat "$LOOP/bin/$head.bench")); the loop takes it within a minute if that is the segment's Bench (see $LOG)"
    ;;
pause)
    touch "$USER_PAUSED"
    c=$(child_pid)
    alive "$c" && kill -STOP "$c" && echo "datagen $c paused"
    ;;
resume)
    rm -f "$USER_PAUSED"
    c=$(child_pid)
    if [ -e "$GATED" ]; then
        echo "datagen $c stays paused while a timed match runs (DATAGEN_YIELD_TO); it resumes after"
    else
        alive "$c" && kill -CONT "$c" && echo "datagen $c resumed"
    fi
    ;;
status)
    if alive "$(loop_pid)"; then echo "loop: running (pid $(loop_pid))"; else echo "loop: not running"; fi
    c=$(child_pid)
    if alive "$c"; then
        echo "datagen: pid $c, state $(awk '{print $3}' "/proc/$c/stat" 2> /dev/null)$(sed -n 's|.* nice \(.*\)|, session group at nice \1|p' "/proc/$c/autogroup" 2> /dev/null)"
        # The build it runs, from its command line ($LOOP/bin/nullwindow-REV), and how it was made.
        rev=$(tr '\0' '\n' < "/proc/$c/cmdline" 2> /dev/null | sed -n 's|.*/nullwindow-||p' | head -n 1)
        [ -s "$LOOP/bin/$rev.how" ] && echo "datagen: the build of $rev: $(cat "$LOOP/bin/$rev.how")"
        [ -e "$GATED" ] && echo "datagen: paused while a timed match runs"
        [ -e "$USER_PAUSED" ] && echo "datagen: paused by hand (make datagen-resume)"
        ls "$DATA_DIR"/gen*.log > /dev/null 2>&1 && tail -n 1 "$(ls -t "$DATA_DIR"/gen*.log | head -1)"
    else
        echo "datagen: not running"
    fi
    [ -f "$MANIFEST" ] && cut -f1-8 "$MANIFEST" | column -t
    tail -n 3 "$LOG" 2> /dev/null
    ;;
manifest)
    restore_manifest
    cat "$MANIFEST" 2> /dev/null
    ;;
record)
    [ $# -ge 5 ] || { echo "usage: $0 record SEED REV BIN ARGS..."; exit 2; }
    seed=$2 rev=$(git rev-parse --short=12 "$3") bin=$4
    shift 4
    mkdir -p "$LOOP/bin"
    [ -s "$LOOP/bin/$rev.bench" ] || "$bin" bench 2> /dev/null | tail -1 | awk '{print $1}' > "$LOOP/bin/$rev.bench"
    write_manifest "$seed" "$rev" "$bin" "$*"
    grep -P "^gen$seed.bin\t" "$MANIFEST" | cut -f1-8
    ;;
*)
    sed -n '2,12p' "$0"
    exit 2
    ;;
esac
