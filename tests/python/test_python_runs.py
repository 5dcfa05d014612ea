"""dplab.train / dplab.tune / dplab.load run the engine as dplab-cli does and return its Release.

train on arrays equals `dplab-cli train` on the same rows written as a CSV (same curve, same
epsilon, same privacy card but for the data set's name); tune on an experiment dict equals
`dplab-cli tune` on the same file (explore, and private LT whose progress shows the elapsed time
only: K is never exposed); load reads what both wrote. Ctrl-C (SIGINT sent from the progress
callback) stops a run cleanly with KeyboardInterrupt and the process goes on.
"""
import json
import math
import os
import signal
import subprocess
import tempfile
import unittest

import numpy as np

import dplab

CLI = os.environ["DPLAB_CLI"]

SETTINGS = dict(model="logistic", optimizer="dpsgd", lr=0.5, clip=1.0, noise_multiplier=1.0,
                lot_size=40, steps=60, eval_every=20, seed=3, feature_range=(0, 1))


def cli(*args):
    done = subprocess.run([CLI, *map(str, args)], capture_output=True, text=True)
    if done.returncode != 0:
        raise AssertionError(f"dplab-cli {' '.join(map(str, args))}: {done.stderr}")
    return done.stdout


def tiny_data(rows=400, features=4, seed=1):
    rng = np.random.default_rng(seed)
    x = rng.random((rows, features))
    y = (x @ np.array([1.0, -1.0, 0.5, 0.0]) + 0.1 * rng.normal(size=rows) > 0.25).astype(int)
    return x, y


TINY_EXPERIMENT = {
    "name": "tiny",
    "dataset": {"source": "synthetic-binary", "num_samples": 600, "dim": 5},
    "model": {"kind": "logistic"},
    "privacy": {"noise_multiplier": 1.0, "lot_size": 50, "steps": 30},
    "optimizers": [{"name": "dpsgd", "grid": {"learning_rate": [0.1, 0.5], "clip": [0.5, 1]}}],
    "repeats": 1,
    "eval_every": 10,
    "seed": 42,
}


def without_version(manifest):
    return {k: v for k, v in manifest.items() if k != "dplab_version"}


