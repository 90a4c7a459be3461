#!/usr/bin/env python3
"""Plots of a parameter sweep (`fhn sweep`): with one axis, each measurement against the axis
value, one panel per measurement; with two axes, a heat map of a measurement over the grid of
values, one per measurement. Failed members are drawn as red crosses (one axis) or hatched cells
(two axes).

    tools/plot_sweep.py output/restitution/sweep.csv [--y last_speed apd@75] [-o OUT.png]
    tools/plot_sweep.py output/pulse_speed/sweep.csv --y speed propagated
    tools/plot_sweep.py output/<name>/sweep.csv --where model.gamma=2 [--where ...]

Reads the sweep.csv written by `fhn sweep`; its axes are the columns between `member` and
`status`, empty cells are values that were not measured. Default measurements: speed,
last_speed, propagated and the apd@ columns with one axis, propagated with two. A sweep of more
than two axes needs all but two fixed with --where KEY=VALUE, which keeps only the rows with
that axis value. With one axis, where `propagated` switches from 0 to 1 the threshold (halfway
between the smallest value that propagates and the largest one below it that does not, as
summary.json's propagation entry; geometric mean on a log axis) is drawn and printed.
Writes OUT.png (default: the CSV's name with .png, beside it) and prints its path.
"""
import argparse
import csv
import math
import os
import sys

try:
    import numpy as np
except ImportError:  # reported by main() after --help had its chance
    np = None

PROGRAM = "plot_sweep.py"
TEXT_COLUMNS = ("status", "reason")


class SweepError(Exception):
    """The CSV or the options do not make a plot."""


def fmt(value):
    """An axis value as the CSV would write it: 85, 0.001, 2.5e-05."""
    return f"{value:.12g}"


def tick(value):
    """An axis value short enough for a tick label."""
    return f"{value:.4g}"


def describe(column):
    """A longer label of a sweep.csv column, for axes and colour bars."""
    simple = {
        "speed": "speed (first pulse)",
        "last_speed": "speed of the last stimulated pulse",
        "propagated": "propagated (to the last probe)",
        "final_max_v": "final_max_v (max v at the end)",
        "newton_mean_iterations": "Newton iterations per step (mean)",
        "newton_max_iterations": "Newton iterations per step (max)",
    }
    if column in simple:
        return simple[column]
    what, _, x = column.partition("@")
    prefix = {"pulses": "pulses at x = ", "activation": "first activation time at x = ",
              "apd": "APD at x = "}
    return prefix[what] + x if x and what in prefix else column


# ---- Reading ----------------------------------------------------------------------------------

class Sweep:
    """The rows of a sweep.csv: axis values, status, reason and the numeric measurements."""

    def __init__(self, path):
        self.path = path
        try:
            with open(path, newline="") as f:
                rows = list(csv.reader(f))
        except OSError as error:
            raise SweepError(f"cannot read {path}: {error.strerror}") from error
        except (csv.Error, UnicodeDecodeError) as error:
            raise SweepError(f"{path}: not a CSV file ({error})") from error
        if not rows:
            raise SweepError(f"{path}: empty file")
        header = rows[0]
        if not header or header[0] != "member" or "status" not in header:
            raise SweepError(f"{path}: not a sweep.csv from fhn sweep (expected a header "
                             f"'member,<axis keys>,status,...', got '{','.join(header)[:60]}...')")
        status_at = header.index("status")
        self.axes = header[1:status_at]
        if not self.axes:
            raise SweepError(f"{path}: no axis columns between 'member' and 'status'")
        self.measurements = [c for c in header[status_at + 1:] if c not in TEXT_COLUMNS]
        self.values = {key: [] for key in self.axes}  # axis key -> floats per row
        self.columns = {c: [] for c in self.measurements}  # measurement -> floats (nan) per row
        self.member, self.status, self.reason = [], [], []
        for line, row in enumerate(rows[1:], start=2):
            if not row:
                continue
            if len(row) != len(header):
                raise SweepError(f"{path}:{line}: {len(row)} fields, the header has {len(header)}")
            cells = dict(zip(header, row))
            self.member.append(cells["member"])
            self.status.append(cells["status"].strip())
            self.reason.append(cells.get("reason", "").strip())
            for key in self.axes:
                try:
                    self.values[key].append(float(cells[key]))
                except ValueError:
                    raise SweepError(f"{path}:{line}: axis {key}: '{cells[key]}' is not a number") from None
            for column in self.measurements:
                text = cells[column].strip()
                try:
                    self.columns[column].append(float(text) if text else math.nan)
                except ValueError:
                    raise SweepError(f"{path}:{line}: {column}: '{text}' is not a number") from None
        if not self.member:
            raise SweepError(f"{path}: no members (only the header)")
        self.values = {k: np.array(v) for k, v in self.values.items()}
        self.columns = {k: np.array(v) for k, v in self.columns.items()}
        self.status = np.array(self.status)
        self.failed = self.status != "ok"

    def __len__(self):
        return len(self.member)

    def keep(self, mask):
        """Only the rows where mask is true."""
        self.values = {k: v[mask] for k, v in self.values.items()}
        self.columns = {k: v[mask] for k, v in self.columns.items()}
        self.member = [m for m, keep in zip(self.member, mask) if keep]
        self.reason = [r for r, keep in zip(self.reason, mask) if keep]
        self.status = self.status[mask]
        self.failed = self.failed[mask]

    def measured(self, column):
        """The column with the failed members' cells as NaN (their 0s are not measurements)."""
        return np.where(self.failed, np.nan, self.columns[column])


