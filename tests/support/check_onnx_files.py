#!/usr/bin/python3
"""Checks a dplab model folder's model.onnx as a deployment would use it, with python3-onnx and
numpy alone (no onnxruntime):

    check_onnx_files.py MODEL_DIR [DATA.csv PREDICTIONS.csv]

- onnx.checker.check_model(full_check=True) passes (opset 13, IR version 7);
- the graph has one input "input" float [N, h*w*c] and one output, "probabilities" [N, classes]
  for a softmax or sigmoid head (a sigmoid head gives [p0, p1]) or "output" [N, m] for identity,
  with model.json's sizes; shape inference (strict) from the input alone, with the declared
  output shape removed, infers exactly that output shape;
- the initializers hold model.npz's values (conv weights transposed to ONNX's layouts), and the
  file holds none of model.json's input encoding (column names, one-hot levels, class labels: not
  covered by the privacy card's epsilon, docs/privacy-model.md);
- with DATA.csv and PREDICTIONS.csv (dplab-cli predict's output for DATA.csv): the graph
  evaluated node by node by the small numpy interpreter below (from the ONNX nodes and their
  attributes alone, not from model.json's layers) on DATA.csv's rows, encoded as model.json says
  (model_reference.encode_csv), equals predict's probabilities / values to 1e-5.

Prints a JSON summary on success; each problem on a line and exit 1.
"""
import json
import pathlib
import sys

import numpy as np
import onnx
import onnx.numpy_helper
import onnx.shape_inference
import pandas

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import model_reference as ref  # noqa: E402

OPSET = 13


class Unsupported(Exception):
    pass


def _attributes(node):
    return {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}


def _window_attributes(attrs, allowed):
    unknown = set(attrs) - allowed
    if unknown:
        raise Unsupported(f"attributes {sorted(unknown)}")
    if attrs.get("auto_pad", b"NOTSET") not in (b"NOTSET", "NOTSET"):
        raise Unsupported("auto_pad")
    if any(d != 1 for d in attrs.get("dilations", [1, 1])):
        raise Unsupported("dilations")
    if attrs.get("group", 1) != 1:
        raise Unsupported("group")
    kernel = attrs["kernel_shape"]
    strides = attrs.get("strides", [1, 1])
    pads = attrs.get("pads", [0, 0, 0, 0])  # [top, left, bottom, right]
    return kernel, strides, pads


def _pad(x, pads, value=0.0):
    top, left, bottom, right = pads
    return np.pad(x, ((0, 0), (0, 0), (top, bottom), (left, right)), constant_values=value)


def _conv(x, w, b, attrs):
    # ONNX Conv, NCHW: y[n, o, i, j] = b[o] + sum_{c, u, v} w[o, c, u, v] x_pad[n, c, i s + u, j s + v]
    (kh, kw), (sh, sw), pads = _window_attributes(
        attrs, {"kernel_shape", "strides", "pads", "dilations", "group", "auto_pad"})
    assert w.shape[2:] == (kh, kw)
    xp = _pad(x, pads)
    oh = (xp.shape[2] - kh) // sh + 1
    ow = (xp.shape[3] - kw) // sw + 1
    y = np.zeros((x.shape[0], w.shape[0], oh, ow))
    for i in range(oh):
        for j in range(ow):
            patch = xp[:, :, i * sh:i * sh + kh, j * sw:j * sw + kw]  # n c kh kw
            y[:, :, i, j] = np.einsum("ncuv,ocuv->no", patch, w)
    return y + (0 if b is None else b.reshape(1, -1, 1, 1))


def _conv_transpose(x, w, b, attrs):
    # ONNX ConvTranspose, w [c_in, c_out, kh, kw]: every input pixel (i, j) adds x[n, c, i, j] w[c]
    # at (i s, j s) of the full output, then pads[] rows and columns are cut from its borders.
    (kh, kw), (sh, sw), pads = _window_attributes(
        attrs, {"kernel_shape", "strides", "pads", "dilations", "group", "auto_pad"})
    if "output_padding" in attrs or "output_shape" in attrs:
        raise Unsupported("output_padding / output_shape")
    n, _, h, wd = x.shape
    full = np.zeros((n, w.shape[1], (h - 1) * sh + kh, (wd - 1) * sw + kw))
    for i in range(h):
        for j in range(wd):
            full[:, :, i * sh:i * sh + kh, j * sw:j * sw + kw] += np.einsum(
                "nc,couv->nouv", x[:, :, i, j], w)
    top, left, bottom, right = pads
    y = full[:, :, top:full.shape[2] - bottom, left:full.shape[3] - right]
    return y + (0 if b is None else b.reshape(1, -1, 1, 1))


