#!/usr/bin/python3
"""Opens a dplab release folder the way its users do, and says what breaks.

    check_release_files.py FOLDER SCHEMA

- release.json must validate against SCHEMA (docs/schema/release.schema.json, draft 2020-12);
- every CSV it lists, and every other *.csv in FOLDER, must read with pandas.read_csv(path) and
  no other argument, with csv.DictReader giving the same header and row count; the header is
  line 1 (no '#' line), it ends with epsilon_label, and every column dplab writes as a number
  reads as a number (a stray comment or text cell would turn it into 'object');
- every model folder it lists (model.npz + model.json + model.onnx) loads with numpy alone and
  its layers name arrays of model.npz (check_model_files.py), and is listed with all three files
  (model.onnx itself is checked by check_onnx_files.py, which needs python3-onnx).

Prints a JSON summary ({file: rows}) on success; each problem on a line of its own and exit 1.
Run by tests/cli/test_release_doors.cpp with Debian's /usr/bin/python3 (python3-pandas,
python3-jsonschema from scripts/install-deps.sh).
"""
import csv
import json
import pathlib
import sys

import jsonschema
import pandas

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import check_model_files  # noqa: E402

NUMERIC = {
    "repeat", "learning_rate", "clip", "momentum", "beta1", "beta2", "adam_epsilon", "seed",
    "iteration", "train_loss", "val_loss", "val_accuracy", "epsilon_per_run", "step_size",
    "clip_threshold", "val_mse", "best", "median", "best_candidate", "final_train_loss",
    "final_accuracy", "times_best", "replicate", "candidate",
}


def main(folder: pathlib.Path, schema_path: pathlib.Path) -> int:
    problems = []
    release = json.loads((folder / "release.json").read_text(encoding="utf-8"))
    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    for error in jsonschema.Draft202012Validator(schema).iter_errors(release):
        where = "/".join(str(p) for p in error.absolute_path) or "(top)"
        problems.append(f"release.json: {where}: {error.message}")
    listed_all = set(release.get("files", []))
    listed = {name for name in listed_all if name.endswith(".csv")}
    for name in sorted(listed_all - listed):
        if not (folder / name).exists():
            problems.append(f"{name}: listed in release.json but not written")
        elif name.endswith("model.json"):
            for sibling in ("npz", "onnx"):
                if name[: -len("json")] + sibling not in listed_all:
                    problems.append(f"{name}: listed without its model.{sibling}")
            model = check_model_files.ref.load((folder / name).parent)
            problems += [f"{name}: {p}" for p in check_model_files.shapes_problems(model)]
    on_disk = {p.name for p in folder.glob("*.csv")}
    for missing in sorted(listed - on_disk):
        problems.append(f"{missing}: listed in release.json but not written")
    rows = {}
    for name in sorted(listed | on_disk):
        path = folder / name
        if not path.exists():
            continue
        try:
            frame = pandas.read_csv(path)
        except Exception as e:  # pandas' parser errors have no common base class
            problems.append(f"{name}: pandas.read_csv: {e}")
            continue
        with open(path, newline="", encoding="utf-8") as f:
            reader = csv.DictReader(f)
            records = list(reader)
            header = reader.fieldnames or []
        if list(frame.columns) != header:
            problems.append(f"{name}: pandas header {list(frame.columns)} != csv header {header}")
        if len(records) != len(frame):
            problems.append(f"{name}: pandas read {len(frame)} rows, csv.DictReader {len(records)}")
        if header and header[0].startswith("#"):
            problems.append(f"{name}: line 1 is a comment, not the header")
        if name in listed and (not header or header[-1] != "epsilon_label"):
            problems.append(f"{name}: the last column is not epsilon_label: {header}")
        for column in header:
            if column in NUMERIC and len(frame) and frame[column].dtype.kind not in "iuf":
                problems.append(f"{name}: column {column} reads as {frame[column].dtype}")
        rows[name] = len(frame)
    for p in problems:
        print(p)
    if problems:
        return 1
    print(json.dumps(rows, sort_keys=True))
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])))
