"""The audit's tools and messages: spatch on a list of files, git grep in
the tree, and the progress and error lines (an error exits 2, as
scripts/audit.py's exit status wants)."""
import os
import subprocess
import sys
import time
from typing import NoReturn

# The start of the audit, for the seconds of each progress line.
T0 = time.time()


def log(msg):
    """A progress line on stderr, with the seconds since the start."""
    print('==> [%3.0f s] %s' % (time.time() - T0, msg), file=sys.stderr,
          flush=True)


def die(msg: str) -> NoReturn:
    """Name the error and exit 2: the audit could not be done."""
    print('error: ' + msg, file=sys.stderr, flush=True)
    sys.exit(2)


class Spatch:
    """spatch in the tree SRC with the macro file MACROS, -j JOBS; its file
    groups go to TMP.  Counts its runs."""

    def __init__(self, src, macros, jobs, tmp):
        self.src, self.macros, self.jobs, self.tmp = src, macros, jobs, tmp
        self.runs = 0

    def run(self, sp_file, files, extra, what):
        """spatch on FILES (each its own group); stdout lines.  Dies on any
        failure, naming it."""
        if not files:
            return []
        self.runs += 1
        groups = os.path.join(self.tmp, 'groups%d' % self.runs)
        with open(groups, 'w') as f:
            f.write(''.join('%s\n\n' % x for x in sorted(files)))
        cmd = ['spatch', '--very-quiet', '--no-includes', '--include-headers',
               '--macro-file-builtins', self.macros, '-j', str(self.jobs),
               '--timeout', '120', '--sp-file', sp_file,
               '--file-groups', groups] + extra
        p = subprocess.run(cmd, cwd=self.src, capture_output=True, text=True)
        # warnings about the semantic patch itself are harmless; anything
        # else (an exception, a stack overflow, a timeout) lost results.
        bad = [l for l in p.stderr.splitlines()
               if l.strip() and not l.startswith('warning: ')]
        if p.returncode != 0 or bad:
            die('spatch failed (%s, exit %d, %d files): %s\n  command: %s' %
                (what, p.returncode, len(files),
                 '\n  '.join(bad[-15:]) or '(no message)', ' '.join(cmd)))
        return p.stdout.splitlines()


def git_grep(src, args, dirs):
    """git grep in the work tree (the current content of tracked files;
    --untracked finds nothing in trees whose .gitignore ignores all).
    Patterns are PCRE (-P): glibc's regex (-E) is 5 to 100 times slower on
    these, a minute of make audit."""
    cmd = ['git', '-C', src, 'grep', '-I'] + args + ['--'] + \
        ['%s/*.c' % d for d in dirs] + ['%s/*.h' % d for d in dirs]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode not in (0, 1):  # 1: nothing found
        die('git grep failed (exit %d): %s' % (p.returncode, p.stderr.strip()))
    return p.stdout.splitlines()


def chunks(seq, n):
    """SEQ in lists of N (the last one shorter)."""
    seq = list(seq)
    for i in range(0, len(seq), n):
        yield seq[i:i + n]

