#!/usr/bin/python3
"""A dplab model folder (model.json + model.npz) evaluated with numpy alone, from the formulas
model.json documents (engine/models/model_graph.h): an independent re-implementation of dplab's
forward pass, its input encoding and its output head, for the tests that compare it with
`dplab-cli predict` (and with the ONNX file).

    import model_reference as ref
    model = ref.load(folder)
    x = ref.encode_csv(model, "new.csv")        # rows -> features, as dplab's encoding
    p = ref.forward(model, x)                   # probabilities / values, one row per input row
"""
import csv
import json
import pathlib

import numpy as np


class Model:
    def __init__(self, meta, arrays):
        self.meta = meta
        self.arrays = arrays


def load(folder) -> Model:
    folder = pathlib.Path(folder)
    if not (folder / "model.json").exists() and (folder / "model" / "model.json").exists():
        folder = folder / "model"
    meta = json.loads((folder / "model.json").read_text(encoding="utf-8"))
    with np.load(folder / "model.npz") as npz:
        arrays = {name: npz[name] for name in npz.files}
    return Model(meta, arrays)


def _scale(model: Model, x: np.ndarray) -> np.ndarray:
    inp = model.meta["input"]
    scaling = inp.get("scaling") or inp.get("fitted_scaling") or {"kind": "none"}
    kind = scaling["kind"]
    if kind == "min-max":
        low = np.asarray(scaling["low"], dtype=np.float32)
        width = np.asarray(scaling["range"], dtype=np.float32)
        safe = np.where(width > 0, width, np.float32(1))
        return np.where(width > 0, (x.astype(np.float32) - low) / safe, np.float32(0))
    if kind == "public bounds":
        low = np.asarray(scaling["low"], dtype=np.float64)
        high = np.asarray(scaling["high"], dtype=np.float64)
        scaled = (np.clip(x, low, high) - low) / np.where(high > low, high - low, 1.0)
        return np.where(high > low, scaled, x).astype(np.float32)
    return x.astype(np.float32)


def encode_csv(model: Model, path) -> np.ndarray:
    """The rows of a CSV as the model's features: numeric columns as numbers, one-hot columns
    as indicators of model.json's levels (an unseen level: all zeros), then the scaling. A cell
    equal to one of missing_markers follows missing_policy: "drop" leaves the row out,
    "impute-mean" takes the column's "impute" value (its mean, or its level), "fail" (and files
    without a policy) raises."""
    enc = model.meta["input"]["encoding"]
    markers = set(enc.get("missing_markers", []))
    policy = enc.get("missing_policy", "fail")
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter=enc["delimiter"], skipinitialspace=True))
    features = []
    for row in rows:
        values = []
        cells = {c["name"]: row[c["name"]].strip() for c in enc["columns"]}
        if any(cell in markers for cell in cells.values()):
            if policy == "drop":
                continue
            if policy != "impute-mean":
                raise ValueError(f"{path}: a missing value under missing_policy {policy}")
        for column in enc["columns"]:
            cell = cells[column["name"]]
            if cell in markers:
                cell = str(column["impute"])
            if column["encoding"] == "numeric":
                values.append(float(cell))
            else:
                values.extend(1.0 if cell == level else 0.0 for level in column["levels"])
        features.append(values)
    x = np.asarray(features, dtype=np.float32)
    assert x.shape[1] == len(enc["features"]), "feature count"
    return _scale(model, x)


def _conv(x, w, b, stride, padding):
    # x: n h w c (HWC rows), w: [k, k, c_in, c_out] (HWIO)
    n, h, wd, c = x.shape
    k = w.shape[0]
    xp = np.pad(x, ((0, 0), (padding, padding), (padding, padding), (0, 0)))
    oh = (h + 2 * padding - k) // stride + 1
    ow = (wd + 2 * padding - k) // stride + 1
    out = np.zeros((n, oh, ow, w.shape[3]), dtype=np.float64)
    for ky in range(k):
        for kx in range(k):
            window = xp[:, ky:ky + stride * oh:stride, kx:kx + stride * ow:stride, :]
            out += np.tensordot(window, w[ky, kx], axes=([3], [0]))
    return out + b


def _conv_transpose(x, w, b, stride, padding):
    # x: n h w c_in, w: [c_in, k, k, c_out]; out = (h - 1) s - 2p + k
    n, h, wd, _ = x.shape
    k = w.shape[1]
    full_h, full_w = (h - 1) * stride + k, (wd - 1) * stride + k
    full = np.zeros((n, full_h, full_w, w.shape[3]), dtype=np.float64)
    for ky in range(k):
        for kx in range(k):
            contribution = np.tensordot(x, w[:, ky, kx, :], axes=([3], [0]))
            full[:, ky:ky + stride * h:stride, kx:kx + stride * wd:stride, :] += contribution
    out = full[:, padding:full_h - padding, padding:full_w - padding, :]
    return out + b


def _pool(x, kernel, stride, use_max):
    n, h, wd, c = x.shape
    oh, ow = (h - kernel) // stride + 1, (wd - kernel) // stride + 1
    windows = [x[:, ky:ky + stride * oh:stride, kx:kx + stride * ow:stride, :]
               for ky in range(kernel) for kx in range(kernel)]
    stacked = np.stack(windows)
    return stacked.max(axis=0) if use_max else stacked.mean(axis=0)


def forward(model: Model, x: np.ndarray) -> np.ndarray:
    """Outputs for rows of x (n x input size, HWC): class probabilities (a sigmoid head gives
    p(0), p(1)) or the identity outputs, in float64."""
    meta, arrays = model.meta, model.arrays
    h, w, c = meta["model"]["input_shape"]
    a = np.asarray(x, dtype=np.float64).reshape(-1, h, w, c)
    for layer in meta["layers"]:
        op = layer["op"]
        weight = arrays[layer["weight"]].astype(np.float64) if "weight" in layer else None
        bias = arrays[layer["bias"]].astype(np.float64) if "bias" in layer else None
        if op == "dense":
            a = a.reshape(a.shape[0], -1) @ weight + bias
            a = a.reshape(-1, 1, 1, a.shape[1])
        elif op == "conv":
            a = _conv(a, weight, bias, layer["stride"], layer["padding"])
        elif op == "conv_transpose":
            a = _conv_transpose(a, weight, bias, layer["stride"], layer["padding"])
        elif op in ("max_pool", "avg_pool"):
            a = _pool(a, layer["kernel"], layer["stride"], op == "max_pool")
        elif op == "relu":
            a = np.maximum(a, 0)
        elif op == "leaky_relu":
            a = np.where(a > 0, a, layer["slope"] * a)
        elif op == "sigmoid":
            a = 1 / (1 + np.exp(-a))
        elif op == "tanh":
            a = np.tanh(a)
        else:
            raise ValueError(f"unknown op {op}")
        assert list(a.shape[1:]) == layer["output"], (op, a.shape, layer["output"])
    z = a.reshape(a.shape[0], -1)
    head = meta["model"]["output"]
    if head == "sigmoid":
        p1 = 1 / (1 + np.exp(-z[:, 0]))
        return np.stack([1 - p1, p1], axis=1)
    if head == "softmax":
        e = np.exp(z - z.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)
    return z
