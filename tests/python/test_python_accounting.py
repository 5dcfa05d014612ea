"""dplab.account / calibrate / selection_epsilon / audit_bound give the CLI's numbers.

Each case runs the built dplab-cli ($DPLAB_CLI) and the module on the same settings and compares
every key of the answer (numbers to 1e-12 relative, text exactly); the module's epsilons are also
held against the trusted references of tests/data/accounting.json (Opacus RDP, Google
dp_accounting), so a drifting accountant fails here whichever door it drifted in. Errors are
dplab.Error (a ValueError) naming the keyword.
"""
import csv
import io
import json
import math
import os
import subprocess
import tempfile
import unittest

import numpy as np

import dplab

CLI = os.environ["DPLAB_CLI"]
SOURCE = os.environ["DPLAB_SOURCE_DIR"]
TOLERANCE = 1e-12


def cli(*args):
    done = subprocess.run([CLI, *map(str, args)], capture_output=True, text=True)
    if done.returncode != 0:
        raise AssertionError(f"dplab-cli {' '.join(map(str, args))}: {done.stderr}")
    return done.stdout


def flags(**settings):
    """The flags of keyword arguments: noise_multiplier=1.1 -> --noise-multiplier 1.1."""
    out = []
    for key, value in settings.items():
        flag = "--" + key.replace("_", "-")
        if value is True:
            out.append(flag)
        else:
            out += [flag, repr(value) if isinstance(value, float) else str(value)]
    return out


def assert_same(test, module_value, cli_value, where="answer"):
    if isinstance(cli_value, dict):
        test.assertIsInstance(module_value, dict, where)
        test.assertEqual(sorted(module_value), sorted(cli_value), where)
        for key in cli_value:
            assert_same(test, module_value[key], cli_value[key], f"{where}.{key}")
    elif isinstance(cli_value, list):
        test.assertEqual(len(module_value), len(cli_value), where)
        for i, (a, b) in enumerate(zip(module_value, cli_value)):
            assert_same(test, a, b, f"{where}[{i}]")
    elif isinstance(cli_value, float) or isinstance(module_value, float):
        test.assertTrue(math.isclose(module_value, cli_value, rel_tol=TOLERANCE, abs_tol=0),
                        f"{where}: module {module_value!r} != cli {cli_value!r}")
    else:
        test.assertEqual(module_value, cli_value, where)


RUN = dict(noise_multiplier=1.1, sampling_rate=0.01, steps=1000, delta=1e-5)

ACCOUNT_CASES = [
    dict(RUN),
    dict(RUN, accountant="pld", pld_precision="fast"),
    dict(RUN, candidates=10),
    dict(RUN, candidates=10, selection="lt"),
    dict(RUN, candidates=10, selection="lt", accountant="pld", pld_precision="fast"),
    dict(RUN, candidates=8, selection="lt", lt_integer_hard_stop=True, gamma=0.2, delta2=1e-12),
    dict(RUN, candidates=8, selection="lt", lt_log_base="2", conversion="classic"),
    dict(RUN, selection="ps", ps_distribution="poisson", ps_mu=10.0),
    dict(RUN, selection="ps", ps_distribution="tnb", ps_eta=1.0, ps_gamma=0.1),
    dict(RUN, selection="ps", ps_distribution="poisson", ps_mu=5.0, tuning_fraction=0.2,
         final_data="complement", subset_batching="same_lot_size"),
]


