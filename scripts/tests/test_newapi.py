"""Tests of scripts/tsanity/newapi.py (scripts/ts newapi): the parsers on
excerpts of the 6.12 and 7.3 trees (fixtures/newapi/), the check of a
classification, and that patches/new-interfaces and its table in
docs/audit.md agree (the page is what `scripts/ts newapi 6.12 7.3 --doc`
writes).  No kernel tree is read."""
import glob
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.join(HERE, "..")
REPO = os.path.join(SCRIPTS, "..")
sys.path.insert(0, SCRIPTS)
from tsanity import cli, newapi  # noqa: E402

FIX = os.path.join(HERE, "fixtures", "newapi")
OLD, NEW = os.path.join(FIX, "old"), os.path.join(FIX, "new")
TS = os.path.join(SCRIPTS, "ts")
CLASSES = os.path.join(REPO, "patches", "new-interfaces")


def page():
    """The page of docs/ that holds the table of the new interfaces between
    newapi's markers (docs/audit.md), the one such page: found by its
    markers, so that no name of a results file is spelled here (issue 21:
    the audit writes a file of that name)."""
    pages = []
    for path in sorted(glob.glob(os.path.join(REPO, "docs", "*.md"))):
        with open(path) as f:
            if newapi.BEGIN in f.read():
                pages.append(path)
    if len(pages) != 1:
        raise AssertionError(f"docs/: {len(pages)} pages hold {newapi.BEGIN!r}, not one: {pages}")
    return pages[0]


class Parsers(unittest.TestCase):
    def test_syscall_table(self):
        text = ("# 0 common commented out\n"
                "0\tcommon\tio_setup\t\tsys_io_setup\tcompat_sys_io_setup\n"
                "4\ttime32\tio_getevents\tsys_io_getevents_time32\n"
                "4\t64\tio_getevents\tsys_io_getevents\n"
                "335\tcommon\tuprobe\t\tsys_uprobe  # a comment\n"
                "\n")
        self.assertEqual(newapi.table_names(text), {"io_setup", "io_getevents", "uprobe"})

    def test_generic_syscalls_from_unistd_h_without_a_table(self):
        self.assertFalse(os.path.exists(os.path.join(OLD, "scripts", "syscall.tbl")))
        got = newapi.syscalls(OLD)
        self.assertEqual(got["generic"], {"io_setup", "io_destroy", "io_submit", "io_cancel",
                                          "listmount"})
        self.assertIn("read", got["x86_64"])

    def test_comments_defines_and_enums(self):
        text = """
/* #define IORING_ENTER_IN_A_COMMENT (1U << 9)
 * IORING_OP_NOT_ONE, */
#define IORING_ENTER_GETEVENTS\t(1U << 0) /* trailing */
#  define IORING_ENTER_SPACED (1U << 1)
// #define IORING_ENTER_CXX (1U << 2)
#define IORING_TIMEOUT_ABS (1U << 0)
#define IORING_LINK_TIMEOUT_UPDATE (1U << 4)
#define IORING_TIMEOUT_CLOCK_MASK (IORING_TIMEOUT_ABS)
enum io_uring_op {
\tIORING_OP_NOP,
\t/* a comment, with a comma */
\tIORING_OP_READV = 1,
\tIORING_OP_LAST,
};
enum io_uring_register_op {
\tIORING_REGISTER_BUFFERS\t\t= 0,
\tIORING_UNREGISTER_BUFFERS\t= 1,
\tIORING_REGISTER_LAST,
\tIORING_REGISTER_USE_REGISTERED_RING\t= 1U << 31
};
enum {
\tIORING_REGISTER_SRC_REGISTERED\t= (1U << 0),
\tIORING_REG_WAIT_TS\t\t= (1U << 0),
};
"""
        got = newapi.uring_names(text)
        self.assertEqual(got["uring-enter"], {"IORING_ENTER_GETEVENTS", "IORING_ENTER_SPACED"})
        self.assertEqual(got["uring-timeout"], {"IORING_TIMEOUT_ABS", "IORING_LINK_TIMEOUT_UPDATE"})
        self.assertEqual(got["uring-op"], {"IORING_OP_NOP", "IORING_OP_READV"})
        self.assertEqual(got["uring-register"], {"IORING_REGISTER_BUFFERS",
                                                 "IORING_UNREGISTER_BUFFERS",
                                                 "IORING_REGISTER_USE_REGISTERED_RING"})
        self.assertEqual(got["uring-reg-wait"], {"IORING_REG_WAIT_TS"})

    def test_a_header_without_the_enum_is_named(self):
        with self.assertRaisesRegex(newapi.NewApiError, "no enum io_uring_op"):
            newapi.uring_names("#define IORING_ENTER_GETEVENTS 1\n")

    def test_no_tree_is_named(self):
        with self.assertRaisesRegex(newapi.NewApiError, "/nonexistent: no such tree"):
            newapi.added("/nonexistent", NEW)
        with tempfile.TemporaryDirectory() as d:
            with self.assertRaisesRegex(newapi.NewApiError, "syscall_64.tbl: no such file"):
                newapi.interfaces(shutil.copytree(OLD, os.path.join(d, "t"), ignore=lambda s, n: [
                    x for x in n if x.endswith("_64.tbl")]))


