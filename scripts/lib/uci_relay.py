"""A line relay between a UCI client (this process's stdin/stdout) and an engine, for the
scripts that sit in place of an engine (`ucilog.py`, `uci_depth.py`)."""

import subprocess
import sys
import threading


def relay(command, to_engine=lambda line: line, seen=lambda direction, line: None) -> int:
    """Runs `command` and passes lines both ways until the client's input ends or it sends
    `quit`. `to_engine` may rewrite each client line before the engine gets it; `seen` is
    called with `>` and each line the engine is sent, and `<` and each line it prints.
    Returns the engine's exit status."""
    engine = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, bufsize=1)

    def pump_out():
        for line in engine.stdout:
            seen("<", line)
            sys.stdout.write(line)
            sys.stdout.flush()

    out = threading.Thread(target=pump_out, daemon=True)
    out.start()
    for line in sys.stdin:
        line = to_engine(line)
        seen(">", line)
        try:
            engine.stdin.write(line)
            engine.stdin.flush()
        except BrokenPipeError:
            break
        if line.split()[:1] == ["quit"]:
            break
    try:
        engine.stdin.close()
    except BrokenPipeError:
        pass
    engine.wait()
    out.join(timeout=1)
    return engine.returncode or 0
