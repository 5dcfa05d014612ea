#!/usr/bin/python3
"""Checks a dplab model folder as a user without dplab would use it.

    check_model_files.py MODEL_DIR [DATA.csv PREDICTIONS.csv]

- model.json validates against docs/schema/model.schema.json (draft 2020-12);
- model.npz loads with numpy.load; every array is float32 and every layer of model.json names
  arrays of the documented shapes; nothing in model.npz is unused;
- with DATA.csv and PREDICTIONS.csv (dplab-cli predict's output for DATA.csv): the numpy
  re-implementation (model_reference.py) of the encoding and the forward pass gives the same
  probabilities / values to 1e-5, and the same predicted class wherever the top two
  probabilities differ by more than 1e-5.

Prints a JSON summary on success; each problem on a line and exit 1.
"""
import json
import pathlib
import sys

import jsonschema
import numpy as np
import pandas

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import model_reference as ref  # noqa: E402


SCHEMA = pathlib.Path(__file__).resolve().parents[2] / "docs" / "schema" / "model.schema.json"


def shapes_problems(model):
    problems = []
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    for error in jsonschema.Draft202012Validator(schema).iter_errors(model.meta):
        where = "/".join(str(p) for p in error.absolute_path) or "(top)"
        problems.append(f"model.json: {where}: {error.message}")
    used = set()
    for i, layer in enumerate(model.meta["layers"]):
        for role in ("weight", "bias"):
            if role in layer:
                name = layer[role]
                used.add(name)
                if name not in model.arrays:
                    problems.append(f"layers[{i}].{role}: no array '{name}' in model.npz")
                elif model.arrays[name].dtype != np.float32:
                    problems.append(f"{name}: dtype {model.arrays[name].dtype}, not float32")
    for name in set(model.arrays) - used:
        problems.append(f"model.npz: array '{name}' is used by no layer")
    return problems


def main(argv):
    model = ref.load(argv[1])
    problems = shapes_problems(model)
    summary = {"arrays": len(model.arrays), "layers": len(model.meta["layers"])}
    if len(argv) == 4 and not problems:
        x = ref.encode_csv(model, argv[2])
        expected = ref.forward(model, x)
        preds = pandas.read_csv(argv[3])
        value_columns = [c for c in preds.columns if c.startswith("p_") or c.startswith("output_")]
        if not value_columns:
            value_columns = ["predicted"]
        got = preds[value_columns].to_numpy(dtype=np.float64)
        if got.shape != expected.shape:
            problems.append(f"predictions shape {got.shape}, numpy {expected.shape}")
        else:
            worst = float(np.max(np.abs(got - expected))) if got.size else 0.0
            summary["max_abs_difference"] = worst
            if worst > 1e-5:
                problems.append(f"predictions differ from numpy by {worst} (> 1e-5)")
            if value_columns[0].startswith("p_"):
                labels = [c[2:] for c in value_columns]
                top = np.sort(expected, axis=1)
                clear = (top[:, -1] - top[:, -2]) > 1e-5
                numpy_label = np.array(labels)[expected.argmax(axis=1)]
                dplab_label = preds["predicted"].astype(str).to_numpy()
                wrong = int(np.sum((numpy_label != dplab_label) & clear))
                if wrong:
                    problems.append(f"{wrong} rows predict another class than numpy")
        summary["rows"] = int(len(preds))
    for p in problems:
        print(p)
    if problems:
        return 1
    print(json.dumps(summary, sort_keys=True))
    return 0


if __name__ == "__main__":
    if len(sys.argv) not in (2, 4):
        sys.exit(__doc__)
    sys.exit(main(sys.argv))