class Added(unittest.TestCase):
    def test_what_the_excerpts_add(self):
        got = newapi.added(OLD, NEW)
        self.assertEqual(got[("syscall", "uprobe")], "x86_64")
        self.assertEqual(got[("syscall", "listns")], "generic, x86_64, i386")
        self.assertEqual(got[("syscall", "file_setattr")], "generic")
        by_kind = {}
        for kind, name in got:
            by_kind.setdefault(kind, []).append(name)
        self.assertEqual(list(by_kind), [k for k in newapi.KINDS if k in by_kind])
        self.assertEqual(by_kind["uring-op"], [
            "IORING_OP_EPOLL_WAIT", "IORING_OP_NOP128", "IORING_OP_PIPE", "IORING_OP_READV_FIXED",
            "IORING_OP_RECV_ZC", "IORING_OP_URING_CMD128", "IORING_OP_WRITEV_FIXED"])
        self.assertEqual(len(by_kind["uring-register"]), 7)
        self.assertNotIn("IORING_REGISTER_DST_REPLACE", by_kind["uring-register"])
        self.assertEqual(by_kind["uring-enter"], ["IORING_ENTER_EXT_ARG_REG",
                                                  "IORING_ENTER_NO_IOWAIT"])
        self.assertEqual(by_kind["uring-timeout"], ["IORING_TIMEOUT_IMMEDIATE_ARG"])
        self.assertEqual(by_kind["uring-reg-wait"], ["IORING_REG_WAIT_TS"])
        self.assertEqual(len(by_kind["uring-setup"]), 4)
        self.assertEqual(len(by_kind["uring-feature"]), 2)
        self.assertEqual(len(got), 4 + 7 + 7 + 2 + 1 + 1 + 4 + 2)


def write(d, text, name="classes"):
    path = os.path.join(d, name)
    with open(path, "w") as f:
        f.write(text)
    return path


class Classification(unittest.TestCase):
    def setUp(self):
        self.d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.d)
        write(self.d, "", "0003-io_uring-something.patch")

    def test_every_mistake_is_named(self):
        path = write(self.d, "# a comment\n"
                     "syscall listns sometimes - a class not known\n"
                     "syscal uprobe no-timeout - a kind not known\n"
                     "uring-enter IORING_ENTER_EXT_ARG_REG fixed - which patch?\n"
                     "uring-op IORING_OP_PIPE no-timeout 0003 a patch for nothing\n"
                     "uring-op IORING_OP_NOP128 contract 0009 a patch not in the series\n"
                     "uring-op IORING_OP_RECV_ZC contract io_uring/net.c a reason in its place\n"
                     "uring-op IORING_OP_PIPE no-timeout -\n"
                     "uring-op IORING_OP_PIPE no-timeout - again\n")
        with self.assertRaises(newapi.NewApiError) as cm:
            newapi.load(path, self.d)
        msg = str(cm.exception)
        for want in ("classes:2: unknown class 'sometimes'", "classes:3: unknown kind 'syscal'",
                     "classes:4: IORING_ENTER_EXT_ARG_REG is fixed: name the patch",
                     "classes:5: IORING_OP_PIPE takes no timeout, yet names patch 0003",
                     "classes:6: no patch 0009-*.patch in",
                     "classes:7: patch 'io_uring/net.c': a patch number (0003) or -",
                     "classes:8: want <kind> <name> <class> <patch or -> <reason>",
                     "classes:9: uring-op IORING_OP_PIPE again (first at line 5)",
                     "no line `compare OLD NEW`"):
            self.assertIn(want, msg)

    def test_unclassified_and_not_new_are_named(self):
        path = write(self.d, "compare 6.12 7.3\n"
                     "syscall listns no-timeout - namespaces\n"
                     "syscall listmount no-timeout - not new\n"
                     "uring-enter IORING_ENTER_EXT_ARG_REG fixed 0003 the region's ts\n")
        compare, entries = newapi.load(path, self.d)
        self.assertEqual(compare, ("6.12", "7.3"))
        items = {("syscall", "listns"): "generic", ("syscall", "uprobe"): "x86_64",
                 ("uring-enter", "IORING_ENTER_EXT_ARG_REG"): "io_uring.h"}
        problems = newapi.check(items, entries, path, "6.12", "7.3")
        self.assertEqual(len(problems), 2, problems)
        self.assertIn("unclassified: syscall uprobe (new in 7.3: x86_64;", problems[0])
        self.assertIn("classes:3: not new: syscall listmount (7.3 adds no such syscall over "
                      "6.12)", problems[1])

    def test_the_page_is_rewritten_and_checked(self):
        path = write(self.d, "compare 6.12 7.3\nsyscall listns no-timeout - a | b\n")
        section = newapi.render(*newapi.load(path))
        self.assertIn("| syscall | `listns` | no-timeout | - | a \\| b |", section)
        page = write(self.d, f"# Page\n\n{newapi.BEGIN}\nold\n{newapi.END}\n\nafter\n", "page.md")
        self.assertIn("differs", newapi.check_doc(page, section))
        newapi.write_doc(page, section)
        self.assertIsNone(newapi.check_doc(page, section))
        with open(page) as f:
            text = f.read()
        self.assertTrue(text.startswith("# Page\n\n" + newapi.BEGIN))
        self.assertTrue(text.endswith(newapi.END + "\n\nafter\n"))
        other = newapi.render(("6.12", "7.3"), [dict(kind="syscall", name="listns",
                                                     cls="no-timeout", patch="-", reason="x")])
        self.assertRegex(newapi.check_doc(page, other), r"page.md:\d+: .* has '\| syscall")
        nomark = write(self.d, "# nothing\n", "nomark.md")
        self.assertIn("no '<!-- newapi:begin", newapi.check_doc(nomark, section))


