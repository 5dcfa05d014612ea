#!/usr/bin/env python3
"""Runs the reproduction-variant study of docs/reproduction.md with `dplab-cli tune` and
summarises it as tables (Markdown on stdout, CSV in --out).

Each variant is one experiment file: the main paper's section 5 setting on Adult (logistic
regression, sigma = 4, L = 250, delta = 1e-6) with one `variants` switch set
(engine/experiment/reproduction_variants.h). Per variant it reports
  - claim 1: DPAdam at its default (alpha = 1e-3, beta = 0.9/0.999), best of its 4 clips, against
    DPSGD's best of its 10 x 4 (alpha, C) grid (Table 3), final validation accuracy, mean over
    repeats with a 95% CI (t quantile over repeats) of the chosen candidate;
  - claim 2 (Figure 3, reduced): the rank of the default alpha = 1e-3 among DPAdam's alpha grid
    (beta1 = 0.9, beta2 = 0.999, C = 0.5, T = 2,500) and the gap to the best alpha.
Scale is set by --steps/--repeats/--sgd-alphas so the whole study fits a CPU budget; the numbers
in docs/reproduction.md say which scale produced them. Only the standard library is used.
Fashion-MNIST's pixel range: --dataset fashion-mnist-files --variants baseline,pixels-symmetric.
"""
import argparse
import csv
import json
import math
import os
import statistics
import subprocess
import sys

T95 = {1: float("nan"), 2: 12.706, 3: 4.303, 4: 3.182, 5: 2.776, 6: 2.571, 8: 2.365, 10: 2.262}

SGD_ALPHAS = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1]
CLIPS = [0.1, 0.2, 0.5, 1]
FIG3_ALPHAS = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5]

VARIANTS = {
    "baseline": {},
    "realized-lot": {"lot_normalization": "realized"},
    "xi-inside-sqrt": {"adam_xi": "inside_sqrt"},
    "uniform-init": {"linear_init": "uniform_fan_in"},
    "two-class-softmax": {"binary_output": "softmax"},
    "paper-code-model": {"binary_output": "softmax", "linear_init": "uniform_fan_in"},
    # Same pooled rows and split from a generated CSV: dplab's 104 features, then the paper
    # code's 202 (duplicated one-hot blocks), then 202 with the paper code's model.
    "csv-104": {},
    "encoding-202": {},
    "encoding-202-paper-code-model": {"binary_output": "softmax", "linear_init": "uniform_fan_in"},
    # Image data only (--dataset fashion-mnist-files): pixels in [-1, 1] as the paper's code
    # normalises MNIST (Normalize((0.5,), (0.5,))) instead of dplab's [0, 1].
    "pixels-symmetric": {"pixel_range": "symmetric"},
}


CATEGORICAL = ["workclass", "education", "marital-status", "occupation", "relationship", "race",
               "sex", "native-country"]


def write_adult_csv(out_dir, duplicate_categorical):
    """The pooled Adult rows (adult.data + adult.test, labels without the test file's dot) as one
    CSV. duplicate_categorical=True repeats every categorical column, so the one-hot encoder makes
    6 + 2 x 98 = 202 features: what the paper's code (datasets.py, to_one_hot) produces, because it
    appends each one-hot block twice; False gives dplab's 104. Both files hold the same rows in the
    same order, so the 80/20 split (same split_seed) is the same and only the encoding differs."""
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, "adult-%d.csv" % (202 if duplicate_categorical else 104))
    here = os.path.dirname(os.path.abspath(__file__))
    with open(path, "w", newline="") as out:
        w = csv.writer(out)
        for i, name in enumerate(["adult.data.csv", "adult.test.csv"]):
            with open(os.path.join(here, "..", "datasets", "adult", name)) as f:
                r = csv.reader(f, skipinitialspace=True)
                header = next(r)
                cat = [header.index(c) for c in CATEGORICAL]
                if i == 0:
                    w.writerow(header[:-1] + ([c + "-copy" for c in CATEGORICAL]
                                              if duplicate_categorical else []) + [header[-1]])
                for row in r:
                    if not row:
                        continue
                    row[-1] = row[-1].rstrip(".")
                    extra = [row[k] for k in cat] if duplicate_categorical else []
                    w.writerow(row[:-1] + extra + [row[-1]])
    return path


def experiment(name, dataset, variants, optimizers, steps, repeats, seed, eval_every):
    j = {
        "name": name,
        "seed": seed,
        "repeats": repeats,
        "eval_every": eval_every,
        "dataset": dataset,
        "model": {"kind": "logistic"},
        "privacy": {"noise_multiplier": 4, "lot_size": 250, "steps": steps, "delta": 1e-6},
        "optimizers": optimizers,
    }
    if variants:
        j["variants"] = variants
    return j


def run_tune(cli, exp, out_dir, threads):
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, "experiment.json")
    with open(path, "w") as f:
        json.dump(exp, f, indent=1)
    cmd = ["nice", "-n", "10", cli, "tune", "--config", path, "--out", out_dir,
           "--threads", str(threads)]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit("tune failed for %s:\n%s\n%s" % (out_dir, done.stdout, done.stderr))
    with open(os.path.join(out_dir, "tune-stdout.txt"), "w") as f:
        f.write(done.stdout)


