"""Tests of `scripts/ts initramfs` (tsanity.initramfs) that need no
kernel: the uapi headers' sum is the one scripts/initramfs.sh wrote, byte
for byte (a sum of the old tooling stays valid and the selftests are not
rebuilt); the list template's placeholders; the program list's comments;
a file rewritten with the same content keeps its mtime; the refusals
before anything is built.  The archives themselves were compared with the
old tooling's on the same trees (the note of 2026-12-07: identical)."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.dirname(HERE)
sys.path.insert(0, SCRIPTS)
from tsanity import initramfs  # noqa: E402


class Pieces(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="test_initramfs_stage.")
        self.addCleanup(shutil.rmtree, self.dir)

    def write(self, rel, text):
        path = os.path.join(self.dir, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
        return path

    def test_uapi_sum_is_the_shell_s(self):
        inc = os.path.join(self.dir, "include")
        for rel, text in (("linux/time.h", "a"), ("linux/Time_types.h", "b"), ("asm/x.h", "c"),
                          ("linux/readme.txt", "not a header"), ("a_b.h", "d"), ("a-b.h", "e")):
            self.write(os.path.join("include", rel), text)
        os.symlink("time.h", os.path.join(inc, "linux", "link.h"))
        shell = subprocess.run(["bash", "-c", "cd \"$1\" && find . -type f -name '*.h' | "
                                "LC_ALL=C sort | xargs sha256sum | sha256sum", "-", inc],
                               capture_output=True, text=True, check=True).stdout.strip()
        self.assertEqual(initramfs.uapi_sum(inc), shell)
        self.write("include/linux/time.h", "changed")
        self.assertNotEqual(initramfs.uapi_sum(inc), shell)

    def test_template_and_list(self):
        t = self.write("initramfs.list", "# a comment\ndir /bin 0755 0 0\n@TEST_FILES@\n"
                       "file /init @B@/init 0755 0 0\n")
        self.assertEqual(initramfs.list_from_template(t, "file /bin/x @B@/x 0755 0 0\n", "/b"),
                         "dir /bin 0755 0 0\nfile /bin/x /b/x 0755 0 0\n"
                         "file /init /b/init 0755 0 0\n")
        lst = self.write("tests", "# programs\n/bin/a 10  \n\n/bin/b 20 # why\n")
        self.assertEqual(initramfs.program_list(lst), ["/bin/a 10", "/bin/b 20"])

    def test_write_if_changed_keeps_mtime(self):
        path = self.write("f", "same\n")
        os.utime(path, ns=(1_000_000_000, 1_000_000_000))
        initramfs.write_if_changed(path, "same\n")
        self.assertEqual(os.stat(path).st_mtime_ns, 1_000_000_000)
        initramfs.write_if_changed(path, "other\n")
        self.assertNotEqual(os.stat(path).st_mtime_ns, 1_000_000_000)
        with open(path) as f:
            self.assertEqual(f.read(), "other\n")

    def test_refusals(self):
        env = {k: v for k, v in os.environ.items() if not k.startswith("TS_")}
        env.update(TS_WORK=self.dir, TS_SRC=os.path.join(self.dir, "nosrc"))
        ts = [sys.executable, os.path.join(SCRIPTS, "ts"), "initramfs"]
        r = subprocess.run([*ts, "tests"], capture_output=True, text=True, env=env)
        self.assertEqual(r.returncode, 1)
        self.assertIn("nosrc/tools/testing/selftests not found (run scripts/ts tree)", r.stderr)
        r = subprocess.run([*ts, "nonesuch"], capture_output=True, text=True, env=env)
        self.assertEqual(r.returncode, 2)
        r = subprocess.run([*ts, "suites"], capture_output=True, text=True, env=env)
        self.assertEqual(r.returncode, 1)
        self.assertIn("not found (run make suites)", r.stderr)


if __name__ == "__main__":
    unittest.main()
