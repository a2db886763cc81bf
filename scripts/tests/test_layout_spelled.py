"""Issue 21: no path of the results layout is spelled outside
scripts/tsanity/layout.py.  Every file of the tooling (scripts/ at every
depth, the Makefile, .ci/run, qemu-config's scripts) is read: in Python
every string of the code (docstrings and comments apart; an f-string or an
os.path.join() of names and values counts as the path it makes, a value
as "{}"), in shell every line that is not a comment; none may make one of
layout.RESULT_FILES.  The scanner is tested too, on small texts that spell
a path and on texts that do not."""
import ast
import glob
import os
import re
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.normpath(os.path.join(HERE, ".."))
REPO = os.path.dirname(SCRIPTS)
sys.path.insert(0, SCRIPTS)
from tsanity import kernel, layout  # noqa: E402

# What a field of a template may be in the text: a value ("{}" in Python,
# $var, ${var} or $(...) in shell), or one of its few known names.
VALUE = r"(?:\{\}|\$\{?\w+\}?|\$\([^)]*\))"
FIELDS = {"kernel": "|".join(kernel.NAMES), "ext": "md|json|svg"}


def template_re(template):
    out, pos = "", 0
    for m in re.finditer(r"\{(\w+)(?::[^}]*)?\}", template):
        out += re.escape(template[pos:m.start()])
        known = FIELDS.get(m.group(1))
        out += f"(?:{VALUE}|{known})" if known else rf"(?:{VALUE}|[\w.-]+)"
        pos = m.end()
    out += re.escape(template[pos:])
    # A bare word (stdout) is a path only after a directory.
    lead = "/" if not re.search(r"[./{-]", template) else r"(?:^|[/\s\"'=])"
    return re.compile(rf"{lead}{out}(?=$|[\s\"';|)&<>])")


# The layout's own tests say what its paths must be.
LAYOUT_TESTS = os.path.join(HERE, "test_layout.py")

PATTERNS = {name: template_re(t) for name, t in layout.RESULT_FILES.items()}


def _render(node):
    """The text a Python expression makes, a value as "{}"; None where it
    is not a string."""
    if isinstance(node, ast.Constant):
        return node.value if isinstance(node.value, str) else None
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        # "report-%s-%s.md" % (a, b)
        left = _render(node.left)
        return None if left is None else re.sub(r"%[-#0 +]*\d*(?:\.\d+)?[sdrif]", "{}", left)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
            and node.func.attr == "format" and isinstance(node.func.value, ast.Constant) \
            and isinstance(node.func.value.value, str):
        # "report-{old}-{new}.md".format(...)
        return re.sub(r"\{[^{}]*\}", "{}", node.func.value.value)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        a, b = _render(node.left), _render(node.right)
        return None if a is None and b is None else (a or "{}") + (b or "{}")
    return None


def _is_join(node):
    f = node.func
    return isinstance(f, ast.Attribute) and f.attr == "join" and \
        isinstance(f.value, ast.Attribute) and f.value.attr == "path"


def python_texts(source):
    """Every string the code of SOURCE makes (docstrings apart), with its
    line."""
    tree = ast.parse(source)
    docs = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) \
                and node.body and isinstance(node.body[0], ast.Expr) \
                and isinstance(node.body[0].value, ast.Constant):
            docs.add(id(node.body[0].value))
    for node in ast.walk(tree):
        if id(node) in docs:
            continue
        if isinstance(node, ast.Call) and _is_join(node):
            parts = [_render(a) for a in node.args]
            yield node.lineno, "/".join(p if p is not None else "{}" for p in parts)
        elif isinstance(node, (ast.Constant, ast.JoinedStr, ast.BinOp, ast.Call)):
            text = _render(node)
            if text is not None:
                yield node.lineno, text


def shell_texts(source):
    for n, line in enumerate(source.splitlines(), 1):
        code = line.strip()
        if code and not code.startswith("#"):
            yield n, re.sub(r"\s+#\s.*$", "", code)


def spelled(texts):
    """(line, results-file name, text) of every text that makes a path of
    the results layout."""
    for n, text in texts:
        for name, pat in PATTERNS.items():
            if pat.search(text):
                yield n, name, text


def tooling_files():
    yield from glob.glob(os.path.join(SCRIPTS, "**", "*.py"), recursive=True)
    yield from glob.glob(os.path.join(SCRIPTS, "**", "*.sh"), recursive=True)
    for rel in ("scripts/ts", "Makefile", ".ci/run"):
        yield os.path.join(REPO, rel)
    yield from glob.glob(os.path.join(SCRIPTS, "kunit-qemu", "*"))
    yield from glob.glob(os.path.join(REPO, "qemu-config", "*.sh"))


def is_python(path):
    if path.endswith(".py"):
        return True
    with open(path) as f:
        return "python" in f.readline()


class Scanner(unittest.TestCase):
    def test_python_paths_are_found(self):
        for src in ('p = os.path.join(d, kernel, "verdict.json")\n',
                    'open(f"{d}/report-{a}-{b}.md")\n',
                    'p = os.path.join(d, "bench.json")\n',
                    'p = os.path.join(results, "stdout")\n',
                    'p = d + "/serial.log"\n',
                    'p = "%s/report-%s-%s.md" % (d, a, b)\n',
                    'p = "{d}/{k}/verdict.json".format(d=d, k=k)\n'):
            with self.subTest(src=src):
                self.assertTrue(list(spelled(python_texts(src))))

    def test_python_docstrings_and_other_words_pass(self):
        src = ('def f():\n    """Reads verdict.json and report-base-patched.md."""\n'
               '    run(["git", "commit", "-q"])\n    print("stdout")\n'
               '    return layout.result_file(d, "verdict", kernel=k)\n')
        self.assertEqual(list(spelled(python_texts(src))), [])

    def test_shell_paths_are_found(self):
        for src in ('log=$results/serial.log\n', 'cat "$d/$k/verdict.json"\n',
                    'tee "$results/stdout"\n', '>"$out/bloat-o-meter-$a-$b.txt"\n',
                    'sort >"$results/$k.warnings"\n'):
            with self.subTest(src=src):
                self.assertTrue(list(spelled(shell_texts(src))))

    def test_shell_comments_and_other_files_pass(self):
        src = ('# writes $results/serial.log\nlog=$(ts_path result "$d" serial kernel=base)\n'
               'echo x >"$out/kconfig.log"\ngit commit -q\n')
        self.assertEqual(list(spelled(shell_texts(src))), [])


class Tooling(unittest.TestCase):
    def test_no_results_path_outside_the_layout(self):
        own = os.path.abspath(os.path.join(SCRIPTS, "tsanity", "layout.py"))
        files = sorted(set(tooling_files()))
        # The walk found the tooling, not an empty directory.
        self.assertGreater(len(files), 60)
        for path in files:
            if path in (own, os.path.abspath(__file__), LAYOUT_TESTS):
                continue
            with open(path) as f:
                source = f.read()
            texts = python_texts(source) if is_python(path) else shell_texts(source)
            found = [f"line {n}: {name}: {text!r}" for n, name, text in spelled(texts)]
            with self.subTest(path=os.path.relpath(path, REPO)):
                self.assertEqual(found, [], "spells a path of the results layout "
                                 "(use layout.result_file or `ts path result`)")


if __name__ == "__main__":
    unittest.main()
