#!/usr/bin/env python3
"""The pseudo-ECG of a run against time, from its ecg.csv: one trace per electrode.

    tools/plot_ecg.py output/<name>/ecg.csv [-o OUT.png] [--stacked]

Reads the ecg.csv written by `fhn run` with output.ecg (header t,phi@(x y ...),..., one row per
sample; the potential phi = K integral of (-D grad v) . grad(1/r) over the tissue, K = 1: a front
approaching the electrode draws upwards, one leaving downwards) and draws each electrode's
trace against t, all on one axis, or with --stacked one axis per electrode sharing t. Where
summary.json beside the CSV has the ECG's extremes, each trace's largest and smallest values
are marked. Where a restarted run wrote a sample again, its last row counts. Writes OUT.png
(default: ecg.png beside the CSV) and prints its name.
"""
import argparse
import csv
import json
import sys
from pathlib import Path


class EcgError(Exception):
    """ecg.csv is not what fhn run writes, or holds nothing to draw."""


def read_ecg(path):
    """(electrode names, times, one list of values per electrode) of an ecg.csv."""
    try:
        with open(path, newline="") as file:
            rows = list(csv.reader(file))
    except OSError as error:
        raise EcgError(f"{path}: {error.strerror or error}") from error
    if not rows or len(rows[0]) < 2 or rows[0][0] != "t" or not all(
            name.startswith("phi@") for name in rows[0][1:]):
        raise EcgError(f"{path}: expected the header t,phi@(...),... of an ecg.csv")
    names = [name[len("phi@"):] for name in rows[0][1:]]
    samples = {}  # t -> values; a sample written again after a restart replaces the first
    for number, row in enumerate(rows[1:], start=2):
        if not row:
            continue
        if len(row) != len(names) + 1:
            raise EcgError(f"{path}:{number}: {len(row)} fields where the header has "
                           f"{len(names) + 1}")
        try:
            values = [float(field) for field in row]
        except ValueError as error:
            raise EcgError(f"{path}:{number}: {error}") from error
        samples[values[0]] = values[1:]
    if not samples:
        raise EcgError(f"{path}: no samples")
    times = sorted(samples)
    traces = [[samples[t][e] for t in times] for e in range(len(names))]
    return names, times, traces


def summary_extremes(path):
    """summary.json's ecg electrodes beside the CSV by name ({} when it has none)."""
    try:
        electrodes = json.loads(path.read_text())["ecg"]["electrodes"]
        return {e["at"]: e for e in electrodes if e.get("max") is not None}
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def plot(path, out, stacked, plt):
    names, times, traces = read_ecg(path)
    extremes = summary_extremes(path.parent / "summary.json")
    rows = len(names) if stacked else 1
    fig, axes = plt.subplots(rows, 1, sharex=True, squeeze=False,
                             figsize=(8, 2.2 + 1.6 * rows if stacked else 4.5))
    for e, (name, trace) in enumerate(zip(names, traces)):
        ax = axes[e if stacked else 0][0]
        line, = ax.plot(times, trace, lw=1.2, label=f"electrode {name}")
        if name in extremes:
            x = extremes[name]
            ax.plot([x["t_max"], x["t_min"]], [x["max"], x["min"]], "o", ms=4,
                    color=line.get_color())
        ax.axhline(0.0, color="0.7", lw=0.6)
        ax.set_ylabel("phi" if not stacked else f"phi {name}")
        if not stacked:
            ax.legend(fontsize=8)
    axes[-1][0].set_xlabel("t")
    fig.suptitle(f"pseudo-ECG: {path}", fontsize=9)
    fig.tight_layout()
    fig.savefig(out, dpi=150)
    plt.close(fig)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("csv", type=Path, help="ecg.csv of a run, output/<name>/ecg.csv")
    parser.add_argument("-o", "--output", type=Path,
                        help="PNG to write (default: ecg.png beside the CSV)")
    parser.add_argument("--stacked", action="store_true",
                        help="one axis per electrode (default: all traces on one axis)")
    args = parser.parse_args()
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("plot_ecg.py needs matplotlib (Debian: apt install python3-matplotlib, then run "
                 "with that python3, e.g. /usr/bin/python3)")
    out = args.output or args.csv.parent / "ecg.png"
    try:
        plot(args.csv, out, args.stacked, plt)
    except EcgError as error:
        sys.exit(str(error))
    except OSError as error:  # the PNG could not be written
        sys.exit(f"{out}: {error.strerror or error}")
    print(out)


if __name__ == "__main__":
    main()
