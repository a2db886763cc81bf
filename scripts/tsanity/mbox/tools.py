"""make mbox's messages and commands: an error exits 1, naming it; a
command that fails is such an error."""
import os
import subprocess
import sys
from typing import NoReturn


def die(msg: str) -> NoReturn:
    """Name the error and exit 1."""
    print(f"error: {msg}", file=sys.stderr, flush=True)
    sys.exit(1)


def log(msg):
    """A progress line on stderr."""
    print(f"==> {msg}", file=sys.stderr, flush=True)


def run(cmd, cwd=None, env=None, input=None, check=True):
    """CMD's completed process, its output as text; with CHECK, a failure
    dies, with its message."""
    p = subprocess.run(cmd, cwd=cwd, env=env, input=input, capture_output=True, text=True)
    if check and p.returncode != 0:
        die(f"{' '.join(cmd)} (in {cwd or os.getcwd()}) exited {p.returncode}:\n"
            f"{p.stderr.strip() or p.stdout.strip()}")
    return p