class Train(unittest.TestCase):
    def test_train_equals_cli_on_the_same_rows(self):
        x, y = tiny_data()
        points = []
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "py")
            release = dplab.train(x, y, progress=points.append, out=out, **SETTINGS)
            path = os.path.join(tmp, "rows.csv")
            with open(path, "w") as f:
                f.write("a,b,c,d,label\n")
                for row, label in zip(x, y):
                    f.write(",".join(repr(float(v)) for v in row) + f",{label}\n")
            flags = []
            for key, value in SETTINGS.items():
                text = "0:1" if key == "feature_range" else str(value)
                flags += ["--" + key.replace("_", "-"), text]
            cli("train", "--dataset", path, "--out", os.path.join(tmp, "cli"), *flags)
            from_cli = dplab.load(os.path.join(tmp, "cli"))
            from_py = dplab.load(out)
            cli_predictions = from_cli.model.predict_file(path)

        # The trained model: in memory, written by out=, and the CLI's (its CSV through the
        # stored encoding) predict the same probabilities; the arrays are model.npz's.
        self.assertIsNotNone(release.model)
        p = release.model.predict(x)
        self.assertEqual(p.shape, (len(x), 2))
        np.testing.assert_allclose(p.sum(axis=1), 1.0, rtol=1e-6)
        np.testing.assert_array_equal(p, from_py.model.predict(x))
        np.testing.assert_allclose(p, cli_predictions, rtol=0, atol=1e-6)
        self.assertEqual(sorted(release.model.arrays), ["dense.bias", "dense.weight"])
        self.assertEqual(release.model.arrays["dense.weight"].shape, (4, 1))
        self.assertEqual(release.model.json["model"]["output"], "sigmoid")

        # The curve: numpy arrays, one value per point, the same as the CLI's to the last bit.
        curve = release.curve
        self.assertEqual(curve["iteration"].tolist(), [20, 40, 60])
        for column in ("val_loss", "val_accuracy", "epsilon_per_run", "train_loss", "epsilon_label"):
            np.testing.assert_array_equal(curve[column], from_cli.curve[column], err_msg=column)
        self.assertEqual([p["iteration"] for p in points], [20, 40, 60])
        self.assertEqual(points[-1]["epsilon"], curve["epsilon_per_run"][-1])
        # The privacy card, from the release layer: the CLI's but for the data set's name.
        self.assertEqual(release.mode, "train")
        self.assertTrue(math.isclose(release.epsilon, from_cli.epsilon, rel_tol=1e-12))
        self.assertEqual(release.privacy["accountant"], "rdp")
        self.assertFalse(release.privacy["preprocessing"]["fitted_on_private_data"])
        card, cli_card = dict(release.privacy), dict(from_cli.privacy)
        for key in ("epsilon_label",):
            self.assertEqual(card.pop(key), cli_card.pop(key))
        self.assertEqual(card, cli_card)
        self.assertEqual(release.released, from_cli.released)
        # out= wrote the same release that load() reads back, and summary.json's run.
        self.assertEqual(without_version(from_py.manifest), without_version(release.manifest))
        self.assertEqual(release.summary["status"], "finished")
        self.assertEqual(release.summary["privacy"]["noise_gradient_queries"], 60)
        frame = release.curve_frame()
        self.assertEqual(list(frame["iteration"]), [20, 40, 60])

    def test_arrays_without_public_bounds_are_labelled(self):
        x, y = tiny_data()
        settings = dict(SETTINGS)
        del settings["feature_range"]
        release = dplab.train(10 * x, y, **settings)
        self.assertTrue(release.privacy["preprocessing"]["fitted_on_private_data"])
        self.assertIn("preprocessing", [n["field"] for n in release.not_covered])

    def test_ctrl_c_cancels_and_the_process_survives(self):
        x, y = tiny_data()
        seen = []

        def interrupt(point):
            seen.append(point["iteration"])
            os.kill(os.getpid(), signal.SIGINT)

        settings = dict(SETTINGS, steps=100000, eval_every=10)
        with self.assertRaises(KeyboardInterrupt):
            dplab.train(x, y, progress=interrupt, **settings)
        self.assertEqual(seen[:1], [10])
        self.assertLess(len(seen), 50)  # stopped within a few points, not after 100000 steps
        # Still alive and working.
        self.assertEqual(dplab.train(x, y, **SETTINGS).curve["iteration"].tolist(), [20, 40, 60])

    def test_bad_input_names_the_field(self):
        x, y = tiny_data()
        cases = [
            (dict(SETTINGS, steps=0), "steps = 0 must be in [1,"),
            (dict(SETTINGS, lot_size=5000), "lot_size = 5000 exceeds the training set size"),
            (dict(SETTINGS, optimizer="dpsgd", momentum=0.5), "momentum = 0.5 is not a hyperparameter"),
            (dict(SETTINGS, dataset="adult"), "dataset is a setting of a data file"),
            (dict(SETTINGS, epochs=3), "epochs is not used by dplab.train"),
            (dict(SETTINGS, secure=True), "secure draws every seed from the operating system"),
        ]
        for settings, message in cases:
            with self.subTest(message=message):
                with self.assertRaises(dplab.Error) as caught:
                    dplab.train(x, y, **settings)
                self.assertIn(message, str(caught.exception))
        with self.assertRaisesRegex(dplab.Error, r"y\[0\] = 2.5 must be a class index"):
            dplab.train(x, np.full(len(y), 2.5), **SETTINGS)
        with self.assertRaisesRegex(dplab.Error, "y: 3 targets for 400 rows of X"):
            dplab.train(x, y[:3], **SETTINGS)
        with self.assertRaisesRegex(dplab.Error, "X: expected a 2-D array"):
            dplab.train(x[:, 0], y, **SETTINGS)


