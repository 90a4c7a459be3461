#!/usr/bin/env python3
"""The adaptive grid's error against the uniform run's over a grid of cases (issue 45).

  tools/adaptive_check.py [--fhn build/fhn] [--output output/adaptive_check] [--only PATTERN]
                          [--tolerance 3e-4]

Nagumo fronts (configs/travelling_front_adaptive.yaml, epsilon = 0) and pulses split from a wide
Gaussian (configs/pulse_split_adaptive.yaml, epsilon = 0.01) at thresholds a = 0.05, 0.1, 0.2,
0.3, diffusion D = 0.5, 1, 2 and base spacings dx = 0.25, 0.125 (dt = 0.4 dx^2 / D): each case
is an adaptive study (`fhn converge`, study: adaptive, written to OUTPUT/<case>.yaml) at the
tolerance and at a tenth of it, against a reference with dx / 4, dt / 16. The error is the RMSE
of v over the base grid's nodes (the adaptive v interpolated linearly onto them), at every
compared time (fronts t = 50, 100; pulses t = 20, 40, 60, 80; the first two of each on
dx = 0.125, where the uniform run's error is small).

Prints one Markdown row per case and tolerance: the uniform run's RMSE and the adaptive run's at
the last compared time, the largest error ratio (adaptive / uniform) over the compared times,
the largest distance between the two runs over the uniform run's error (what the grid changes,
whatever its sign: a ratio near 1 can hide a grid error of the opposite sign to the base grid's),
and the adaptive node count (mean over the time steps, and at the last time) against the base
grid's.
Exits 1 when a ratio exceeds its bound: 1.5 at the tolerance, 1.15 at a tenth of it (issue 45's
check; docs/history/verification-2026-11.md, "The base grid's bound", has the table).
"""
import argparse
import csv
import fnmatch
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BOUND = {0: 1.5, 1: 1.15}  # the tolerance's index in the study's list -> largest ratio


def cases():
    """(name, base config, settings, compared times) of every case."""
    for kind in ("front", "pulse"):
        for dx in (0.25, 0.125):
            for a in (0.05, 0.1, 0.2, 0.3):
                for diffusion in (0.5, 1, 2):
                    name = f"{kind}_a{a:g}_d{diffusion:g}_dx{dx:g}"
                    dt = 0.4 * dx * dx / diffusion
                    settings = {"model.a": a, "model.diffusion": diffusion, "domain.dx": dx,
                                "time.dt": dt}
                    if kind == "front":
                        times = [50, 100] if dx == 0.25 else [25, 50]
                        base = "travelling_front_adaptive.yaml"
                    else:
                        times = [20, 40, 60, 80] if dx == 0.25 else [20, 40]
                        base = "pulse_split_adaptive.yaml"
                        settings["initial.v"] = ("{type: gaussian, center: 100.0, width2: 40.0, "
                                                 "amplitude: 1.0}")
                    settings["time.end"] = times[-1]
                    yield name, ROOT / "configs" / base, settings, times


def study_text(name, base, settings, times, tolerance):
    lines = [f"name: {name}", "study: adaptive", f"base: {base}", "set:"]
    lines += [f"  {key}: {value!r}" if isinstance(value, float) else f"  {key}: {value}"
              for key, value in settings.items()]
    lines += [f"tolerances: [{tolerance:.6g}, {tolerance / 10:.6g}]",
              "reference: {dx_divisor: 4, dt_divisor: 16}",
              f"compare: {{times: [{', '.join(str(t) for t in times)}], norm: rmse}}"]
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--fhn", type=Path, default=ROOT / "build" / "fhn")
    parser.add_argument("--output", type=Path, default=ROOT / "output" / "adaptive_check")
    parser.add_argument("--only", default="*", help="run the cases whose name matches (fnmatch)")
    parser.add_argument("--tolerance", type=float, default=3e-4)
    args = parser.parse_args()
    args.output.mkdir(parents=True, exist_ok=True)
    failed = []
    print("| case | base nodes | uniform RMSE | tolerance | adaptive RMSE | largest ratio | "
          "largest distance | mean nodes | nodes at the end |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, base, settings, times in cases():
        if not fnmatch.fnmatch(name, args.only):
            continue
        study = args.output / f"{name}.yaml"
        study.write_text(study_text(name, base, settings, times, args.tolerance))
        result = subprocess.run([str(args.fhn), "converge", str(study), "--output",
                                 str(args.output / name)], capture_output=True, text=True)
        if result.returncode != 0:
            sys.exit(f"adaptive_check: {name}: fhn converge exited {result.returncode}\n"
                     f"{result.stderr}")
        with open(args.output / name / "adaptive.csv", newline="") as f:
            rows = list(csv.DictReader(f))
        tolerances = sorted({float(r["tolerance"]) for r in rows}, reverse=True)
        for k, tolerance in enumerate(tolerances):
            mine = [r for r in rows if float(r["tolerance"]) == tolerance]
            last = mine[-1]
            worst = max(float(r["ratio"]) for r in mine)
            distance = max(float(r["grid_ratio"]) for r in mine)
            if worst > BOUND[k]:
                failed.append(f"{name} at {tolerance:g}: ratio {worst:.3f} > {BOUND[k]}")
            print(f"| {name if k == 0 else ''} | {last['base_nodes'] if k == 0 else ''} | "
                  f"{float(last['uniform_error']):.3g} | {tolerance:g} | "
                  f"{float(last['adaptive_error']):.3g} | {worst:.3f} | {distance:.3f} | "
                  f"{float(last['mean_nodes']):.1f} | {last['adaptive_nodes']} |", flush=True)
    for line in failed:
        print(f"adaptive_check: FAILED {line}", file=sys.stderr)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
