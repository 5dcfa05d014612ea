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

Usage: /usr/bin/python3 scripts/compare-torch-cnn.py [--model cnn|autoencoder] [--seconds 5]
           [--threads 1,2] [--json out.json]
"""
import argparse
import gzip
import json
import os
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

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


MODELS = {"cnn": SampleConvNet, "autoencoder": ConvAutoencoder}


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
    parser.add_argument("--json", help="also write the results to this file")
    args = parser.parse_args()
    x, y, data = load_data()
    steps = Steps(x, y, args.lot_size, args.model)
    n_params = sum(p.numel() for p in steps.params)
    vmap_step = make_vmap_step(steps)
    result = {"torch": torch.__version__, "data": data, "model": args.model, "params": n_params,
              "lot_size": args.lot_size, "rows": []}
    print(f"torch {torch.__version__}, {data}, {type(steps.model).__name__} {n_params} params, L = "
          f"{args.lot_size:.0f}, {args.seconds:g} s per variant")
    print(f"{'threads':>7} {'nonpriv st/s':>13} {'DP naive st/s':>14} {'DP vmap st/s':>13}")
    for threads in [int(t) for t in args.threads.split(",")]:
        torch.set_num_threads(threads)
        row = {"threads": threads,
               "nonprivate_steps_per_second": steps_per_second(steps.nonprivate, args.seconds),
               "dp_naive_steps_per_second": steps_per_second(
                   steps.dp_naive, args.naive_seconds or args.seconds)}
        if vmap_step is not None:
            row["dp_vmap_steps_per_second"] = steps_per_second(vmap_step, args.seconds)
        result["rows"].append(row)
        vmap_text = f"{row['dp_vmap_steps_per_second']:13.2f}" if vmap_step else f"{'n/a':>13}"
        print(f"{threads:>7} {row['nonprivate_steps_per_second']:13.2f} "
              f"{row['dp_naive_steps_per_second']:14.2f} {vmap_text}", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=2)


if __name__ == "__main__":
    main()