class Committed(unittest.TestCase):
    """patches/new-interfaces and docs/audit.md, as committed."""

    def test_the_file_parses_and_names_patches_of_the_series(self):
        compare, entries = newapi.load(CLASSES, os.path.dirname(CLASSES))
        self.assertEqual(compare, ("6.12", "7.3"))
        self.assertTrue(entries)

    def test_it_classifies_every_io_uring_addition_of_the_excerpts(self):
        # The excerpts hold every io_uring name 7.3 adds (fixtures/newapi/README).
        _, entries = newapi.load(CLASSES)
        have = {(e["kind"], e["name"]) for e in entries}
        uring = {k for k in newapi.added(OLD, NEW) if k[0] != "syscall"}
        self.assertEqual(uring, {k for k in have if k[0] != "syscall"})
        self.assertLessEqual({k for k in newapi.added(OLD, NEW) if k[0] == "syscall"}, have)

    def test_the_audit_page_holds_its_table(self):
        section = newapi.render(*newapi.load(CLASSES))
        self.assertIsNone(newapi.check_doc(page(), section))


class CommandLine(unittest.TestCase):
    def run_ts(self, *args, **env):
        e = {"PATH": os.environ["PATH"], "HOME": "/home/u"}
        e.update(env)
        return subprocess.run([TS, "newapi", *args], env=e, capture_output=True, text=True)

    def test_list_and_check_on_trees(self):
        p = self.run_ts(OLD, NEW)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("syscall\tuprobe\tx86_64\n", p.stdout)
        self.assertIn("uring-reg-wait\tIORING_REG_WAIT_TS\tio_uring.h\n", p.stdout)
        with tempfile.TemporaryDirectory() as d:
            path = write(d, "compare 6.12 7.3\nsyscall uprobe no-timeout - no argument\n"
                         "syscall read no-timeout - old\n")
            p = self.run_ts(OLD, NEW, "--check", "--file", path)
            self.assertEqual(p.returncode, 1)
            self.assertIn("error: unclassified: syscall listns", p.stderr)
            self.assertIn("classes:3: not new: syscall read", p.stderr)
            self.assertNotIn("unclassified: syscall uprobe", p.stderr)

    def test_the_page_check(self):
        p = self.run_ts("6.12", "7.3", "--check-doc", page())
        self.assertEqual((p.returncode, p.stderr), (0, ""))
        p = self.run_ts("6.11", "7.3", "--check-doc", page())
        self.assertEqual(p.returncode, 1)
        self.assertIn("compares 6.12 and 7.3, not 6.11 and 7.3", p.stderr)

    def test_a_kernel_names_its_base_tree(self):
        env = {"HOME": "/home/u", "TS_WORK": "/w", "TS_BASE_SRC": "/moved"}
        self.assertEqual(cli.newapi_tree("7.3", env), "/moved")
        self.assertEqual(cli.newapi_tree("6.12", env), "/w/linux-6.12/base-src")
        env["TS_KERNEL"] = "6.12"
        self.assertEqual(cli.newapi_tree("7.3", env), "/w/linux-7.3/base-src")
        self.assertEqual(cli.newapi_tree("6.12", env), "/moved")
        self.assertEqual(cli.newapi_tree(OLD, env), OLD)
        p = self.run_ts("6.12", "7.3", TS_WORK="/nonexistent")
        self.assertEqual(p.returncode, 1)
        self.assertIn("/nonexistent/linux-6.12/base-src: no such tree", p.stderr)


if __name__ == "__main__":
    unittest.main()
