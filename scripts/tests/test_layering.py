"""The layering of the host scripts, read from their imports (an AST scan,
nothing imported): the package scripts/tsanity/ imports nothing from the
loose modules of scripts/ above it, and no module imports itself back
through others (no import circle), lazy imports inside functions included.

Run from the repository's root:
  python3 -m unittest discover -s scripts/tests -p 'test_*.py'
"""
import ast
import os
import unittest

SCRIPTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = "tsanity"


def modules(root=SCRIPTS):
    """Every module of scripts/ and its package, tests left out: {dotted
    name: path}; a package is named by its directory."""
    found = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in ("tests", "__pycache__"))
        for f in sorted(filenames):
            if not f.endswith(".py"):
                continue
            path = os.path.join(dirpath, f)
            name = os.path.relpath(path, root)[:-3].replace(os.sep, ".")
            if name.endswith(".__init__"):
                name = name[:-len(".__init__")]
            found[name] = path
    return found


def imports(name, path, known):
    """The modules of KNOWN that the module NAME at PATH imports, wherever
    the import statement is."""
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    package = name if path.endswith("__init__.py") else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name in known)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".") if package else []
                parts = parts[:len(parts) - (node.level - 1)]
                base = ".".join(parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            if base in known:
                found.add(base)
            for a in node.names:
                sub = f"{base}.{a.name}" if base else a.name
                if sub in known:
                    found.add(sub)
    found.discard(name)
    return found


def graph(root=SCRIPTS):
    known = modules(root)
    return {name: imports(name, path, known) for name, path in known.items()}


def circles(g):
    """The strongly connected components of G with more than one module
    (Tarjan's algorithm, iterative), each sorted."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = 0
    for start in sorted(g):
        if start in index:
            continue
        work = [(start, iter(sorted(g[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(g[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


class Layering(unittest.TestCase):
    def test_the_scan_sees_imports(self):
        # The scan is not blind: known edges of the tree are there.
        g = graph()
        self.assertIn("tsanity.timeout_classes", g["tsanity.report"])
        self.assertIn("tsanity.report", g["report"])
        self.assertIn("tsanity.splats", g["tsanity.judge.boot"])
        self.assertIn("tsanity.repo", g["tsanity.stable"])
        self.assertGreater(len(g), 50)

    def test_scripts_keeps_entry_points_only(self):
        # A module of scripts/ (not the package) defines nothing: it
        # imports its module of the package and runs it.
        import ast
        for name in sorted(os.listdir(SCRIPTS)):
            if not name.endswith(".py"):
                continue
            with open(os.path.join(SCRIPTS, name)) as f:
                tree = ast.parse(f.read(), name)
            defined = [type(n).__name__ for n in tree.body
                       if isinstance(n, (ast.FunctionDef, ast.ClassDef, ast.Assign))]
            self.assertEqual(defined, [], f"scripts/{name} defines code: move it into "
                             "scripts/tsanity/")

    def test_no_import_circle(self):
        self.assertEqual(circles(graph()), [])

    def test_circles_are_found(self):
        # The negative experiment: a circle of three, and one of two
        # beside a module outside it.
        self.assertEqual(circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}),
                         [["a", "b", "c"]])
        self.assertEqual(circles({"a": {"b"}, "b": {"a"}, "c": set()}), [["a", "b"]])
        self.assertEqual(circles({"a": {"b"}, "b": set()}), [])

    def test_the_package_imports_nothing_above_it(self):
        up = sorted((name, dep) for name, deps in graph().items()
                    if name == PACKAGE or name.startswith(PACKAGE + ".")
                    for dep in deps if not (dep == PACKAGE or dep.startswith(PACKAGE + ".")))
        self.assertEqual(up, [])


if __name__ == "__main__":
    unittest.main()
