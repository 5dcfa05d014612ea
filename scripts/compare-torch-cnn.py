#!/usr/bin/env python3
"""OPTIONAL one-off measurement (issue #30): torch's own step of the Opacus MNIST-example CNN, or
of the OSO paper's conv autoencoder, beside dplab's `dplab-cli bench`, on the same machine in the
same sitting.

NOT a dependency of dplab: nothing builds, tests or runs it in CI. It needs python3-torch
(Debian 12: `apt-get install python3-torch`, torch 1.13.1). Opacus is not packaged by Debian, so
the DP baselines here are torch's own: a naive per-example loop (one forward/backward per example,
clip, sum) and, when functorch is present, vmap(grad) per-sample gradients.

Model: Opacus's examples/mnist.py SampleConvNet, 26,010 parameters, the architecture dplab's
built-in `cnn` mirrors (engine/models/network_description.cpp):
  conv 1->16 k8 s2 p3, relu, maxpool 2/1, conv 16->32 k4 s2, relu, maxpool 2/1,
  linear 512->32, relu, linear 32->10.
With --model autoencoder: the OSO appendix's Fashion-MNIST autoencoder (Galli et al. 2023, Table
6), 48,705 parameters, dplab's built-in `conv-autoencoder`: four 3x3 convs 1->8->16->32->64 and
four 3x3 transposed convs 64->32->16->8->1 (stride 1, no padding), leaky ReLU (slope 0.01)
between, sigmoid out; loss per example (1/784) ||x_hat - x||^2, as dplab's reconstruction loss.
Data: Fashion-MNIST from /usr/share/datasets/fashion-mnist when installed (else random bytes of
the same shape), pixels / 255. Lots: Poisson with q = L / n, expected size L = 250. Every step
includes the lot's gather and an SGD update (as dplab's bench step does); the DP steps add
per-example clipping to C = 1 and Gaussian noise sigma = 1.

--opacus PATH adds Opacus's own DP step (hooks mode: GradSampleModule's per-sample gradients and
DPOptimizer's clipping, noise and averaging over the expected lot size) from a source checkout
(the folder that holds the `opacus` package; Opacus 1.4.x runs on Debian's torch 1.13 and needs
python3-scipy). Debian 12 does not package opt_einsum, whose `contract` Opacus's per-sample
gradient formulas call: when it is missing, torch.einsum (the same contraction, one path) stands
in for it, in this process only. Nothing is installed.

The BLAS torch runs is printed (OpenBLAS's core name, e.g. SkylakeX for its AVX-512 kernels). An
OPENBLAS_CORETYPE in the environment (some machines set it, e.g. to Haswell) is removed for this
process only, before torch loads OpenBLAS, so the peer side runs the kernels the CPU has; the
line printed says so.

--model logistic and --model tlnn are dplab's dense models (784 -> 10; 784 -> 100 relu -> 10),
so that the whole table of issue #49 (logistic, TLNN, CNN) has its peer column from one script.

Usage: /usr/bin/python3 scripts/compare-torch-cnn.py [--model cnn|autoencoder|logistic|tlnn]
           [--seconds 5]
           [--threads 1,2] [--opacus PATH] [--json out.json]
"""
import argparse
import ctypes
import gzip
import json
import os
import sys
import time

# Before torch loads OpenBLAS, which reads it once at load time.
CORETYPE_OVERRIDE = os.environ.pop("OPENBLAS_CORETYPE", None)

import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

FASHION_DIR = "/usr/share/datasets/fashion-mnist"