class Tune(unittest.TestCase):
    def run_both(self, experiment, tmp):
        path = os.path.join(tmp, "tiny.json")
        with open(path, "w") as f:
            json.dump(experiment, f)
        cli("tune", "--config", path, "--out", os.path.join(tmp, "cli"), "--threads", "2")
        return dplab.load(os.path.join(tmp, "cli"))

    def test_explore_equals_cli(self):
        with tempfile.TemporaryDirectory() as tmp:
            from_cli = self.run_both(TINY_EXPERIMENT, tmp)
            seen = []
            release = dplab.tune(TINY_EXPERIMENT, threads=2, progress=seen.append)
        self.assertEqual(release.mode, "explore")
        self.assertEqual(without_version(release.manifest), without_version(from_cli.manifest))
        self.assertEqual(sorted(release.tables), sorted(from_cli.tables))
        for column, values in from_cli.tables["curves.csv"].items():
            np.testing.assert_array_equal(release.tables["curves.csv"][column], values,
                                          err_msg=column)
        self.assertEqual(release.curve_frame().shape[0], len(release.curve["iteration"]))

    def test_private_lt_hides_the_number_of_runs(self):
        experiment = dict(TINY_EXPERIMENT, name="tiny-lt",
                          release={"mode": "private", "selection": "lt"},
                          tuning={"strategy": "lt", "gamma": 0.5})
        with tempfile.TemporaryDirectory() as tmp:
            from_cli = self.run_both(experiment, tmp)
            seen = []

            def progress(p):
                seen.append(p)

            release = dplab.tune(experiment, threads=2, progress=progress)
            on_disk = os.listdir(os.path.join(tmp, "cli"))
        self.assertEqual(without_version(release.manifest), without_version(from_cli.manifest))
        for p in seen:  # elapsed time only: every count, rate or ETA reveals K
            self.assertEqual(sorted(p), ["elapsed_seconds"])
        self.assertIn("curator-only.json", on_disk)  # the CLI's, which the module never reads
        text = json.dumps(release.manifest)
        for word in ("runs_trained", "jobs_total", "wall_seconds", "hit_hard_stop"):
            self.assertNotIn(word, text)
        self.assertNotIn("curator", dir(release))

    def test_tune_on_arrays_equals_cli_on_the_same_rows(self):
        # X, y in memory in place of the experiment's data set: the same search, winner, card and
        # model as `dplab-cli tune` on the same rows written as a CSV with the same public bounds.
        x, y = tiny_data(rows=500)
        experiment = dict(TINY_EXPERIMENT, name="arrays-lt",
                          release={"mode": "private", "selection": "lt", "secure": False},
                          tuning={"strategy": "lt", "gamma": 0.5})
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "rows.csv")
            with open(path, "w") as f:
                f.write("a,b,c,d,label\n")
                for row, label in zip(x, y):
                    f.write(",".join(repr(float(v)) for v in row) + f",{label}\n")
            on_file = dict(experiment, dataset={"source": path, "feature_range": [0, 1]})
            from_cli = self.run_both(on_file, tmp)
            cli_predictions = from_cli.model.predict_file(path)
            in_memory = dict(experiment, dataset={"source": "arrays", "feature_range": [0, 1]})
            release = dplab.tune(in_memory, x, y, threads=2)
        self.assertEqual(release.mode, "private lt")
        self.assertIsNotNone(release.model)
        self.assertEqual(release.manifest["released"], from_cli.manifest["released"])
        self.assertTrue(math.isclose(release.epsilon, from_cli.epsilon, rel_tol=1e-12))
        np.testing.assert_allclose(release.model.predict(x), cli_predictions, rtol=0, atol=1e-6)
        self.assertTrue(any("X and y given in memory" in note for note in release.notes))
        with self.assertRaisesRegex(dplab.Error, "X given without y"):
            dplab.tune(in_memory, x)

    def test_tune_errors(self):
        with self.assertRaisesRegex(dplab.Error, "privacy"):
            dplab.tune(dict(TINY_EXPERIMENT, privacy={"noise_multiplier": -1, "lot_size": 50,
                                                       "steps": 30}))
        with self.assertRaises(dplab.Error):
            dplab.tune("/nonexistent/experiment.json")
        with self.assertRaisesRegex(dplab.Error, "release.json"):
            dplab.load(tempfile.gettempdir())


if __name__ == "__main__":
    unittest.main()