class AccountingEqualsCli(unittest.TestCase):
    def test_account_equals_cli(self):
        for settings in ACCOUNT_CASES:
            with self.subTest(**{k: str(v) for k, v in settings.items()}):
                expected = json.loads(cli("account", *flags(**settings)))
                assert_same(self, dplab.account(**settings), expected)

    def test_selection_epsilon_equals_cli(self):
        for settings in ACCOUNT_CASES[1:]:
            settings = dict(settings)
            settings.setdefault("selection", "ma")
            expected = json.loads(cli("account", *flags(**settings)))["epsilon"]
            with self.subTest(selection=settings["selection"]):
                got = dplab.selection_epsilon(**settings)
                self.assertIsInstance(got, float)
                self.assertTrue(math.isclose(got, expected, rel_tol=TOLERANCE))
        # A keyword given as an array is swept: one epsilon per value, each the CLI's.
        ks = np.array([2, 5, 17])
        got = dplab.selection_epsilon(selection="lt", candidates=ks, **RUN)
        self.assertEqual(got.shape, (3,))
        for k, eps in zip(ks, got):
            expected = json.loads(cli("account", *flags(candidates=int(k), selection="lt", **RUN)))
            self.assertTrue(math.isclose(eps, expected["epsilon"], rel_tol=TOLERANCE))

    def test_sweeps_equal_cli_csv(self):
        table = dplab.account(sweep_candidates=(1, 6), **RUN)
        rows = list(csv.DictReader(io.StringIO(cli("account", "--sweep-candidates", "1:6",
                                                   *flags(**RUN)))))
        self.assertEqual(list(table), ["K", "eps_ma", "eps_lt"])
        self.assertEqual(table["K"].tolist(), [int(r["K"]) for r in rows])
        for column in ("eps_ma", "eps_lt"):
            np.testing.assert_allclose(table[column], [float(r[column]) for r in rows],
                                       rtol=TOLERANCE, atol=0)
        ps = dict(RUN, selection="ps", ps_distribution="poisson", ps_mu=5.0)
        table = dplab.account(sweep_tuning_fraction=True, **ps)
        text = cli("account", "--sweep-tuning-fraction", *flags(**ps))
        rows = list(csv.DictReader(io.StringIO(text.split("\n", 1)[1])))  # after the note line
        self.assertEqual(list(table), list(rows[0]))
        for column in rows[0]:
            np.testing.assert_allclose(table[column], [float(r[column]) for r in rows],
                                       rtol=TOLERANCE, atol=0, err_msg=column)

    def test_calibrate_equals_cli(self):
        for settings in (dict(epsilon=2.0, delta=1e-5, sampling_rate=0.01, steps=1000),
                         dict(epsilon=2.0, delta=1e-5, sampling_rate=0.01, steps=1000,
                              conversion="classic"),
                         dict(epsilon=1.0, delta=1e-5, sampling_rate=0.02, steps=300,
                              accountant="pld", pld_precision="fast")):
            with self.subTest(**{k: str(v) for k, v in settings.items()}):
                expected = json.loads(cli("calibrate", *flags(**settings)))
                assert_same(self, dplab.calibrate(**settings), expected)


class AccountingAgainstReferences(unittest.TestCase):
    """tests/data/accounting.json: values of trusted accountants (Opacus, dp_accounting)."""

    @classmethod
    def setUpClass(cls):
        with open(os.path.join(SOURCE, "tests", "data", "accounting.json")) as f:
            cls.cases = json.load(f)["cases"]

    def test_references(self):
        checked = 0
        for c in self.cases:
            run = dict(noise_multiplier=c.get("noise_multiplier"), sampling_rate=c.get("sample_rate"),
                       delta=c.get("delta"))
            with self.subTest(case=c["id"]):
                if c["kind"] == "single_run":
                    eps = dplab.selection_epsilon(selection="none", steps=c["steps"], **run)
                elif c["kind"] == "k_fold_ma":
                    eps = dplab.selection_epsilon(selection="ma", candidates=c["candidates"],
                                                  steps=c["steps_per_candidate"], **run)
                elif c["kind"] == "liu_talwar":
                    answer = dplab.account(selection="lt", gamma=c["gamma"], delta2=c["delta2"],
                                           candidates=1, steps=c["steps"], **run)
                    self.assertTrue(math.isclose(answer["upsilon"], c["Upsilon"], rel_tol=1e-9))
                    self.assertTrue(math.isclose(answer["delta_per_run"], c["delta_per_run"],
                                                 rel_tol=1e-9))
                    self.assertLessEqual(answer["epsilon"], c["epsilon"] * (1 + 1e-4))
                    checked += 1
                    continue
                elif c["kind"] == "papernot_steinke_poisson":
                    eps = dplab.selection_epsilon(selection="ps", ps_distribution="poisson",
                                                  ps_mu=c["mu"], steps=c["steps"], **run)
                    self.assertLessEqual(eps, c["dp_accounting_epsilon"] * (1 + 1e-4))
                    self.assertGreaterEqual(eps, c["single_run_rdp_epsilon"] * (1 - 1e-9))
                    checked += 1
                    continue
                else:
                    continue
                self.assertLessEqual(eps, c["rdp_epsilon"] * (1 + 1e-4))
                if "pld_epsilon" in c:  # no valid bound is below the tight PLD value
                    self.assertGreaterEqual(eps, c["pld_epsilon"] * (1 - 1e-3))
                checked += 1
        self.assertGreaterEqual(checked, 10)