class SampleConvNet(nn.Module):
    """Opacus examples/mnist.py."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 16, 8, 2, padding=3)
        self.conv2 = nn.Conv2d(16, 32, 4, 2)
        self.fc1 = nn.Linear(32 * 4 * 4, 32)
        self.fc2 = nn.Linear(32, 10)

    def forward(self, x):
        x = F.relu(self.conv1(x))  # [B, 16, 14, 14]
        x = F.max_pool2d(x, 2, 1)  # [B, 16, 13, 13]
        x = F.relu(self.conv2(x))  # [B, 32, 5, 5]
        x = F.max_pool2d(x, 2, 1)  # [B, 32, 4, 4]
        x = x.reshape(-1, 32 * 4 * 4)
        x = F.relu(self.fc1(x))
        return self.fc2(x)


class ConvAutoencoder(nn.Module):
    """The OSO appendix's Table 6 (dplab engine/models/network_description.cpp)."""

    def __init__(self):
        super().__init__()
        down = [1, 8, 16, 32, 64]
        up = [64, 32, 16, 8, 1]
        self.encoder = nn.ModuleList(nn.Conv2d(a, b, 3) for a, b in zip(down, down[1:]))
        self.decoder = nn.ModuleList(nn.ConvTranspose2d(a, b, 3) for a, b in zip(up, up[1:]))

    def forward(self, x):
        for conv in self.encoder:
            x = F.leaky_relu(conv(x), 0.01)
        for i, conv in enumerate(self.decoder):
            x = conv(x)
            x = torch.sigmoid(x) if i == len(self.decoder) - 1 else F.leaky_relu(x, 0.01)
        return x


class Logistic(nn.Module):
    """dplab's `logistic` on 28x28 images: 784 -> 10, softmax cross-entropy (7,850 parameters)."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(784, 10)

    def forward(self, x):
        return self.fc(x.reshape(x.shape[0], 784))


class TwoLayerNetwork(nn.Module):
    """dplab's `tlnn` (engine/models/two_layer_network.h): 784 -> 100 relu -> 10 (79,510)."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(784, 100)
        self.fc2 = nn.Linear(100, 10)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x.reshape(x.shape[0], 784))))


MODELS = {"cnn": SampleConvNet, "autoencoder": ConvAutoencoder, "logistic": Logistic,
          "tlnn": TwoLayerNetwork}


def summed_loss(model, xb, yb):
    """Sum over the examples of each one's loss: cross-entropy, or (1/784) ||x_hat - x||^2."""
    out = model(xb)
    if isinstance(model, ConvAutoencoder):
        return F.mse_loss(out, xb, reduction="sum") / xb[0].numel()
    return F.cross_entropy(out, yb, reduction="sum")


def load_data():
    images = os.path.join(FASHION_DIR, "train-images-idx3-ubyte.gz")
    labels = os.path.join(FASHION_DIR, "train-labels-idx1-ubyte.gz")
    if os.path.exists(images) and os.path.exists(labels):
        with gzip.open(images) as f:
            x = torch.frombuffer(bytearray(f.read()[16:]), dtype=torch.uint8)
        with gzip.open(labels) as f:
            y = torch.frombuffer(bytearray(f.read()[8:]), dtype=torch.uint8)
        return x.reshape(-1, 1, 28, 28), y.long(), "Fashion-MNIST train"
    gen = torch.Generator().manual_seed(7)
    x = torch.randint(0, 256, (60000, 1, 28, 28), dtype=torch.uint8, generator=gen)
    y = torch.randint(0, 10, (60000,), generator=gen)
    return x, y, "random bytes of Fashion-MNIST shape"


class Steps:
    def __init__(self, x, y, lot_size, model, clip=1.0, sigma=1.0, lr=1e-3):
        self.x, self.y = x, y
        self.q = lot_size / x.shape[0]
        self.lot_size, self.clip, self.sigma, self.lr = lot_size, clip, sigma, lr
        torch.manual_seed(1)
        self.model = MODELS[model]()
        self.params = list(self.model.parameters())

    def lot(self):
        idx = (torch.rand(self.x.shape[0]) < self.q).nonzero().squeeze(1)
        return self.x[idx].float().div_(255.0), self.y[idx]

    def update(self, grads):
        with torch.no_grad():
            for p, g in zip(self.params, grads):
                p.add_(g, alpha=-self.lr)

    def nonprivate(self):
        xb, yb = self.lot()
        loss = summed_loss(self.model, xb, yb)
        grads = torch.autograd.grad(loss, self.params)
        self.update([g / self.lot_size for g in grads])

    def noisy_mean(self, summed):
        return [(s + self.sigma * self.clip * torch.randn_like(s)) / self.lot_size for s in summed]

    def dp_naive(self):
        xb, yb = self.lot()
        summed = [torch.zeros_like(p) for p in self.params]
        for i in range(xb.shape[0]):
            loss = summed_loss(self.model, xb[i : i + 1], yb[i : i + 1])
            grads = torch.autograd.grad(loss, self.params)
            norm = torch.sqrt(sum((g * g).sum() for g in grads))
            scale = min(1.0, self.clip / (float(norm) + 1e-12))
            for s, g in zip(summed, grads):
                s.add_(g, alpha=scale)
        self.update(self.noisy_mean(summed))