def distinct(values):
    """The sorted distinct values, equal within a relative 1e-9 merged."""
    out = []
    for v in np.sort(values):
        if not out or not close(out[-1], v):
            out.append(float(v))
    return np.array(out)


def close(a, b):
    return abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1e-300)


def apply_where(sweep, conditions):
    """Keeps the rows matching every KEY=VALUE; returns {key: value} of the fixed axes."""
    fixed = {}
    for condition in conditions:
        key, equals, text = condition.partition("=")
        key, text = key.strip(), text.strip()
        if not equals or not key or not text:
            example = key if key in sweep.axes else sweep.axes[0]
            raise SweepError(f"--where {condition}: expected KEY=VALUE, e.g. --where {example}="
                             f"{fmt(sweep.values[example][0])}")
        if key not in sweep.axes:
            raise SweepError(f"--where {condition}: '{key}' is not an axis of {sweep.path}; "
                             f"its axes: {', '.join(sweep.axes)}")
        try:
            value = float(text)
        except ValueError:
            raise SweepError(f"--where {condition}: '{text}' is not a number") from None
        available = distinct(sweep.values[key])
        match = np.array([close(v, value) for v in sweep.values[key]], dtype=bool)
        if not match.any():
            raise SweepError(f"--where {condition}: no row{' left' if fixed else ''} with "
                             f"{key} = {fmt(value)}; its values: {', '.join(fmt(v) for v in available)}")
        sweep.keep(match)
        fixed[key] = value
    return fixed


def choose_axes(sweep, fixed):
    """The one or two axes to plot against: those not fixed by --where that vary."""
    free = [k for k in sweep.axes if k not in fixed]
    if not free:
        raise SweepError("--where fixes every axis; leave one or two free to plot against")
    varying = [k for k in free if len(distinct(sweep.values[k])) > 1]
    if len(varying) > 2:
        hints = " ".join(f"--where {k}={fmt(distinct(sweep.values[k])[0])}" for k in varying[2:])
        values = "; ".join(f"{k}: {', '.join(fmt(v) for v in distinct(sweep.values[k]))}"
                           for k in varying[2:])
        raise SweepError(f"{sweep.path}: {len(varying)} axes vary ({', '.join(varying)}); a plot "
                         f"shows one or two: fix the others with --where KEY=VALUE, e.g. {hints} "
                         f"(values: {values})")
    for key in free:  # axes with one value left are fixed too (shown in the title)
        if key not in varying:
            fixed[key] = float(sweep.values[key][0])
    return varying or free[:1]


def check_columns(sweep, wanted):
    unknown = [c for c in wanted if c not in sweep.measurements]
    if unknown:
        raise SweepError(f"--y: no column {', '.join(repr(c) for c in unknown)} in {sweep.path}; "
                         f"its measurements: {' '.join(sweep.measurements)}")
    return list(dict.fromkeys(wanted))


# ---- Axis scales ------------------------------------------------------------------------------

