#!/usr/bin/env python3
"""Work-precision diagram of a work-precision study: relative error of the measured quantity
against the time each run took, log-log, one line per method, each point labelled with its dt
(and its dx where the method's runs differ in dx).
Down and to the left is better; where two lines cross, the faster method changes.

    tools/plot_work_precision.py output/<study>/work_precision.csv [more.csv ...] [-o OUT.png]
                                 [--title TITLE]

Reads the work_precision.csv written by `fhn converge` (study: work_precision); several CSVs
(e.g. the same study on the CPU and on a GPU) go on one diagram, their methods prefixed with
the CSV's folder name. Writes OUT.png (default: work_precision.png beside the first CSV).
"""
import argparse
import csv
import os
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("csv", nargs="+", help="work_precision.csv from fhn converge")
    parser.add_argument("-o", "--output", help="PNG to write (default: work_precision.png beside the first CSV)")
    parser.add_argument("--title", help="the diagram's title (default: the first CSV's folder name)")
    args = parser.parse_args()
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("plot_work_precision.py needs matplotlib (Debian: python3-matplotlib; run with /usr/bin/python3)")

    fig, ax = plt.subplots(figsize=(6.4, 4.8))
    quantity = None
    for path in args.csv:
        with open(path, newline="") as f:
            reader = csv.DictReader(f)
            if reader.fieldnames is None or "relative_error" not in reader.fieldnames:
                sys.exit(f"{path}: not a work_precision.csv (no relative_error column)")
            quantity = reader.fieldnames[2]
            rows = list(reader)
        prefix = os.path.basename(os.path.dirname(os.path.abspath(path))) + ": " if len(args.csv) > 1 else ""
        methods = {}
        for row in rows:
            if row["relative_error"]:  # a run without the quantity has no point
                methods.setdefault(row["method"], []).append(
                    (float(row["seconds"]), float(row["relative_error"]), row["dt"], row.get("dx") or ""))
        for index, (method, points) in enumerate(methods.items()):
            points.sort()
            line, = ax.loglog([p[0] for p in points], [p[1] for p in points], "o-", label=prefix + method)
            show_dx = len({p[3] for p in points}) > 1  # CSVs before the dx column have none
            for seconds, error, dt, dx in points:
                label = f"dt {float(dt):g}" + (f", dx {float(dx):g}" if show_dx else "")
                ax.annotate(label, (seconds, error), textcoords="offset points",
                            xytext=(4, 3 - 9 * (index % 3)), fontsize=7, color=line.get_color())
    ax.set_xlabel("seconds (stepping and fetching frames)")
    ax.set_ylabel(f"relative error of {quantity}")
    ax.set_title(args.title or os.path.basename(os.path.dirname(os.path.abspath(args.csv[0]))))
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    output = args.output or os.path.join(os.path.dirname(args.csv[0]), "work_precision.png")
    fig.tight_layout()
    fig.savefig(output, dpi=120)
    print(output)


if __name__ == "__main__":
    main()