def blas_description():
    """The BLAS library torch loaded, and OpenBLAS's kernel (core) name when it is OpenBLAS.

    Debian's torch calls libblas.so.3, which the alternatives system points at OpenBLAS
    (libopenblas0-pthread), BLIS or the slow reference BLAS; the file's symbols say which."""
    torch.ones(2, 2) @ torch.ones(2, 2)  # BLAS is loaded by now
    with open("/proc/self/maps") as maps:
        paths = sorted({line.split()[-1] for line in maps
                        if "/" in line and "blas" in os.path.basename(line.split()[-1]).lower()
                        and ".so" in line})
    # The BLAS libraries themselves before modules that link them (scipy's _fblas).
    paths.sort(key=lambda path: not os.path.basename(path).startswith("lib"))
    for path in paths:
        lib = ctypes.CDLL(path)
        if not hasattr(lib, "openblas_get_corename"):
            continue
        for name in ("openblas_get_corename", "openblas_get_config"):
            getattr(lib, name).restype = ctypes.c_char_p
        core = lib.openblas_get_corename().decode()
        config = lib.openblas_get_config().decode().strip()
        return f"BLAS: OpenBLAS ({os.path.realpath(path)}), core {core}; {config}"
    libblas = [p for p in paths if os.path.basename(p).startswith("libblas.so")]
    if libblas:
        return (f"BLAS: {os.path.realpath(libblas[0])}, not OpenBLAS (the reference BLAS is many "
                "times slower: apt-get install libopenblas0-pthread, or update-alternatives "
                "--config libblas.so.3-x86_64-linux-gnu)")
    return "BLAS: " + (", ".join(paths) if paths else "no BLAS library found in the process")


def make_opacus_step(steps, path):
    """Opacus's DP step from a source checkout at `path`: GradSampleModule (hooks) + DPOptimizer."""
    sys.path.insert(0, os.path.abspath(path))
    try:
        import opt_einsum  # noqa: F401
    except ImportError:
        import types

        # `from opt_einsum import contract` and `from opt_einsum.contract import contract`.
        shim, submodule = types.ModuleType("opt_einsum"), types.ModuleType("opt_einsum.contract")
        shim.__path__ = []
        shim.contract = submodule.contract = torch.einsum
        sys.modules.update({"opt_einsum": shim, "opt_einsum.contract": submodule})
    import opacus
    from opacus import GradSampleModule
    from opacus.optimizers import DPOptimizer

    torch.manual_seed(1)
    model = GradSampleModule(type(steps.model)(), batch_first=True, loss_reduction="sum")
    optimizer = DPOptimizer(torch.optim.SGD(model.parameters(), lr=steps.lr),
                            noise_multiplier=steps.sigma, max_grad_norm=steps.clip,
                            expected_batch_size=int(round(steps.lot_size)), loss_reduction="sum")

    def step():
        xb, yb = steps.lot()
        optimizer.zero_grad(set_to_none=True)
        summed_loss(model, xb, yb).backward()
        optimizer.step()

    return step, f"Opacus {opacus.__version__} ({os.path.dirname(opacus.__file__)}), hooks mode"