def scale_of(values):
    """'log' for geometric values (3 or more, positive, constant ratio), 'linear' for evenly
    spaced ones (or fewer than 3), else 'index' (drawn in order, ticks labelled with values)."""
    if len(values) < 3:
        return "log" if len(values) == 2 and values[0] > 0 and values[1] / values[0] >= 10 else "linear"
    steps = np.diff(values)
    if np.allclose(steps, steps[0], rtol=1e-6, atol=0):
        return "linear"
    if values[0] > 0:
        ratios = values[1:] / values[:-1]
        if np.allclose(ratios, ratios[0], rtol=1e-6, atol=0):
            return "log"
    return "index"


def cell_edges(values, scale):
    """Edges of the cells centred on the values (or their indices), for pcolormesh."""
    if scale == "index":
        return np.arange(len(values) + 1) - 0.5
    if len(values) == 1:  # a cell of width |v| (1 at 0)
        half = abs(values[0]) / 2 or 0.5
        return values[0] + np.array([-half, half])
    if scale == "log":
        inner = np.sqrt(values[1:] * values[:-1])
        first, last = values[0] ** 2 / inner[0], values[-1] ** 2 / inner[-1]
    else:
        inner = (values[1:] + values[:-1]) / 2
        first, last = 2 * values[0] - inner[0], 2 * values[-1] - inner[-1]
    return np.concatenate([[first], inner, [last]])


def set_scale(ax, which, values, scale):
    """Applies the scale to ax's x or y axis, with the values as ticks where they are few."""
    set_ax_scale = ax.set_xscale if which == "x" else ax.set_yscale
    set_ticks = ax.set_xticks if which == "x" else ax.set_yticks
    set_labels = ax.set_xticklabels if which == "x" else ax.set_yticklabels
    if scale == "log":
        set_ax_scale("log")
    if scale == "index":
        step = max(1, math.ceil(len(values) / 12))
        set_ticks(range(0, len(values), step))
        set_labels([tick(v) for v in values[::step]], rotation=45 if which == "x" else 0)
        return
    if len(values) <= 12:  # the actual values as ticks (not only the decades of a log axis)
        from matplotlib.ticker import FixedLocator, FixedFormatter, NullLocator
        axis = ax.xaxis if which == "x" else ax.yaxis
        axis.set_major_locator(FixedLocator(values))
        axis.set_major_formatter(FixedFormatter([tick(v) for v in values]))
        axis.set_minor_locator(NullLocator())


# ---- One axis ---------------------------------------------------------------------------------

def propagation_threshold(sweep, key):
    """(smallest propagating, largest non-propagating below it) along the axis, as summary.json's
    propagation entry (a failed member counts as not propagating); None where there is none."""
    x = sweep.values[key]
    propagated = sweep.columns["propagated"] == 1
    smallest = x[propagated].min() if propagated.any() else None
    below = ~propagated & (x < smallest) if smallest is not None else ~propagated
    largest = x[below].max() if below.any() else None
    return smallest, largest


