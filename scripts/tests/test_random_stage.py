"""Tests of `scripts/ts random` (tsanity.random_stage): the seed (the
user's TS_SEED, a default-valued one included, else a fresh one), the
run's seed and results directory set on the configuration of the boots
it makes in its own process, and each failure named with the seed to
replay.  The boots and the judge are stand-ins here; make random runs
the real ones."""
import contextlib
import io
import os
import sys
import tempfile
import unittest
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from tsanity import boot, cli as ts_cli, config, random_stage, report  # noqa: E402


def context(**env):
    base = {k: v for k, v in os.environ.items() if not k.startswith("TS_")}
    cfg, _, lay = ts_cli.context({**base, "TS_WORK": tempfile.gettempdir(), **env})
    return cfg, lay


class Seed(unittest.TestCase):
    def test_the_users_seed(self):
        self.assertEqual(random_stage.seed_of(context(TS_SEED="42")[0]), ("42", "from TS_SEED"))
        # Set to the default's value, it is still the user's: a replay.
        self.assertEqual(random_stage.seed_of(context(TS_SEED="1")[0]), ("1", "from TS_SEED"))

    def test_a_fresh_seed(self):
        cfg = context()[0]
        self.assertNotIn("TS_SEED", cfg.given)
        seed, how = random_stage.seed_of(cfg)
        self.assertTrue(seed.isdigit(), seed)
        self.assertEqual(how, "fresh")

    def test_a_bad_seed_is_named(self):
        with self.assertRaisesRegex(random_stage.RandomError, "TS_SEED=x1: not a number"):
            random_stage.seed_of(context(TS_SEED="x1")[0])

    def test_given_names_what_the_user_set(self):
        cfg = config.from_environ({"TS_SEED": "7", "TS_RANDOM": ""})
        self.assertEqual(cfg.given, frozenset({"TS_SEED"}))
        again = config.replaced(cfg, {"TS_SEED": "8"}, {"TS_RESULTS": "/r"})
        self.assertEqual((again["TS_SEED"], again.moved["TS_RESULTS"], cfg["TS_SEED"]),
                         ("8", "/r", "7"))


class Run(unittest.TestCase):
    def run_stage(self, boot_rc=(0, 0), report_rc=0, **env):
        cfg, lay = context(**env)
        boots, judged = [], []

        def fake_boot(req, c, layout, show_command=False):
            boots.append((req.kernel, req.suite, c["TS_SEED"], layout.results))
            return boot_rc[len(boots) - 1]

        def fake_report(argv):
            judged.append(argv)
            return report_rc
        out, err = io.StringIO(), io.StringIO()
        with mock.patch.object(boot, "main", fake_boot), \
                mock.patch.object(report, "main", fake_report), \
                contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = random_stage.main(cfg, lay)
        return rc, boots, judged, out.getvalue(), err.getvalue(), lay

    def test_both_kernels_with_the_seed_in_the_random_results(self):
        rc, boots, judged, out, err, lay = self.run_stage(TS_SEED="99", TS_RANDOM="3")
        self.assertEqual(rc, 0, err)
        results = lay.named_results("random")
        self.assertEqual(boots, [("base", "tests", "99", results),
                                 ("patched", "tests", "99", results)])
        self.assertEqual(judged, [[os.path.join(results, "tests"), "base", "patched"]])
        self.assertIn("random inputs: seed 99 (from TS_SEED), 3 per test; replay: "
                      "TS_SEED=99 TS_RANDOM=3 make random", out)
        self.assertIn("differ exactly as intended", out)

    def test_a_failed_boot_is_named_and_not_judged(self):
        rc, boots, judged, _, err, _ = self.run_stage(boot_rc=(0, 1), TS_SEED="5")
        self.assertEqual((rc, len(boots), judged), (1, 2, []))
        self.assertIn("error: a boot with seed 5 failed (see above): patched", err)

    def test_a_difference_names_the_seed_to_replay(self):
        rc, _, _, _, err, _ = self.run_stage(report_rc=1, TS_SEED="6")
        self.assertEqual(rc, 1)
        self.assertIn("error: seed 6: base and patched differ other than intended", err)
        self.assertIn("replay: TS_SEED=6", err)


if __name__ == "__main__":
    unittest.main()
