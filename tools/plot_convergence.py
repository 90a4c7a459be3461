#!/usr/bin/env python3
"""Log-log plot of a convergence study: error against the refined parameter (dt or dx), one
line per comparison time, with reference slopes of order 1 and 2.

    tools/plot_convergence.py output/<study>/convergence.csv [-o OUT.png]

Reads the convergence.csv written by `fhn converge`; writes OUT.png (default: next to the CSV).
"""
import argparse
import csv
import os
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("csv", help="convergence.csv from fhn converge")
    parser.add_argument("-o", "--output", help="PNG to write (default: convergence.png beside the CSV)")
    args = parser.parse_args()
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("plot_convergence.py needs matplotlib (Debian: python3-matplotlib; run with /usr/bin/python3)")

    with open(args.csv, newline="") as f:
        reader = csv.DictReader(f)
        parameter = reader.fieldnames[2]  # time.dt or domain.dx
        rows = list(reader)
    if not rows:
        sys.exit(f"{args.csv}: no rows")
    by_time = {}
    for row in rows:
        by_time.setdefault(float(row["time"]), []).append((float(row[parameter]), float(row["error"])))

    fig, ax = plt.subplots(figsize=(6.4, 4.8))
    for t, points in sorted(by_time.items()):
        points.sort()
        ax.loglog([p for p, _ in points], [e for _, e in points], "o-", label=f"t = {t:g}")
    # Reference slopes through the finest point of the first time.
    first = sorted(next(iter(sorted(by_time.items())))[1])
    h0, e0 = first[0]
    h1 = first[-1][0]
    for order, style in ((1, ":"), (2, "--")):
        ax.loglog([h0, h1], [e0, e0 * (h1 / h0) ** order], "k" + style, lw=1, label=f"order {order}")
    symbol = "dt" if parameter.endswith("dt") else "dx"
    ax.set_xlabel(f"{symbol} ({parameter})")
    ax.set_ylabel("error")
    ax.set_title(os.path.basename(os.path.dirname(os.path.abspath(args.csv))))
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    output = args.output or os.path.join(os.path.dirname(args.csv), "convergence.png")
    fig.tight_layout()
    fig.savefig(output, dpi=120)
    print(output)


if __name__ == "__main__":
    main()
