"""Tests of `scripts/ts boot` (tsanity.boot, tsanity.qemu): the QEMU
command as data (the argument list qemu-config/qemu.sh ran before it, word
for word), the boot's plan from the configuration (limits, kernel
parameters, -icount, each bad setting named), the time limit as timeout -k
5 enforced it (124, 137), and whole boots end to end with a stand-in
qemu-system-x86_64 on PATH that writes a serial log and exits as QEMU
does, judged in the same process with the tree's kunit_parser and
console-badness.sh (TS_SRC: make tree, as make check-scripts has it).
Each failing case has a passing twin."""
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.dirname(HERE)
sys.path.insert(0, SCRIPTS)
from tsanity import boot, cli as ts_cli, layout, qemu  # noqa: E402
from test_boot_judge import clean_log, judge_tree  # noqa: E402  (the judge's log and tree)


# What qemu-config/qemu.sh ran (removed with this stage), for IMAGE,
# INITRAMFS and LOG, TS_APPEND empty, TCG, no -icount.
QEMU_SH = ["qemu-system-x86_64", "-M", "pc", "-accel", "tcg", "-cpu", "max", "-smp", "1",
           "-m", "512", "-bios", "qboot.rom", "-display", "none", "-monitor", "none",
           "-no-reboot", "-serial", "file:LOG", "-device", "isa-debug-exit,iobase=0xf4,iosize=0x01",
           "-kernel", "IMAGE", "-initrd", "INITRAMFS",
           "-append", "console=ttyS0 loglevel=5 panic=-1 tsc=nowatchdog rdinit=/init"]


def context(**env):
    """The configuration and layout of ENV over this environment without
    its TS_* settings."""
    base = {k: v for k, v in os.environ.items() if not k.startswith("TS_")}
    cfg, _, lay = ts_cli.context({**base, **env})
    return cfg, lay


class Command(unittest.TestCase):
    def test_the_command_qemu_sh_ran(self):
        self.assertEqual(qemu.command(qemu.Guest("IMAGE", "INITRAMFS", "LOG")), QEMU_SH)

    def test_icount_and_append(self):
        argv = qemu.command(qemu.Guest("IMAGE", "INITRAMFS", "LOG", icount=True,
                                       append=("a=1 b", "c")))
        i = argv.index("-icount")
        self.assertEqual(argv[i - 2:i + 3], ["-m", "512", "-icount", "shift=0,sleep=off", "-bios"])
        self.assertEqual(argv[-1], QEMU_SH[-1] + " a=1 b c")
        self.assertEqual([a for a in argv if a not in ("-icount", "shift=0,sleep=off")][:-1],
                         QEMU_SH[:-1])

    def test_accelerator(self):
        self.assertEqual((qemu.accel("0"), qemu.accel("1")), ("tcg", "kvm"))
        with self.assertRaisesRegex(qemu.QemuError, "TS_KVM=yes"):
            qemu.accel("yes")
        kvm = qemu.command(qemu.Guest("I", "R", "L", accel="kvm"))
        self.assertEqual(kvm[kvm.index("-accel") + 1], "kvm")
        with self.assertRaisesRegex(qemu.QemuError, "needs TCG, not kvm"):
            qemu.command(qemu.Guest("I", "R", "L", accel="kvm", icount=True))

    def test_show_quotes_for_the_shell(self):
        self.assertEqual(qemu.show(["q", "-append", "a b"]), "q -append 'a b'")


