#!/usr/bin/env python3
"""Runs a UCI engine and logs every line in both directions with a timestamp.

    scripts/ucilog.py LOGFILE ENGINE [ARGS...]

Give it to a GUI or match runner in place of the engine (e.g. match.py --a "scripts/ucilog.py
out/a.log target/release/nullwindow"). Each log line is `<seconds since start> <dir> <text>`,
dir `>` for what the engine was sent and `<` for what it printed; the times are taken with
time.monotonic() the moment a line passes through. Used to tell an engine that overran its
clock (a late `bestmove` after `go`) from a runner or machine that froze (a prompt `bestmove`,
a time loss anyway).
"""

import os
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from uci_relay import relay  # noqa: E402


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    log = open(sys.argv[1], "a", buffering=1)
    start = time.monotonic()
    lock = threading.Lock()

    def note(direction, line):
        with lock:
            log.write(f"{time.monotonic() - start:.4f} {direction} {line.rstrip()}\n")

    relay(sys.argv[2:], seen=note)


if __name__ == "__main__":
    main()