def plot_one_axis(plt, sweep, key, columns, title):
    order = np.argsort(sweep.values[key], kind="stable")
    x = sweep.values[key][order]
    failed = sweep.failed[order]
    scale = scale_of(distinct(x))
    count = len(columns)
    across = 1 if count <= 4 else 2
    down = (count + across - 1) // across
    fig, axes = plt.subplots(down, across, figsize=(7.0 * across, 1.2 + 2.4 * down),
                             sharex=True, squeeze=False)
    axes = axes.ravel()
    for ax in axes[count:]:
        ax.set_visible(False)

    threshold = None
    if "propagated" in sweep.columns:
        smallest, largest = propagation_threshold(sweep, key)
        if smallest is not None and largest is not None:
            threshold = math.sqrt(smallest * largest) if scale == "log" else (smallest + largest) / 2
            failure = any(close(v, largest) for v in sweep.values[key][sweep.failed])
            print(f"{key}: smallest value that propagates {fmt(smallest)}, largest below it that "
                  f"fails {fmt(largest)}{' (a numerical failure)' if failure else ''}: "
                  f"threshold ~ {threshold:.6g}")
        elif smallest is not None:
            print(f"{key}: propagates from the smallest value swept, {fmt(smallest)}")
        else:
            print(f"{key}: no member propagates")

    values = distinct(x)
    px = x if scale != "index" else np.array([np.argmin(np.abs(values - v)) for v in x], dtype=float)
    for ax, column in zip(axes, columns):
        y = sweep.measured(column)[order]
        if (~np.isnan(y)).any():
            ax.plot(px, y, "o-", color="C0", ms=3.5, lw=1.5)  # gaps where not measured
        else:
            ax.text(0.5, 0.5, "not measured in any member", transform=ax.transAxes,
                    ha="center", va="center", color="0.4")
        if failed.any():  # at the bottom of the panel, whatever its y range
            ax.plot(px[failed], np.full(failed.sum(), 0.03), "x", color="red", ms=8, mew=2,
                    transform=ax.get_xaxis_transform(), clip_on=False, label="numerical failure")
        if threshold is not None:
            where = threshold if scale != "index" else np.interp(threshold, values, np.arange(len(values)))
            ax.axvline(where, color="k", ls="--", lw=1,
                       label=f"propagation threshold ~ {threshold:.6g}")
        if column == "propagated":
            ax.set_yticks([0, 1])
            ax.set_ylim(-0.15, 1.15)
        ax.set_ylabel(column)
        ax.set_title(describe(column), fontsize=9, loc="left")
        ax.grid(True, which="both", alpha=0.3)
    if axes[0].get_legend_handles_labels()[0]:  # the same in every panel: once
        axes[0].legend(fontsize=7, loc="best")
    for ax in axes[:count]:
        set_scale(ax, "x", values, scale)
    for ax in axes[max(0, count - across):count]:
        ax.set_xlabel(key)
        ax.tick_params(labelbottom=True)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return fig


# ---- Two axes ---------------------------------------------------------------------------------

def plot_two_axes(plt, sweep, keys, columns, title):
    from matplotlib.colors import BoundaryNorm, ListedColormap
    from matplotlib.patches import Patch, Rectangle

    kx, ky = keys
    xs, ys = distinct(sweep.values[kx]), distinct(sweep.values[ky])
    sx, sy = scale_of(xs), scale_of(ys)
    ix = np.array([np.argmin(np.abs(xs - v)) for v in sweep.values[kx]])
    iy = np.array([np.argmin(np.abs(ys - v)) for v in sweep.values[ky]])
    cells = set()
    duplicates = 0
    for i, j in zip(ix, iy):
        duplicates += (i, j) in cells
        cells.add((i, j))
    if duplicates:
        print(f"{PROGRAM}: warning: {duplicates} rows share their ({kx}, {ky}) with an earlier "
              f"one; the heat map shows the last (fix other axes with --where?)", file=sys.stderr)
    ex, ey = cell_edges(xs, sx), cell_edges(ys, sy)

    count = len(columns)
    across = min(count, 2)
    down = (count + across - 1) // across
    fig, axes = plt.subplots(down, across, figsize=(6.6 * across, 0.8 + 5.0 * down), squeeze=False)
    axes = axes.ravel()
    for ax in axes[count:]:
        ax.set_visible(False)
    for ax, column in zip(axes, columns):
        grid = np.full((len(ys), len(xs)), np.nan)
        failed = np.zeros_like(grid, dtype=bool)
        missing = np.ones_like(grid, dtype=bool)
        values = sweep.measured(column)
        for i, j, value, bad in zip(ix, iy, values, sweep.failed):
            grid[j, i], failed[j, i], missing[j, i] = value, bad, False
        ax.set_facecolor("0.85")  # cells with no value
        if column == "propagated":
            cmap = ListedColormap(["#d9d9f0", "#2b8c3e"])
            mesh = ax.pcolormesh(ex, ey, np.ma.masked_invalid(grid), cmap=cmap,
                                 norm=BoundaryNorm([-0.5, 0.5, 1.5], cmap.N))
            bar = fig.colorbar(mesh, ax=ax, ticks=[0, 1])
            bar.ax.set_yticklabels(["0: no", "1: yes"])
        else:
            mesh = ax.pcolormesh(ex, ey, np.ma.masked_invalid(grid), cmap="viridis")
            bar = fig.colorbar(mesh, ax=ax)
        bar.set_label(describe(column))
        for j, i in zip(*np.nonzero(failed)):
            ax.add_patch(Rectangle((ex[i], ey[j]), ex[i + 1] - ex[i], ey[j + 1] - ey[j],
                                   fill=False, hatch="xxx", edgecolor="red", lw=0.8))
        handles = []
        if failed.any():
            handles.append(Patch(facecolor="none", edgecolor="red", hatch="xxx",
                                 label=f"numerical failure ({failed.sum()})"))
        grey = [what for what, mask in (("not measured", np.isnan(grid) & ~failed & ~missing),
                                        ("no member", missing)) if mask.any()]
        if grey:
            handles.append(Patch(facecolor="0.85", edgecolor="0.6", label=" / ".join(grey)))
        if handles:
            ax.legend(handles=handles, fontsize=7, loc="upper left", bbox_to_anchor=(0, -0.12),
                      ncol=len(handles), frameon=False)
        set_scale(ax, "x", xs, sx)
        set_scale(ax, "y", ys, sy)
        ax.set_xlim(ex[0], ex[-1])
        ax.set_ylim(ey[0], ey[-1])
        ax.set_xlabel(kx)
        ax.set_ylabel(ky)
        ax.set_title(column, fontsize=10)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return fig


