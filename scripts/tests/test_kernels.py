"""Tests of scripts/tsanity/kernels.py, the one table of the kernels: the
tooling asks it for everything that depends on the target kernel, a fake
row for a next kernel is all it takes to move, and no other code file
spells a row's version.

Run from the repository's root:
  python3 -m unittest discover -s scripts/tests -p 'test_*.py'
"""
import contextlib
import importlib
import io
import os
import re
import sys
import tokenize
import unittest
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.dirname(HERE)
REPO = os.path.dirname(SCRIPTS)
sys.path.insert(0, SCRIPTS)

from tsanity import kernels  # noqa: E402

# A next kernel, as its row would be: the mainline series moves to it.
NEXT = (kernels.Row("7.3"),
        kernels.Row("7.4", series="patches", suites="qemu-config/suites/intended",
                    newapi_base="7.3"))
# Files that may spell a version besides the table: interface data (the
# forms table's "since", a fact about an interface, not the target).
DATA = {os.path.join("tsanity", "forms", "newer.py")}


class Table(unittest.TestCase):
    def test_rows(self):
        self.assertEqual(kernels.mainline(), "7.3")
        self.assertEqual(kernels.row("7.3").series, "patches")
        self.assertTrue(os.path.isfile(os.path.join(REPO, kernels.row("7.3").suites)))
        # A stable kernel, or any other, has an empty row.
        self.assertEqual(kernels.row("6.1"), kernels.Row("6.1"))
        self.assertEqual(kernels.series(), {"7.3": "patches"})

    def test_one_mainline(self):
        with self.assertRaises(ValueError):
            kernels.mainline((kernels.Row("7.3", series="patches"),
                              kernels.Row("7.4", series="patches")))

    def test_a_next_kernel_is_one_row(self):
        from tsanity import cli, config, kernel
        env = {k: v for k, v in os.environ.items() if not k.startswith("TS_")}
        try:
            with mock.patch.object(kernels, "ROWS", NEXT):
                importlib.reload(kernel)
                cfg, k, layout = cli.context(env)
                self.assertEqual(cfg["TS_KERNEL"], "7.4")
                self.assertEqual(k.series_dir(REPO), os.path.join(REPO, "patches"))
                self.assertFalse(kernel.Kernel("7.3", "").has_series())
                self.assertTrue(layout.root.endswith("linux-7.4"))
                self.assertIn("TS_MAINLINE=7.4\n", cli.shell_env(cfg, k, layout))
                out = io.StringIO()
                with mock.patch.dict(os.environ, env, clear=True), \
                        contextlib.redirect_stdout(out):
                    self.assertIn(cli.main(["row", "newapi_base"]), (0, None))
                self.assertEqual(out.getvalue(), "7.3\n")
                self.assertEqual(config.from_environ(env)["TS_KERNEL"], "7.4")
        finally:
            importlib.reload(kernel)
        self.assertEqual(kernel.MAINLINE, "7.3")


def code_files():
    """The tooling's code: scripts' Python and shell, the Makefile and
    .ci/run; not its tests."""
    for d, dirs, files in os.walk(SCRIPTS):
        dirs[:] = [x for x in dirs if x not in ("tests", "__pycache__")]
        for f in files:
            if f.endswith((".py", ".sh")) or f in ("ts", "kunit-qemu"):
                yield os.path.join(d, f)
    yield os.path.join(REPO, "Makefile")
    yield os.path.join(REPO, ".ci", "run")


class Spelled(unittest.TestCase):
    def test_no_code_spells_a_rows_version(self):
        versions = {r.version for r in kernels.ROWS}
        word = re.compile(r"(?<![\w.])(" + "|".join(map(re.escape, versions)) + r")(?![\w.])")
        found = []
        for path in code_files():
            rel = os.path.relpath(path, SCRIPTS)
            if rel == os.path.join("tsanity", "kernels.py") or rel in DATA:
                continue
            with open(path) as fh:
                text = fh.read()
            if path.endswith(".py"):
                # Strings that are not docstrings; comments never count.
                toks = [t for t in tokenize.generate_tokens(io.StringIO(text).readline)
                        if t.type not in (tokenize.NL, tokenize.COMMENT)]
                for i, t in enumerate(toks):
                    # A docstring: a string alone on its logical line.
                    alone = ((i == 0 or toks[i - 1].type in (tokenize.NEWLINE, tokenize.INDENT,
                                                             tokenize.DEDENT))
                             and i + 1 < len(toks) and toks[i + 1].type == tokenize.NEWLINE)
                    if t.type == tokenize.STRING and not alone and word.search(t.string):
                        found.append(f"{rel}:{t.start[0]}: {t.string[:60]}")
            else:
                for n, line in enumerate(text.split("\n"), 1):
                    code = re.sub(r"(^|\s)#.*$", "", line)
                    if word.search(code):
                        found.append(f"{rel}:{n}: {line.strip()[:60]}")
        self.assertEqual(found, [], "a kernel's version spelled outside tsanity/kernels.py")


if __name__ == "__main__":
    unittest.main()
