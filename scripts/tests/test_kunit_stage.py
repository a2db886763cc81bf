"""Tests of `scripts/ts kunit` (tsanity.kunit_run) and tsanity.build: the
arguments kunit.py run gets for each variant (what scripts/kunit.sh gave
it, word for word), the accelerator its QEMU may use, the LLVM= choice
from the tree's minimum and the machine's clang (stand-ins on PATH), the
summary lines kept from kunit.py's output, ccache's environment, and the
stage's refusals before anything is built.  None builds a kernel."""
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.dirname(HERE)
sys.path.insert(0, SCRIPTS)
from tsanity import build, cli as ts_cli, kunit_run  # noqa: E402


def context(**env):
    base = {k: v for k, v in os.environ.items() if not k.startswith("TS_")}
    cfg, _, lay = ts_cli.context({**base, **env})
    return cfg, lay


class Arguments(unittest.TestCase):
    def test_what_kunit_sh_gave_kunit_py(self):
        cfg, _ = context()
        self.assertEqual(kunit_run.arguments("x86_64", cfg, "/S", "7.3"),
                         (["--kunitconfig=/S/kernel/time", "--arch=x86_64"], "tcg"))
        self.assertEqual(kunit_run.arguments("i386", cfg, "/S", "7.3"),
                         (["--kunitconfig=/S/kernel/time", "--arch=i386"], "tcg"))
        self.assertEqual(kunit_run.arguments("sanitizers", cfg, "/S", "7.3")[0],
                         ["--kunitconfig=/S/kernel/time", "--arch=x86_64",
                          f"--kunitconfig={cfg.repo}/kunit-tests/sanitizers.config"])
        with self.assertRaisesRegex(kunit_run.KunitError, "unknown variant 'sparc'"):
            kunit_run.arguments("sparc", cfg, "/S", "7.3")

    def test_accelerator(self):
        cfg, _ = context(TS_KVM="1")
        self.assertEqual(kunit_run.arguments("x86_64", cfg, "/S", "7.3")[1], "kvm")
        with self.assertRaisesRegex(ValueError, "TS_KVM=2"):
            kunit_run.arguments("x86_64", context(TS_KVM="2")[0], "/S", "7.3")


class Llvm(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="test_kunit_stage.")
        self.addCleanup(shutil.rmtree, self.dir)
        self.tree = os.path.join(self.dir, "tree")
        os.makedirs(os.path.join(self.tree, "scripts"))
        with open(os.path.join(self.tree, "scripts", "min-tool-version.sh"), "w") as f:
            f.write('[ "$1" = llvm ] && echo 17.0.1\n')
        self.bin = os.path.join(self.dir, "bin")
        os.makedirs(self.bin)
        self.old_path = os.environ["PATH"]
        self.addCleanup(os.environ.__setitem__, "PATH", self.old_path)
        # Only the stand-ins, and sh to run the tree's script.
        os.symlink(shutil.which("sh"), os.path.join(self.bin, "sh"))
        os.environ["PATH"] = self.bin

    def tool(self, name, text):
        path = os.path.join(self.bin, name)
        with open(path, "w") as f:
            f.write(f"#!/bin/sh\n{text}\n")
        os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)

    def test_choice(self):
        self.tool("clang", "echo 19.1.7")
        self.assertEqual(kunit_run.llvm_option(self.tree, "7.3"), "1")
        self.tool("clang", "echo 14.0.6")
        self.tool("clang-19", "exit 0")
        self.tool("ld.lld-19", "exit 0")
        self.assertEqual(kunit_run.llvm_option(self.tree, "7.3"), "-19")
        os.remove(os.path.join(self.bin, "ld.lld-19"))
        with self.assertRaisesRegex(kunit_run.KunitError,
                                    "Linux 7.3 needs LLVM 17.0.1 or newer: clang is 14.0.6"):
            kunit_run.llvm_option(self.tree, "7.3")
        os.remove(os.path.join(self.bin, "clang"))
        with self.assertRaisesRegex(kunit_run.KunitError, "clang is 0"):
            kunit_run.llvm_option(self.tree, "7.3")

    def test_versions(self):
        self.assertLess(build.version_key("14.0.6"), build.version_key("17.0.1"))
        self.assertGreaterEqual(build.version_key("17.0.1"), build.version_key("17.0.1"))
        self.assertGreater(build.version_key("19"), build.version_key("17.0.1"))
        self.assertEqual(build.version_key("0"), (0,))


class Summary(unittest.TestCase):
    def test_closing_lines(self):
        log = "\n".join(["building", "[10:00:00] ====== [PASSED] a ======",
                         *[f"[10:00:0{i}] line {i}" for i in range(9)]]) + "\n"
        self.assertEqual(kunit_run.summary(log).splitlines(),
                         [f"[10:00:0{i}] line {i}" for i in range(1, 9)])
        self.assertEqual(kunit_run.summary("no run\n"), "")


class Refusals(unittest.TestCase):
    def test_a_tree_without_the_suite(self):
        d = tempfile.mkdtemp(prefix="test_kunit_stage.")
        self.addCleanup(shutil.rmtree, d)
        env = {k: v for k, v in os.environ.items() if not k.startswith("TS_")}
        env.update(TS_WORK=d, TS_SRC=os.path.join(d, "src"))
        r = subprocess.run([sys.executable, os.path.join(SCRIPTS, "ts"), "kunit", "x86_64"],
                           capture_output=True, text=True, env=env)
        self.assertEqual(r.returncode, 1)
        self.assertIn(f"{d}/src/kernel/time/.kunitconfig not found (run make tree)", r.stderr)
        os.makedirs(os.path.join(d, "src", "kernel", "time"))
        open(os.path.join(d, "src", "kernel", "time", ".kunitconfig"), "w").close()
        with open(os.path.join(d, "src", "kernel", "time", "time_test.c"), "w") as f:
            f.write("/* no suite */\n")
        r = subprocess.run([sys.executable, os.path.join(SCRIPTS, "ts"), "kunit", "x86_64"],
                           capture_output=True, text=True, env=env)
        self.assertEqual(r.returncode, 1)
        self.assertIn("has no timeout family suite", r.stderr)
        r = subprocess.run([sys.executable, os.path.join(SCRIPTS, "ts"), "kunit", "sparc"],
                           capture_output=True, text=True, env=env)
        self.assertEqual(r.returncode, 2)

    def test_ccache_env(self):
        d = tempfile.mkdtemp(prefix="test_kunit_stage.")
        self.addCleanup(shutil.rmtree, d)
        _, lay = context(TS_WORK=d)
        env = build.ccache_env(lay, {"PATH": "/bin"})
        self.assertEqual((env["PATH"], env["CCACHE_DIR"], env["CCACHE_BASEDIR"],
                          env["CCACHE_NOHASHDIR"]),
                         ("/usr/lib/ccache:/bin", os.path.join(d, "ccache"), d, "1"))
        self.assertTrue(os.path.isdir(os.path.join(d, "ccache")))


if __name__ == "__main__":
    unittest.main()