def make_vmap_step(steps):
    try:
        from functorch import grad, make_functional, vmap
    except ImportError:
        return None
    fmodel, _ = make_functional(steps.model)

    def loss_one(params, x, y):
        out = fmodel(params, x.unsqueeze(0))
        if isinstance(steps.model, ConvAutoencoder):
            return F.mse_loss(out, x.unsqueeze(0), reduction="sum") / x.numel()
        return F.cross_entropy(out, y.unsqueeze(0), reduction="sum")

    per_example = vmap(grad(loss_one), in_dims=(None, 0, 0))

    def step():
        xb, yb = steps.lot()
        params = tuple(p.detach() for p in steps.params)
        grads = per_example(params, xb, yb)
        norms = torch.sqrt(sum(g.reshape(g.shape[0], -1).pow(2).sum(1) for g in grads))
        scale = (steps.clip / (norms + 1e-12)).clamp(max=1.0)
        summed = [torch.einsum("i,i...->...", scale, g) for g in grads]
        steps.update(steps.noisy_mean(summed))

    return step


def steps_per_second(step, seconds):
    step()  # warm-up
    count, start = 0, time.perf_counter()
    while True:
        step()
        count += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return count / elapsed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", choices=sorted(MODELS), default="cnn")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--lot-size", type=float, default=250)
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--naive-seconds", type=float, default=None,
                        help="time for the naive loop (default: --seconds)")
    parser.add_argument("--opacus", metavar="PATH",
                        help="also time Opacus's DP step, from the source checkout at PATH")
    parser.add_argument("--json", help="also write the results to this file")
    args = parser.parse_args()
    x, y, data = load_data()
    steps = Steps(x, y, args.lot_size, args.model)
    n_params = sum(p.numel() for p in steps.params)
    vmap_step = make_vmap_step(steps)
    opacus_step, opacus_text = make_opacus_step(steps, args.opacus) if args.opacus else (None, "")
    blas = blas_description()
    result = {"torch": torch.__version__, "data": data, "model": args.model, "params": n_params,
              "lot_size": args.lot_size, "blas": blas, "openblas_coretype_removed":
              CORETYPE_OVERRIDE, "opacus": opacus_text or None, "rows": []}
    print(f"torch {torch.__version__}, {data}, {type(steps.model).__name__} {n_params} params, L = "
          f"{args.lot_size:.0f}, {args.seconds:g} s per variant")
    print(blas)
    if CORETYPE_OVERRIDE is not None:
        print(f"OPENBLAS_CORETYPE={CORETYPE_OVERRIDE} was removed for this process (OpenBLAS picks "
              "the kernels of this CPU)")
    if opacus_text:
        print(opacus_text)
    print(f"{'threads':>7} {'nonpriv st/s':>13} {'DP naive st/s':>14} {'DP vmap st/s':>13}"
          + (f" {'Opacus st/s':>12}" if opacus_step else ""))
    for threads in [int(t) for t in args.threads.split(",")]:
        torch.set_num_threads(threads)
        row = {"threads": threads,
               "nonprivate_steps_per_second": steps_per_second(steps.nonprivate, args.seconds),
               "dp_naive_steps_per_second": steps_per_second(
                   steps.dp_naive, args.naive_seconds or args.seconds)}
        if vmap_step is not None:
            row["dp_vmap_steps_per_second"] = steps_per_second(vmap_step, args.seconds)
        if opacus_step is not None:
            row["opacus_dp_steps_per_second"] = steps_per_second(opacus_step, args.seconds)
        result["rows"].append(row)
        vmap_text = f"{row['dp_vmap_steps_per_second']:13.2f}" if vmap_step else f"{'n/a':>13}"
        opacus_cell = f" {row['opacus_dp_steps_per_second']:12.2f}" if opacus_step else ""
        print(f"{threads:>7} {row['nonprivate_steps_per_second']:13.2f} "
              f"{row['dp_naive_steps_per_second']:14.2f} {vmap_text}{opacus_cell}", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=2)


if __name__ == "__main__":
    main()
