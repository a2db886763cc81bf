"""The scripts that read TS_KERNEL read it when they run, not when they are
imported (issue 35): a bad TS_KERNEL must not stop an import."""
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