# ---- Main -------------------------------------------------------------------------------------

def default_title(sweep, fixed, total):
    name = os.path.basename(os.path.dirname(os.path.abspath(sweep.path)))
    failed = int(sweep.failed.sum())
    title = f"{name}: {len(sweep)} members" + (f" (of {total})" if len(sweep) != total else "")
    title += f", {failed} failed" if failed else ", none failed"
    if fixed:
        title += "\n" + ", ".join(f"{k} = {fmt(v)}" for k, v in fixed.items())
    return title


def report_failures(sweep, keys):
    bad = np.nonzero(sweep.failed)[0]
    for n in bad[:10]:
        where = ", ".join(f"{k} = {fmt(sweep.values[k][n])}" for k in keys)
        reason = f": {sweep.reason[n]}" if sweep.reason[n] else ""
        print(f"member {sweep.member[n]} ({where}) {sweep.status[n]}{reason}")
    if len(bad) > 10:
        print(f"... and {len(bad) - 10} more failed members")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("csv", help="sweep.csv from fhn sweep")
    parser.add_argument("--y", nargs="+", metavar="COL",
                        help="the measurements to plot, column names of the header (default: speed "
                             "last_speed propagated apd@... with one axis, propagated with two)")
    parser.add_argument("--where", action="append", default=[], metavar="KEY=VALUE",
                        help="keep only the rows with this axis value (repeatable); a sweep of more "
                             "than two axes needs all but two fixed")
    parser.add_argument("-o", "--output", help="PNG to write (default: the CSV's name with .png)")
    parser.add_argument("--title", help="the figure's title (default: the sweep's folder, the "
                                        "member count and the --where values)")
    args = parser.parse_args()
    if np is None:
        sys.exit(f"{PROGRAM} needs numpy and matplotlib (Debian: python3-numpy python3-matplotlib; "
                 "run with /usr/bin/python3)")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit(f"{PROGRAM} needs matplotlib (Debian: python3-matplotlib; run with /usr/bin/python3)")

    try:
        sweep = Sweep(args.csv)
        total = len(sweep)
        fixed = apply_where(sweep, args.where)
        keys = choose_axes(sweep, fixed)
        if args.y:
            columns = check_columns(sweep, args.y)
        elif len(keys) == 1:
            columns = [c for c in sweep.measurements
                       if c in ("speed", "last_speed", "propagated") or c.startswith("apd@")]
        else:
            columns = check_columns(sweep, ["propagated"])
        if not columns:
            raise SweepError(f"{sweep.path}: none of the default measurements; choose with --y "
                             f"from: {' '.join(sweep.measurements)}")
    except SweepError as error:
        sys.exit(f"{PROGRAM}: {error}")

    title = args.title if args.title is not None else default_title(sweep, fixed, total)
    report_failures(sweep, keys)
    if len(keys) == 1:
        fig = plot_one_axis(plt, sweep, keys[0], columns, title)
    else:
        fig = plot_two_axes(plt, sweep, keys, columns, title)
    output = args.output or os.path.splitext(args.csv)[0] + ".png"
    try:
        fig.savefig(output, dpi=120)
    except OSError as error:
        sys.exit(f"{PROGRAM}: cannot write {output}: {error.strerror}")
    print(output)


if __name__ == "__main__":
    main()