class Plan(unittest.TestCase):
    def plan(self, req, **env):
        cfg, self.layout = context(**env)
        return boot.plan(cfg, self.layout, req)

    def serial(self, suite, kernel):
        return layout.result_file(self.layout.boot_results(*suite), "serial", kernel=kernel)

    def test_tests_suite(self):
        p = self.plan(boot.Request("patched"), TS_SEED="7", TS_RANDOM="3", TS_APPEND="quiet x=1")
        self.assertEqual(p.limit, 120)
        self.assertFalse(p.guest.icount)
        self.assertEqual(p.guest.append, ("quiet x=1", "TIMEOUT_CLASSES_SEED=7",
                                          "TIMEOUT_CLASSES_RANDOM=3"))
        self.assertEqual(p.random, "7 3")
        self.assertTrue(p.guest.image.endswith("guest-patched/arch/x86/boot/bzImage"))
        self.assertEqual(p.guest.serial_log, self.serial(("tests",), "patched"))

    def test_suites_bench_and_sanitized(self):
        p = self.plan(boot.Request("base", "suites"), TS_SUITES_BOOT_TIMEOUT="900")
        self.assertEqual((p.limit, p.guest.append, p.random), (900, (), ""))
        p = self.plan(boot.Request("fixes", "bench", icount=True))
        self.assertEqual((p.limit, p.guest.icount, p.guest.append), (120, True, ()))
        p = self.plan(boot.Request("base", "tests", sanitized=True, list_reports=True),
                      TS_APPEND="x", TS_SANITIZED_SCALE="3")
        self.assertEqual((p.limit, p.guest.icount), (360, True))
        self.assertEqual(p.guest.append[:2], ("kasan_multi_shot", "x"))
        self.assertTrue(p.guest.image.endswith("guest-base-sanitized/arch/x86/boot/bzImage"))
        self.assertEqual(p.guest.serial_log, self.serial(("tests", "sanitized"), "base"))
        self.assertTrue(self.plan(boot.Request("base"), TS_ICOUNT="1").guest.icount)

    def test_bad_settings_are_named(self):
        for req, env, text in [
                (boot.Request("base", sanitized=True), {"TS_SANITIZED_SCALE": "0.5"},
                 "TS_SANITIZED_SCALE=0.5: a whole factor"),
                (boot.Request("base", sanitized=True), {"TS_SANITIZED_SCALE": "0"},
                 "TS_SANITIZED_SCALE=0: a whole factor"),
                (boot.Request("base"), {"TS_SEED": "x"}, "TS_SEED=x: not a number"),
                (boot.Request("base"), {"TS_RANDOM": "-1"}, "TS_RANDOM=-1: not a number"),
                (boot.Request("base"), {"TS_BOOT_TIMEOUT": "2m"}, "TS_BOOT_TIMEOUT=2m"),
                (boot.Request("base"), {"TS_KVM": "yes"}, "TS_KVM=yes"),
                (boot.Request("base"), {"TS_ICOUNT": "yes"}, "TS_ICOUNT=yes"),
                (boot.Request("base", list_reports=True), {}, "sanitized variant only"),
                (boot.Request("base", "nonsense"), {}, "unknown suite 'nonsense'")]:
            with self.subTest(text=text):
                with self.assertRaisesRegex(ValueError, text):
                    self.plan(req, **env)
        # Their passing twins.
        self.plan(boot.Request("base", sanitized=True), TS_SANITIZED_SCALE="12")
        self.plan(boot.Request("base"), TS_SEED="0", TS_RANDOM="0", TS_KVM="1")


class Limit(unittest.TestCase):
    def test_exit_status_passes_through(self):
        self.assertEqual(boot.run_qemu(["sh", "-c", "exit 3"], 10), 3)
        # SIGKILL: no parent can have it ignored (a job started in the
        # background ignores SIGINT).
        self.assertEqual(boot.run_qemu(["sh", "-c", "kill -KILL $$"], 10), 137)

    def test_sigterm_at_the_limit_is_124(self):
        start = time.monotonic()
        self.assertEqual(boot.run_qemu(["sleep", "30"], 1), boot.TIMED_OUT)
        self.assertLess(time.monotonic() - start, 10)

    def test_sigkill_after_a_term_ignored_is_137(self):
        old, boot.KILL_AFTER = boot.KILL_AFTER, 1
        self.addCleanup(setattr, boot, "KILL_AFTER", old)
        self.assertEqual(boot.run_qemu(["sh", "-c", "trap '' TERM; exec sleep 30"], 1),
                         boot.KILLED)


FAKE_QEMU = """#!/bin/sh
# A stand-in QEMU: the serial log is $FAKE_LOG, the exit $FAKE_RC.
echo "$@" > "$FAKE_ARGS"
for a in "$@"; do case $a in file:*) log=${a#file:} ;; esac; done
[ -z "$FAKE_LOG" ] || cp "$FAKE_LOG" "$log"
if [ -n "$FAKE_SLEEP" ]; then exec sleep "$FAKE_SLEEP"; fi
exit "$FAKE_RC"
"""


