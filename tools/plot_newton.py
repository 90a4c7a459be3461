#!/usr/bin/env python3
"""Newton convergence per tridiagonal solver: ||du||_inf against the iteration number for the
steps of a Newton study (semilog), one colour per solver, with the quadratic-convergence line
d_{k+1} = d_k^2 for comparison.

    tools/plot_newton.py output/<study>/newton.csv [-o OUT.png] [--steps N]

Reads the newton.csv written by `fhn converge` (a newton study) or by `fhn run` with
output.newton_log: true.
"""
import argparse
import csv
import os
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("csv", help="newton.csv")
    parser.add_argument("-o", "--output", help="PNG to write (default: newton.png beside the CSV)")
    parser.add_argument("--steps", type=int, default=20, help="how many steps to draw per solver (default 20)")
    args = parser.parse_args()
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.ticker import MaxNLocator
    except ImportError:
        sys.exit("plot_newton.py needs matplotlib (Debian: python3-matplotlib; run with /usr/bin/python3)")

    runs = {}  # solver -> step -> [du per iteration]
    with open(args.csv, newline="") as f:
        for row in csv.DictReader(f):
            solver = row.get("solver", "run")
            runs.setdefault(solver, {}).setdefault(int(row["step"]), []).append(float(row["du_inf"]))
    if not runs:
        sys.exit(f"{args.csv}: no rows")

    fig, ax = plt.subplots(figsize=(6.4, 4.8))
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for index, (solver, steps) in enumerate(sorted(runs.items())):
        colour = colours[index % len(colours)]
        for n, step in enumerate(sorted(steps)[: args.steps]):
            du = steps[step]
            ax.semilogy(range(1, len(du) + 1), du, "o-", color=colour, alpha=0.5, lw=1,
                        label=solver if n == 0 else None)
    first = next(iter(next(iter(runs.values())).values()))
    quadratic = [first[0]]
    while len(quadratic) < len(first):
        quadratic.append(quadratic[-1] ** 2)
    ax.semilogy(range(1, len(quadratic) + 1), quadratic, "k--", lw=1, label="d_{k+1} = d_k^2")
    ax.axhline(2.0 ** -52, color="grey", lw=0.8, ls=":")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("Newton iteration k")
    ax.set_ylabel("||du_k||_inf")
    ax.set_title(os.path.basename(os.path.dirname(os.path.abspath(args.csv))))
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    output = args.output or os.path.join(os.path.dirname(args.csv), "newton.png")
    fig.tight_layout()
    fig.savefig(output, dpi=120)
    print(output)


if __name__ == "__main__":
    main()