def _pool(x, attrs, reduce):
    (kh, kw), (sh, sw), pads = _window_attributes(
        attrs, {"kernel_shape", "strides", "pads", "auto_pad", "ceil_mode", "count_include_pad",
                "storage_order", "dilations"})
    if any(pads) or attrs.get("ceil_mode", 0):
        raise Unsupported("padded or ceil-mode pooling")
    oh = (x.shape[2] - kh) // sh + 1
    ow = (x.shape[3] - kw) // sw + 1
    y = np.zeros(x.shape[:2] + (oh, ow))
    for i in range(oh):
        for j in range(ow):
            y[:, :, i, j] = reduce(x[:, :, i * sh:i * sh + kh, j * sw:j * sw + kw], axis=(2, 3))
    return y


def _reshape(x, shape):
    shape = [x.shape[i] if d == 0 else int(d) for i, d in enumerate(shape)]
    return x.reshape(shape)


def _gemm(a, b, c, attrs):
    a = a.T if attrs.get("transA", 0) else a
    b = b.T if attrs.get("transB", 0) else b
    y = attrs.get("alpha", 1.0) * (a @ b)
    return y if c is None else y + attrs.get("beta", 1.0) * c


def _softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def evaluate(model, x):
    """The graph's outputs for input rows x, evaluated in float64 node by node."""
    values = {init.name: onnx.numpy_helper.to_array(init).astype(np.float64)
              if init.data_type == onnx.TensorProto.FLOAT else onnx.numpy_helper.to_array(init)
              for init in model.graph.initializer}
    values[model.graph.input[0].name] = np.asarray(x, dtype=np.float64)
    for node in model.graph.node:
        attrs = _attributes(node)
        args = [values[name] if name else None for name in node.input]
        op = node.op_type
        if op == "Reshape":
            y = _reshape(args[0], args[1])
        elif op == "Transpose":
            y = np.transpose(args[0], attrs["perm"])
        elif op == "Flatten":
            axis = attrs.get("axis", 1)
            y = args[0].reshape(int(np.prod(args[0].shape[:axis])), -1)
        elif op == "Conv":
            y = _conv(args[0], args[1], args[2] if len(args) > 2 else None, attrs)
        elif op == "ConvTranspose":
            y = _conv_transpose(args[0], args[1], args[2] if len(args) > 2 else None, attrs)
        elif op == "MaxPool":
            y = _pool(args[0], attrs, np.max)
        elif op == "AveragePool":
            y = _pool(args[0], attrs, np.mean)
        elif op == "Gemm":
            y = _gemm(args[0], args[1], args[2] if len(args) > 2 else None, attrs)
        elif op == "MatMul":
            y = args[0] @ args[1]
        elif op == "Add":
            y = args[0] + args[1]
        elif op == "Relu":
            y = np.maximum(args[0], 0.0)
        elif op == "LeakyRelu":
            y = np.where(args[0] >= 0, args[0], attrs.get("alpha", 0.01) * args[0])
        elif op == "Sigmoid":
            y = _sigmoid(args[0])
        elif op == "Tanh":
            y = np.tanh(args[0])
        elif op == "Neg":
            y = -args[0]
        elif op == "Concat":
            y = np.concatenate(args, axis=attrs["axis"])
        elif op == "Softmax":
            y = _softmax(args[0], attrs.get("axis", -1))
        elif op == "Identity":
            y = args[0]
        else:
            raise Unsupported(f"op {op}")
        values[node.output[0]] = y
    return [values[o.name] for o in model.graph.output]


def _dims(value_info):
    shape = value_info.type.tensor_type.shape
    return [d.dim_param if d.HasField("dim_param") else
            (d.dim_value if d.HasField("dim_value") else None) for d in shape.dim]


def _expected_output(meta):
    head = meta["model"]["output"]
    last = meta["layers"][-1]["output"]
    size = int(np.prod(last))
    if head == "sigmoid":
        return "probabilities", 2
    return ("probabilities" if head == "softmax" else "output"), size


def _transposed(name, array, meta):
    """model.npz's array as model.onnx must hold it: conv weights in ONNX's layouts."""
    for layer in meta["layers"]:
        if layer.get("weight") == name and layer["op"] == "conv":
            return array.transpose(3, 2, 0, 1)  # HWIO -> OIHW
        if layer.get("weight") == name and layer["op"] == "conv_transpose":
            return array.transpose(0, 3, 1, 2)  # [c_in, k, k, c_out] -> [c_in, c_out, k, k]
    return array