class WholeBoot(unittest.TestCase):
    """`scripts/ts boot` with a stand-in QEMU, in a TS_WORK of its own."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="test_boot_stage.")
        self.addCleanup(shutil.rmtree, self.dir)
        tree = judge_tree(self.dir)
        bin_dir = os.path.join(self.dir, "bin")
        os.makedirs(bin_dir)
        fake = os.path.join(bin_dir, "qemu-system-x86_64")
        with open(fake, "w") as f:
            f.write(FAKE_QEMU)
        os.chmod(fake, os.stat(fake).st_mode | stat.S_IXUSR)
        self.env = {**os.environ, "TS_WORK": os.path.join(self.dir, "work"), "TS_SRC": tree,
                    "PATH": bin_dir + os.pathsep + os.environ["PATH"],
                    "FAKE_ARGS": os.path.join(self.dir, "args"), "FAKE_RC": "1",
                    "FAKE_LOG": os.path.join(self.dir, "log"), "FAKE_SLEEP": ""}
        for k in [k for k in self.env if k.startswith("TS_") and k not in ("TS_WORK", "TS_SRC")]:
            del self.env[k]
        _, lay = context(TS_WORK=self.env["TS_WORK"], TS_SRC=tree)
        self.layout = lay
        guest = lay.guest("base")
        os.makedirs(os.path.join(guest, "arch", "x86", "boot"))
        for path, text in [(os.path.join(guest, "arch", "x86", "boot", "bzImage"), "image"),
                           (os.path.join(guest, "ts-commit"), "abc123\n"),
                           (os.path.join(lay.initramfs("tests"), "initramfs.cpio"), "cpio"),
                           (os.path.join(lay.initramfs("tests"), "tests"),
                            "timeout_classes\ntimeout_classes_32\nfutex_wait\n")]:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
        self.boots = lay.boot_results("tests")

    def path(self, what):
        return layout.result_file(self.boots, what, kernel="base")

    def boot(self, log, *args, **env):
        if log is not None:
            with open(self.env["FAKE_LOG"], "w", newline="") as f:
                f.write(log)
        else:
            self.env["FAKE_LOG"] = ""
        r = subprocess.run([sys.executable, os.path.join(SCRIPTS, "ts"), "boot", *args, "base"],
                           capture_output=True, text=True, env={**self.env, **env})
        return r.returncode, r.stdout, r.stderr

    def test_clean_boot_passes_and_writes_its_files(self):
        rc, out, err = self.boot(clean_log())
        self.assertEqual(rc, 0, err)
        self.assertIn("base boot: 3 of 3 programs reported; 3 tests passed", out)
        self.assertEqual(err.splitlines(), [
            f"==> booting the base guest kernel (limit 120 s; serial console in "
            f"{self.path('serial')})"])
        with open(self.path("commit")) as f:
            self.assertEqual(f.read(), "abc123\n")
        with open(self.path("random")) as f:
            self.assertEqual(f.read(), "1 128\n")
        self.assertTrue(os.path.isfile(self.path("verdict")))
        with open(self.env["FAKE_ARGS"]) as f:
            self.assertIn("rdinit=/init TIMEOUT_CLASSES_SEED=1 TIMEOUT_CLASSES_RANDOM=128", f.read())

    def test_failed_program_with_exit_1_fails(self):
        rc, out, err = self.boot(clean_log(failed=1))
        self.assertEqual((rc, out), (1, ""))
        self.assertIn("error: base boot: QEMU exited 1, but /init said 1 of 3 programs failed",
                      err)
        self.assertEqual(self.boot(clean_log(failed=1), FAKE_RC="3")[0], 0)

    def test_timeout_is_enforced_and_named(self):
        rc, _, err = self.boot(clean_log(), FAKE_SLEEP="30", TS_BOOT_TIMEOUT="1")
        self.assertEqual(rc, 1)
        self.assertIn("error: base boot: timeout: the guest did not finish within 1 s", err)

    def test_what_an_earlier_boot_left_goes(self):
        self.assertEqual(self.boot(clean_log())[0], 0)
        rc, _, err = self.boot(None, FAKE_RC="2")
        self.assertEqual(rc, 1)
        self.assertIn(f"error: QEMU (exit 2) wrote no serial log {self.path('serial')}", err)
        self.assertFalse(os.path.exists(self.path("verdict")))

    def test_missing_kernel_and_show_command(self):
        os.remove(os.path.join(self.layout.guest("base"), "arch", "x86", "boot", "bzImage"))
        rc, out, _ = self.boot(clean_log(), "--show-command")
        self.assertEqual(rc, 0)
        self.assertTrue(out.startswith("qemu-system-x86_64 -M pc -accel tcg"), out)
        self.assertFalse(os.path.exists(self.env["FAKE_ARGS"]))  # nothing booted
        rc, _, err = self.boot(clean_log())
        self.assertEqual(rc, 1)
        self.assertIn("bzImage not found (run scripts/ts guest base)", err)

    def test_usage_errors(self):
        r = subprocess.run([sys.executable, os.path.join(SCRIPTS, "ts"), "boot", "base", "tests",
                            "sanitised"], capture_output=True, text=True, env=self.env)
        self.assertEqual(r.returncode, 2)
        self.assertIn("invalid choice: 'sanitised'", r.stderr)


if __name__ == "__main__":
    unittest.main()
