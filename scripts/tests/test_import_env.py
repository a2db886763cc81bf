"""The scripts that read TS_KERNEL read it when they run, not when they are
imported (issue 35): a bad TS_KERNEL must not stop an import."""
import ast
import os
import subprocess
import sys
import unittest

SCRIPTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

class ImportReadsNoEnvironment(unittest.TestCase):
    def test_a_bad_ts_kernel_does_not_stop_an_import(self):
        env = dict(os.environ, TS_KERNEL="nonsense")
        for module in ("tsanity.report", "tsanity.bench_report", "tsanity.mbox.main"):
            p = subprocess.run([sys.executable, "-c", f"import {module}"],
                               cwd=SCRIPTS, env=env, capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, f"{module}: {p.stderr}")

    def test_the_scripts_still_name_a_bad_ts_kernel(self):
        env = dict(os.environ, TS_KERNEL="nonsense")
        p = subprocess.run([sys.executable, os.path.join(SCRIPTS, "report.py"), "/tmp",
                            "base", "patched"], cwd=SCRIPTS, env=env, capture_output=True,
                           text=True)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("TS_KERNEL=nonsense", p.stderr)


if __name__ == "__main__":
    unittest.main()


class NoEnvironmentAtImport(unittest.TestCase):
    """No module of the package reads the environment when it is imported:
    an AST scan of the statements that run at import (a module's body,
    outside its functions; class bodies included)."""

    @staticmethod
    def reads(tree):
        found = []

        def walk(node):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                return
            if isinstance(node, ast.Attribute) and node.attr in ("environ", "getenv") \
                    and isinstance(node.value, ast.Name) and node.value.id == "os":
                found.append(node.lineno)
            for child in ast.iter_child_nodes(node):
                walk(child)
        walk(tree)
        return found

    def test_no_module_reads_the_environment_at_import(self):
        for d, _, files in os.walk(os.path.join(SCRIPTS, "tsanity")):
            for n in files:
                if n.endswith(".py"):
                    path = os.path.join(d, n)
                    with open(path) as f:
                        lines = self.reads(ast.parse(f.read(), path))
                    self.assertEqual(lines, [], f"{path} reads the environment at import")

    def test_the_scan_sees_a_read(self):
        # The negative experiment: a module-level read is found, one in a
        # function is not.
        self.assertEqual(self.reads(ast.parse("import os\nX = os.environ.get('A')\n")), [2])
        self.assertEqual(self.reads(ast.parse("import os\ndef f():\n    return os.environ\n")),
                         [])