class AuditBoundEqualsCli(unittest.TestCase):
    def test_audit_csv_rows(self):
        with tempfile.TemporaryDirectory() as out:
            cli("audit", "--dataset", "synthetic-binary", "--steps", "40", "--lot-size", "100",
                "--eval-every", "20", "--canaries", "200", "--mode", "blackbox", "--out", out)
            with open(os.path.join(out, "audit.csv")) as f:
                rows = list(csv.DictReader(f))
        self.assertGreaterEqual(len(rows), 2)
        for row in rows:
            with self.subTest(run=row["run"], score=row["score"]):
                got = dplab.audit_bound(canaries=int(row["canaries"]), guesses=int(row["guesses"]),
                                        correct=int(row["correct"]), delta=float(row["delta"]),
                                        confidence=float(row["confidence"]),
                                        guess_sets=int(row["guess_sets"]))
                for key in ("epsilon_lower_bound", "pure_epsilon_lower_bound"):
                    self.assertTrue(math.isclose(got[key], float(row[key]), rel_tol=TOLERANCE,
                                                 abs_tol=0), key)
                # The f-DP bound of the row's own best set (the same sets and split).
                fdp = dplab.audit_bound(canaries=int(row["canaries"]),
                                        guesses=int(row["fdp_guesses"]),
                                        correct=int(row["fdp_correct"]), delta=float(row["delta"]),
                                        confidence=float(row["confidence"]),
                                        guess_sets=int(row["guess_sets"]))
                self.assertTrue(math.isclose(fdp["fdp_epsilon_lower_bound"],
                                             float(row["fdp_epsilon_lower_bound"]),
                                             rel_tol=TOLERANCE, abs_tol=0))

    def test_scores_choose_the_best_pre_declared_set(self):
        rng = np.random.default_rng(7)
        included = rng.random(400) < 0.5
        scores = rng.normal(size=400) + 1.5 * included  # an attack that sees the canaries
        best = dplab.audit_bound(scores=scores, included=included, delta=1e-5, confidence=0.95)
        self.assertGreater(best["epsilon_lower_bound"], 0.5)
        # Its counts, as the chosen one of the pre-declared sets, give the same bound.
        again = dplab.audit_bound(canaries=best["canaries"], guesses=best["guesses"],
                                  correct=best["correct"], delta=1e-5, confidence=0.95,
                                  guess_sets=best["guess_sets"])
        self.assertEqual(again["epsilon_lower_bound"], best["epsilon_lower_bound"])
        self.assertLessEqual(best["epsilon_lower_bound"], best["ceiling"])
        self.assertLessEqual(best["fdp_epsilon_lower_bound"], best["fdp_ceiling"])
        self.assertIsNone(dplab.audit_bound(canaries=100, guesses=10, correct=10)["fdp_ceiling"])


class Errors(unittest.TestCase):
    def test_errors_name_the_keyword(self):
        cases = [
            (dict(RUN, noise_multiplier=-1.0), "noise_multiplier = -1 must be > 0"),
            (dict(RUN, sampling_rate=2.0), "sampling_rate"),
            (dict(RUN, steps="many"), "steps: expected a finite number, got 'many'"),
            (dict(RUN, steps=2.5), "steps: expected an integer, got '2.5'"),
            (dict(RUN, gamma=0.5), "gamma needs selection lt"),
            (dict(RUN, selection="ps"), "missing required argument ps_distribution"),
            (dict(RUN, accountant="exact"), "accountant must be 'rdp' or 'pld'"),
            (dict(RUN, candidates=0), "candidates = 0 must be an integer in [1, 1000000]"),
            (dict(RUN, sample_size=3), "sample_size is not used by account"),
        ]
        for settings, message in cases:
            with self.subTest(message=message):
                with self.assertRaises(dplab.Error) as caught:
                    dplab.account(**settings)
                self.assertIn(message, str(caught.exception))
                self.assertIsInstance(caught.exception, ValueError)
        with self.assertRaisesRegex(dplab.Error, "epsilon = 0 must be > 0"):
            dplab.calibrate(epsilon=0.0, delta=1e-5, sampling_rate=0.01, steps=10)
        with self.assertRaisesRegex(dplab.Error, "confidence"):
            dplab.audit_bound(canaries=10, guesses=5, correct=5, confidence=1.5)
        with self.assertRaisesRegex(TypeError, "noise_multiplier"):
            dplab.account(**dict(RUN, noise_multiplier={"a": 1}))


if __name__ == "__main__":
    unittest.main()