def final_accuracy_by_candidate(out_dir):
    """{candidate: (optimizer, lr, clip, beta1, beta2, [final val acc per repeat])}."""
    last = {}
    with open(os.path.join(out_dir, "curves.csv")) as f:
        # The first line is tune's "# dplab: eps <= ..." comment.
        for row in csv.DictReader(line for line in f if not line.startswith("#")):
            key = (int(row["candidate"]), int(row["repeat"]))
            it = int(row["iteration"])
            if key not in last or it > last[key][0]:
                last[key] = (it, row)
    out = {}
    for (cand, _), (_, row) in sorted(last.items()):
        acc = float(row["val_accuracy"]) if row["val_accuracy"] else float("nan")
        entry = out.setdefault(cand, [row["optimizer"], float(row["learning_rate"]),
                                      float(row["clip"]), row["beta1"], row["beta2"], []])
        entry[5].append(acc)
    return out


def mean_ci(values):
    values = [v for v in values if not math.isnan(v)]
    if not values:
        return float("nan"), float("nan")
    m = statistics.fmean(values)
    if len(values) < 2:
        return m, float("nan")
    t = T95.get(len(values), 1.96)
    return m, t * statistics.stdev(values) / math.sqrt(len(values))


def best(cands, optimizer):
    rows = [(mean_ci(v[5]), k, v) for k, v in cands.items() if v[0] == optimizer]
    rows = [r for r in rows if not math.isnan(r[0][0])]
    return max(rows, key=lambda r: r[0][0]) if rows else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cli", default="build/app/dplab-cli")
    ap.add_argument("--out", default="reproduction-variants")
    ap.add_argument("--steps", type=int, default=10000, help="T of claim 1 (paper: 10,000)")
    ap.add_argument("--fig3-steps", type=int, default=2500, help="T of claim 2 (paper: 2,500)")
    ap.add_argument("--repeats", type=int, default=3, help="seeds per candidate (paper: 3)")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--eval-every", type=int, default=500)
    ap.add_argument("--dataset", default="adult", help="built-in data set name")
    ap.add_argument("--variants", default=",".join(VARIANTS), help="comma-separated subset")
    ap.add_argument("--sgd-alphas", default=",".join(map(str, SGD_ALPHAS)))
    ap.add_argument("--skip-run", action="store_true", help="only summarise existing output")
    args = ap.parse_args()
    sgd_alphas = [float(a) for a in args.sgd_alphas.split(",")]
    rows = []
    for name in args.variants.split(","):
        dataset = {"source": args.dataset}
        if name in ("csv-104", "encoding-202", "encoding-202-paper-code-model"):
            dup = name != "csv-104"
            dataset = {"source": os.path.abspath(write_adult_csv(args.out, dup)), "format": "csv",
                       "label_column": "Y", "split_seed": 2022}
        variants = VARIANTS[name]
        d1 = os.path.join(args.out, name, "claim1")
        d2 = os.path.join(args.out, name, "figure3")
        if not args.skip_run:
            run_tune(args.cli, experiment(
                "claim1-" + name, dataset, variants,
                [{"name": "dpadam", "grid": {"clip": CLIPS}},
                 {"name": "dpsgd", "grid": {"learning_rate": sgd_alphas, "clip": CLIPS}}],
                args.steps, args.repeats, args.seed, args.eval_every), d1, args.threads)
            run_tune(args.cli, experiment(
                "figure3-" + name, dataset, variants,
                [{"name": "dpadam", "grid": {"learning_rate": FIG3_ALPHAS, "clip": 0.5}}],
                args.fig3_steps, args.repeats, args.seed, args.eval_every), d2, args.threads)
        c1 = final_accuracy_by_candidate(d1)
        adam, sgd = best(c1, "dpadam"), best(c1, "dpsgd")
        c2 = final_accuracy_by_candidate(d2)
        ranked = sorted(((mean_ci(v[5])[0], v[1]) for v in c2.values()), reverse=True)
        rank = 1 + next(i for i, (_, lr) in enumerate(ranked) if lr == 0.001)
        default_acc = next(a for a, lr in ranked if lr == 0.001)
        rows.append({
            "variant": name,
            "variants_json": json.dumps(variants),
            "dpadam_default_acc": adam[0][0], "dpadam_ci95": adam[0][1], "dpadam_clip": adam[2][2],
            "dpsgd_best_acc": sgd[0][0], "dpsgd_ci95": sgd[0][1],
            "dpsgd_best_lr": sgd[2][1], "dpsgd_best_clip": sgd[2][2],
            "gap_points": 100 * (sgd[0][0] - adam[0][0]),
            "fig3_default_rank": rank, "fig3_candidates": len(ranked),
            "fig3_default_acc": default_acc, "fig3_best_acc": ranked[0][0],
            "fig3_best_lr": ranked[0][1],
        })
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "summary.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    print("| variant | DPAdam default (best C) | DPSGD best of %d | gap (points) | "
          "Fig. 3: rank of alpha=1e-3 | best alpha (acc) |" % (len(sgd_alphas) * len(CLIPS)))
    print("|---|---|---|---|---|---|")
    for r in rows:
        print("| %s | %.4f ± %.4f (C=%g) | %.4f ± %.4f (α=%g, C=%g) | %+.2f | %d of %d (%.4f) | "
              "%g (%.4f) |" % (
                  r["variant"], r["dpadam_default_acc"], r["dpadam_ci95"], r["dpadam_clip"],
                  r["dpsgd_best_acc"], r["dpsgd_ci95"], r["dpsgd_best_lr"], r["dpsgd_best_clip"],
                  r["gap_points"], r["fig3_default_rank"], r["fig3_candidates"],
                  r["fig3_default_acc"], r["fig3_best_lr"], r["fig3_best_acc"]))


if __name__ == "__main__":
    main()
