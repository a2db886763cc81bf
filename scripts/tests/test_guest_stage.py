"""Tests of `scripts/ts guest` and `scripts/ts kconfig` (tsanity.guest,
tsanity.kconfig): the kconfig key is the one lib.sh's kconfig() hashed,
byte for byte (a tree configured by the old tooling is not configured
again), a configured OUT with its key is left alone, a symbol that did not
stick is named, and the stages' refusals before anything is built.  None
builds a kernel; the check reads with the tree's kunit_config (TS_SRC:
make tree, as make check-scripts has it)."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.dirname(HERE)
sys.path.insert(0, SCRIPTS)
from tsanity import cli as ts_cli, guest, kconfig  # noqa: E402

SRC = ts_cli.context()[2].src


def context(**env):
    base = {k: v for k, v in os.environ.items() if not k.startswith("TS_")}
    return ts_cli.context({**base, **env})[2]


class Kconfig(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="test_guest_stage.")
        self.addCleanup(shutil.rmtree, self.dir)
        self.tree = os.path.join(self.dir, "tree")
        os.makedirs(os.path.join(self.tree, "kernel", "time"))
        for path, text in [("Kconfig", "source kernel/time/Kconfig\n"),
                           ("kernel/time/Kconfig", "config X\n"), ("kernel/time/a.c", "int a;\n"),
                           ("Kconfig.debug", "config D\n")]:
            with open(os.path.join(self.tree, path), "w") as f:
                f.write(text)
        git = ["git", "-C", self.tree, "-c", "user.name=t", "-c", "user.email=t@t"]
        subprocess.run([*git, "init", "-q"], check=True)
        subprocess.run([*git, "add", "-A"], check=True)
        subprocess.run([*git, "commit", "-q", "-m", "t"], check=True)
        self.frags = []
        for n, text in enumerate(("CONFIG_A=y\n", "CONFIG_B=y\n# CONFIG_C is not set\n")):
            self.frags.append(os.path.join(self.dir, f"f{n}"))
            with open(self.frags[-1], "w") as f:
                f.write(text)

    def test_key_is_lib_sh_s(self):
        # lib.sh's kconfig() as it was (commit 602f78a), the pipeline alone.
        shell = subprocess.run(["bash", "-c", '''margs=("$1"); base=$2; src=$3; shift 3
            { echo "${margs[*]} $base"; cat "$@"
              git -C "$src" ls-tree -r HEAD | grep -P '\\tKconfig|/Kconfig[^/]*$'
            } | sha256sum | cut -d' ' -f1''', "-", "ARCH=x86_64", "tinyconfig", self.tree,
                                *self.frags], capture_output=True, text=True, check=True)
        self.assertEqual(kconfig.key(self.tree, "tinyconfig", self.frags, ["ARCH=x86_64"]),
                         shell.stdout.strip())
        # Without make arguments (the guests'): the same as the shell's too.
        plain = subprocess.run(["bash", "-c", '''margs=(); base=$1; src=$2; shift 2
            { echo "${margs[*]} $base"; cat "$@"
              git -C "$src" ls-tree -r HEAD | grep -P '\\tKconfig|/Kconfig[^/]*$'
            } | sha256sum | cut -d' ' -f1''', "-", "tinyconfig",
                                self.tree, *self.frags], capture_output=True, text=True, check=True)
        self.assertEqual(kconfig.key(self.tree, "tinyconfig", self.frags, []),
                         plain.stdout.strip())
        self.assertNotEqual(plain.stdout.strip(), shell.stdout.strip())

    def test_a_configured_out_is_left_alone_and_checked(self):
        kunit = os.path.join(SRC, "tools", "testing", "kunit")
        if not os.path.isdir(kunit):
            raise AssertionError(f"{kunit} not found (make tree)")
        # The tree's kunit_config, untracked: the key reads HEAD only.
        os.makedirs(os.path.join(self.tree, "tools", "testing"))
        os.symlink(kunit, os.path.join(self.tree, "tools", "testing", "kunit"))
        lay = context(TS_WORK=os.path.join(self.dir, "work"))
        out = os.path.join(self.dir, "out")
        os.makedirs(out)
        with open(os.path.join(out, ".config"), "w") as f:
            f.write("CONFIG_A=y\nCONFIG_B=y\n")

        def stamp():
            with open(os.path.join(out, ".ts-kconfig"), "w") as f:
                f.write(kconfig.key(self.tree, "tinyconfig", self.frags, []) + "\n")
        stamp()
        # The key matches: nothing may run (git alone on PATH: no make, no
        # flock), the check passes.
        old = os.environ["PATH"]
        self.addCleanup(os.environ.__setitem__, "PATH", old)
        only_git = os.path.join(self.dir, "bin")
        os.makedirs(only_git)
        os.symlink(shutil.which("git"), os.path.join(only_git, "git"))
        os.environ["PATH"] = only_git
        kconfig.configure(lay, self.tree, out, "tinyconfig", self.frags)
        # A symbol the .config lacks is named.
        with open(self.frags[1], "a") as f:
            f.write("CONFIG_D=y\n")
        stamp()
        self.assertEqual(kconfig.check(self.tree, os.path.join(out, ".config"), self.frags),
                         [f"CONFIG_D: the fragments ask for y, {out}/.config has n"])
        with self.assertRaisesRegex(kconfig.KconfigError, "lacks what its fragments ask for"):
            kconfig.configure(lay, self.tree, out, "tinyconfig", self.frags)
        # Another key: it configures again, and make fails in a tree
        # without a Makefile, named.
        os.environ["PATH"] = old
        with open(os.path.join(out, ".ts-kconfig"), "w") as f:
            f.write("stale\n")
        with self.assertRaisesRegex(kconfig.KconfigError, f"configuring {out} failed"):
            kconfig.configure(lay, self.tree, out, "tinyconfig", self.frags)


class Guest(unittest.TestCase):
    def test_fragments(self):
        self.assertEqual([os.path.basename(f) for f in guest.fragments("/r", True)],
                         ["guest.config", "sanitized.config"])
        self.assertEqual(guest.fragments("/r", False), ["/r/qemu-config/guest.config"])

    def test_refusals(self):
        d = tempfile.mkdtemp(prefix="test_guest_stage.")
        self.addCleanup(shutil.rmtree, d)
        env = {k: v for k, v in os.environ.items() if not k.startswith("TS_")}
        env.update(TS_WORK=d)
        ts = [sys.executable, os.path.join(SCRIPTS, "ts")]
        r = subprocess.run([*ts, "guest", "base"], capture_output=True, text=True, env=env)
        self.assertEqual(r.returncode, 1)
        self.assertIn("base-src not found (run make tree)", r.stderr)
        r = subprocess.run([*ts, "guest", "sanitised"], capture_output=True, text=True, env=env)
        self.assertEqual(r.returncode, 2)
        self.assertIn("invalid choice: 'sanitised'", r.stderr)
        r = subprocess.run([*ts, "kconfig", d, os.path.join(d, "out"), "tinyconfig"],
                           capture_output=True, text=True, env=env)
        self.assertEqual(r.returncode, 2)


if __name__ == "__main__":
    unittest.main()