def _encoding_strings(meta):
    """The texts of model.json's input encoding and class labels (4 characters or more: a
    shorter one could turn up by chance in the float bytes)."""
    inp = meta["input"]
    texts = set(inp.get("classes") or [])
    encoding = inp.get("encoding") or {}
    texts.update(encoding.get("classes") or [])
    texts.update(encoding.get("features") or [])
    texts.add(encoding.get("label_column") or "")
    for column in encoding.get("columns") or []:
        texts.add(column["name"])
        texts.update(column.get("levels") or [])
    return sorted(t for t in texts if isinstance(t, str) and len(t) >= 4)


def structure_problems(model, meta, arrays, raw):
    problems = []
    for text in _encoding_strings(meta):
        if text.encode("utf-8") in raw:
            problems.append(f"model.onnx holds the input encoding's text {text!r}")
    try:
        onnx.checker.check_model(model, full_check=True)
    except Exception as e:  # ValidationError, or full_check's shape_inference.InferenceError
        problems.append(f"onnx.checker: {e}")
        return problems
    opsets = {o.domain: o.version for o in model.opset_import}
    if opsets.get("", opsets.get("ai.onnx")) != OPSET:
        problems.append(f"opset {opsets}, expected {OPSET}")
    h, w, c = meta["model"]["input_shape"]
    if len(model.graph.input) != 1 or model.graph.input[0].name != "input":
        problems.append(f"inputs {[i.name for i in model.graph.input]}, expected ['input']")
    elif _dims(model.graph.input[0]) != ["N", h * w * c]:
        problems.append(f"input shape {_dims(model.graph.input[0])}, expected ['N', {h * w * c}]")
    name, size = _expected_output(meta)
    if [o.name for o in model.graph.output] != [name]:
        problems.append(f"outputs {[o.name for o in model.graph.output]}, expected [{name!r}]")
        return problems
    if _dims(model.graph.output[0]) != ["N", size]:
        problems.append(f"declared output shape {_dims(model.graph.output[0])}, expected ['N', {size}]")
    # Shape inference from the input alone: drop the declared output shape and every value_info.
    bare = onnx.ModelProto()
    bare.CopyFrom(model)
    del bare.graph.value_info[:]
    bare.graph.output[0].type.tensor_type.ClearField("shape")
    try:
        inferred = onnx.shape_inference.infer_shapes(bare, check_type=True, strict_mode=True)
        got = _dims(inferred.graph.output[0])
        if got != ["N", size]:
            problems.append(f"shape inference gives the output {got}, expected ['N', {size}]")
    except Exception as e:  # shape_inference.InferenceError
        problems.append(f"onnx.shape_inference: {e}")
    initializers = {t.name: onnx.numpy_helper.to_array(t) for t in model.graph.initializer}
    for array_name, array in arrays.items():
        if array_name not in initializers:
            problems.append(f"model.npz's '{array_name}' is not an initializer of model.onnx")
            continue
        expected = _transposed(array_name, array, meta)
        got = initializers[array_name]
        if got.dtype != np.float32 or got.shape != expected.shape or not np.array_equal(got, expected):
            problems.append(f"initializer '{array_name}' {got.dtype}{list(got.shape)} differs from "
                            f"model.npz's {list(expected.shape)}")
    return problems


def main(argv):
    folder = pathlib.Path(argv[1])
    if not (folder / "model.onnx").exists() and (folder / "model" / "model.onnx").exists():
        folder = folder / "model"
    reference = ref.load(folder)
    raw = (folder / "model.onnx").read_bytes()
    model = onnx.load_from_string(raw)
    problems = structure_problems(model, reference.meta, reference.arrays, raw)
    summary = {"nodes": len(model.graph.node), "ops": sorted({n.op_type for n in model.graph.node})}
    if len(argv) == 4 and not problems:
        x = ref.encode_csv(reference, argv[2])
        try:
            (got,) = evaluate(model, x)
        except Unsupported as e:
            problems.append(f"the numpy evaluator does not know {e}")
            got = None
        preds = pandas.read_csv(argv[3])
        columns = [c for c in preds.columns if c.startswith("p_") or c.startswith("output_")]
        expected = preds[columns or ["predicted"]].to_numpy(dtype=np.float64)
        if got is not None and got.shape != expected.shape:
            problems.append(f"ONNX output shape {got.shape}, predictions {expected.shape}")
        elif got is not None:
            worst = float(np.max(np.abs(got - expected))) if got.size else 0.0
            summary["max_abs_difference"] = worst
            summary["rows"] = int(got.shape[0])
            if worst > 1e-5:
                problems.append(f"the ONNX graph differs from predict by {worst} (> 1e-5)")
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
