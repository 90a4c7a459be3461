#!/usr/bin/env python3
"""Plots of a parameter sweep (`fhn sweep`): with one axis, each measurement against the axis
value, one panel per measurement; with two axes, a heat map of a measurement over the grid of
values, one per measurement. Failed members are drawn as red crosses (one axis) or hatched cells
(two axes). A sweep of a sheet (a `class` column) draws its spiral-behaviour phase diagram.

    tools/plot_sweep.py output/restitution/sweep.csv [--y last_speed apd@75] [-o OUT.png]
    tools/plot_sweep.py output/pulse_speed/sweep.csv --y speed propagated
    tools/plot_sweep.py output/<name>/sweep.csv --where model.gamma=2 [--where ...]
    tools/plot_sweep.py output/<sheet sweep>/sweep.csv [--y class period] [--tips]
                        [--boundaries BOUNDARIES.csv]

Reads the sweep.csv written by `fhn sweep`; its axes are the columns between `member` and
`status`, empty cells are values that were not measured. Default measurements: speed,
last_speed, propagated and the apd@ columns with one axis, propagated with two. A sweep of more
than two axes needs all but two fixed with --where KEY=VALUE, which keeps only the rows with
that axis value. With one axis, where `propagated` switches from 0 to 1 the threshold (halfway
between the smallest value that propagates and the largest one below it that does not, as
summary.json's propagation entry; geometric mean on a log axis) is drawn and printed.

Sheet sweeps: `class` holds the principal tip path's class (rigid, meander, drift, retract,
breakup, no_wave, none, unclassified, anchored, and no_propagation with measure.planar; empty for
a failed member). With two axes the default (or --y class) is the
phase diagram: one cell per member in its class's colour, over the grid of axis values, or as
squares at the members' values where they fill less than half of that grid (a `zip` sweep); the
panel's title counts the members of each class. With one axis the default is class (a row of
coloured squares) and period. Other columns (period, radius, drift_speed, ...) are drawn as
heat maps or curves as above.
  --tips draws, in each cell of the phase diagram whose member wrote members/<m>/tips.csv (the
  sweep's output.members), the principal tip's path (the rows with tip 0, the last half of their
  time span) scaled to fit the cell, and prints how many it drew.
  --boundaries FILE overlays published boundary curves on the two-axis panels. FILE is a CSV:

      # comment lines start with #
      boundary,<axis key 1>,<axis key 2>[,source]
      rigid/meander,0.05,0.02,Author (year) Fig. N
      rigid/meander,0.10,0.035,Author (year) Fig. N
      meander/drift,...

  the two value columns named by the sweep's two axis keys (either order), the rows of one
  boundary together and in the order the line joins them; each boundary is drawn as a dashed
  line with markers, labelled with its name (and source, where given).
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
TEXT_COLUMNS = ("status", "class", "reason")
# The tip path's classes (src/study/tip_path.hpp), in legend order, with their fixed colours.
CLASS_COLOURS = {
    "rigid": "#1f77b4",
    "meander": "#2ca02c",
    "drift": "#ff7f0e",
    "retract": "#9467bd",
    "breakup": "#8c564b",
    "no_wave": "#ffffff",
    "no_propagation": "#ffffb3",  # sweeps with measure.planar: no planar pulse propagates
    "none": "#c6dbef",            # no frame had a tip
    "unclassified": "#fccde5",    # a tip with fewer than 2 turns in the window
    "anchored": "#b3de69",        # a wave circling an obstacle (fhn run's probes)
}
CLASSES = tuple(CLASS_COLOURS)
NO_VALUE = "0.85"  # cells with no value: no member, not measured, no class


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
        "class": "spiral tip path class",
    }
    if column in simple:
        return simple[column]
    what, _, x = column.partition("@")
    prefix = {"pulses": "pulses at x = ", "activation": "first activation time at x = ",
              "apd": "APD at x = "}
    return prefix[what] + x if x and what in prefix else column


# ---- Reading ----------------------------------------------------------------------------------

class Sweep:
    """The rows of a sweep.csv: axis values, status, reason, the numeric measurements and, of a
    sheet sweep, the tip path's class ("" where there is none; classes is None without the
    column)."""

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
        self.classes = [] if "class" in header else None
        for line, row in enumerate(rows[1:], start=2):
            if not row:
                continue
            if len(row) != len(header):
                raise SweepError(f"{path}:{line}: {len(row)} fields, the header has {len(header)}")
            cells = dict(zip(header, row))
            self.member.append(cells["member"])
            self.status.append(cells["status"].strip())
            self.reason.append(cells.get("reason", "").strip())
            if self.classes is not None:
                kind = cells["class"].strip()
                if kind and kind not in CLASSES:
                    raise SweepError(f"{path}:{line}: class '{kind}' is not one of "
                                     f"{', '.join(CLASSES)} (or empty)")
                self.classes.append(kind)
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
        if self.classes is not None:
            self.classes = np.array(self.classes, dtype=object)

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
        if self.classes is not None:
            self.classes = self.classes[mask]

    def plottable(self):
        """The columns --y takes: the measurements, and class where there is one."""
        return self.measurements + (["class"] if self.classes is not None else [])

    def class_counts(self):
        """'rigid 12, meander 3, failed 1': the members of each class present, in legend order,
        then the failed members and those with no class."""
        parts = [f"{kind} {int((self.classes == kind).sum())}" for kind in CLASSES
                 if (self.classes == kind).any()]
        if self.failed.any():
            parts.append(f"failed {int(self.failed.sum())}")
        unclassified = int(((self.classes == "") & ~self.failed).sum())
        if unclassified:
            parts.append(f"no class {unclassified}")
        return ", ".join(parts)

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
    unknown = [c for c in wanted if c not in sweep.plottable()]
    if unknown:
        raise SweepError(f"--y: no column {', '.join(repr(c) for c in unknown)} in {sweep.path}; "
                         f"its measurements: {' '.join(sweep.plottable())}")
    return list(dict.fromkeys(wanted))


# ---- Tip paths and boundaries ------------------------------------------------------------------

def read_tip_path(path):
    """The principal tip's path in a member's tips.csv (header t,tip,x,y): (x, y) of the rows
    with tip 0 over the last half of their time span, NaN between frames where the path broke
    (a frame without tips, more than 1.5 frame intervals apart); None where it has no tip 0."""
    try:
        with open(path, newline="") as f:
            rows = [row for row in csv.reader(f) if row]
    except OSError as error:
        raise SweepError(f"cannot read {path}: {error.strerror}") from error
    except (csv.Error, UnicodeDecodeError) as error:
        raise SweepError(f"{path}: not a CSV file ({error})") from error
    if not rows or [c.strip() for c in rows[0]] != ["t", "tip", "x", "y"]:
        raise SweepError(f"{path}: expected the header t,tip,x,y of fhn's tips.csv")
    try:
        table = np.array([[float(c) for c in row] for row in rows[1:]], dtype=float).reshape(-1, 4)
    except ValueError as error:
        raise SweepError(f"{path}: {error} (expected rows of 4 numbers t,tip,x,y)") from None
    times = np.unique(table[:, 0])
    principal = table[table[:, 1] == 0]
    if len(principal) == 0:
        return None
    t, x, y = principal[:, 0], principal[:, 2], principal[:, 3]
    late = t >= (t[0] + t[-1]) / 2
    t, x, y = t[late], x[late], y[late]
    if len(times) > 1 and len(t) > 1:
        frame = np.median(np.diff(times))
        breaks = np.nonzero(np.diff(t) > 1.5 * frame)[0] + 1
        x, y = np.insert(x, breaks, np.nan), np.insert(y, breaks, np.nan)
    return x, y


def read_member_tips(sweep):
    """{row: (x, y)} of the principal tip path of each member with members/<m>/tips.csv beside
    the sweep.csv (and a tip 0 in it); prints the members whose file has none."""
    folder = os.path.join(os.path.dirname(os.path.abspath(sweep.path)), "members")
    paths = {}
    for n, member in enumerate(sweep.member):
        path = os.path.join(folder, member.strip(), "tips.csv")
        if os.path.isfile(path):
            paths[n] = path
    if not paths:
        print(f"--tips: no members/<m>/tips.csv in {os.path.dirname(folder)} for the members "
              f"shown (the sweep's output.members write them)")
    tips, empty = {}, []
    for n, path in paths.items():
        path_xy = read_tip_path(path)
        if path_xy is None:
            empty.append(sweep.member[n])
        else:
            tips[n] = path_xy
    if empty:
        print(f"--tips: no principal tip (tip 0) in the tips.csv of member{'s' * (len(empty) > 1)} "
              f"{', '.join(empty[:10])}{' ...' if len(empty) > 10 else ''}")
    return tips


def read_boundaries(path, keys):
    """[(label, x, y)] of a boundaries CSV (module docstring), x and y along keys[0] and keys[1]
    whichever order its columns have."""
    try:
        with open(path, newline="") as f:
            lines = [(n, text) for n, text in enumerate(f, start=1)
                     if text.strip() and not text.lstrip().startswith("#")]
    except OSError as error:
        raise SweepError(f"cannot read --boundaries {path}: {error.strerror}") from error
    except UnicodeDecodeError as error:
        raise SweepError(f"--boundaries {path}: not a text file ({error})") from error
    expected = f"'boundary,{keys[0]},{keys[1]}[,source]' (or the two keys swapped)"
    if not lines:
        raise SweepError(f"--boundaries {path}: empty; expected the header {expected}")
    try:
        rows = list(zip((n for n, _ in lines), csv.reader([text for _, text in lines])))
    except csv.Error as error:
        raise SweepError(f"--boundaries {path}: not a CSV file ({error})") from error
    header_line, header = rows[0]
    header = [c.strip() for c in header]
    if (len(header) not in (3, 4) or header[0] != "boundary" or
            (len(header) == 4 and header[3] != "source")):
        raise SweepError(f"--boundaries {path}:{header_line}: header '{','.join(header)}'; "
                         f"expected {expected}")
    if sorted(header[1:3]) != sorted(keys):
        raise SweepError(f"--boundaries {path}:{header_line}: its columns {header[1]}, "
                         f"{header[2]} are not the axes plotted ({keys[0]}, {keys[1]}); "
                         f"expected the header {expected}")
    swap = header[1] != keys[0]
    groups = {}  # name -> [source, xs, ys, last line]
    previous = None
    for n, row in rows[1:]:
        row = [c.strip() for c in row]
        if len(row) == 3 and len(header) == 4:
            row.append("")
        if len(row) != len(header):
            raise SweepError(f"--boundaries {path}:{n}: {len(row)} fields, the header has "
                             f"{len(header)}")
        name = row[0]
        if not name:
            raise SweepError(f"--boundaries {path}:{n}: no boundary name in the first field")
        try:
            a, b = float(row[1]), float(row[2])
        except ValueError:
            raise SweepError(f"--boundaries {path}:{n}: '{row[1]}', '{row[2]}': expected two "
                             f"numbers ({header[1]}, {header[2]})") from None
        if name in groups and name != previous:
            raise SweepError(f"--boundaries {path}:{n}: boundary '{name}' again after other rows "
                             f"(its rows end at line {groups[name][3]}); keep a boundary's rows "
                             f"together")
        group = groups.setdefault(name, ["", [], [], n])
        group[0] = group[0] or (row[3] if len(row) == 4 else "")
        group[1].append(b if swap else a)
        group[2].append(a if swap else b)
        group[3] = n
        previous = name
    if not groups:
        raise SweepError(f"--boundaries {path}: no rows after the header")
    return [(f"{name} ({source})" if source else name, np.array(xs), np.array(ys))
            for name, (source, xs, ys, _) in groups.items()]


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
        if column == "class":
            class_strip(ax, px, sweep.classes[order], failed)
            ax.set_title(f"{describe(column)}: {sweep.class_counts()}", fontsize=9, loc="left")
            continue
        y = sweep.measured(column)[order]
        if (~np.isnan(y)).any():
            ax.plot(px, y, "o-", color="C0", ms=3.5, lw=1.5)  # gaps where not measured
        else:
            ax.text(0.5, 0.5, "not measured in any member", transform=ax.transAxes,
                    ha="center", va="center", color="0.4")
        if failed.any():  # at the bottom of the panel, whatever its y range
            ax.plot(px[failed], np.full(failed.sum(), 0.03), "x", color="red", ms=8, mew=2,
                    transform=ax.get_xaxis_transform(), clip_on=False, label="failed member")
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
    curves = [ax for ax, column in zip(axes, columns) if column != "class"]
    if curves and curves[0].get_legend_handles_labels()[0]:  # the same in every panel: once
        curves[0].legend(fontsize=7, loc="best")
    for ax in axes[:count]:
        set_scale(ax, "x", values, scale)
    for ax in axes[max(0, count - across):count]:
        ax.set_xlabel(key)
        ax.tick_params(labelbottom=True)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return fig


def class_strip(ax, px, classes, failed):
    """The members' classes along the axis: a coloured square each, failed members a red
    cross, those with no class a grey square; a legend of what is present."""
    for kind in CLASSES:
        at = classes == kind
        if at.any():
            ax.plot(px[at], np.full(at.sum(), 0.4), "s", ms=9, color=CLASS_COLOURS[kind],
                    mec="0.3", mew=0.6, ls="none", label=f"{kind} ({at.sum()})")
    unclassified = (classes == "") & ~failed
    if unclassified.any():
        ax.plot(px[unclassified], np.full(unclassified.sum(), 0.4), "s", ms=9, color=NO_VALUE,
                mec="0.6", mew=0.6, ls="none", label=f"no class ({unclassified.sum()})")
    if failed.any():
        ax.plot(px[failed], np.full(failed.sum(), 0.4), "x", color="red", ms=8, mew=2,
                ls="none", label=f"failed member ({failed.sum()})")
    ax.set_ylim(0, 1)
    ax.set_yticks([])
    ax.grid(True, axis="x", which="both", alpha=0.3)
    handles = ax.get_legend_handles_labels()[0]
    ax.legend(fontsize=7, loc="upper center", ncol=max(1, min(len(handles), 4)), frameon=False,
              numpoints=1)


# ---- Two axes ---------------------------------------------------------------------------------

def placement(values, scale):
    """Maps axis values to the panel's x or y coordinate: themselves, or on an 'index' axis
    their position between the indices of the swept values (extended linearly beyond them)."""
    if scale != "index":
        return lambda v: np.asarray(v, dtype=float)

    def place(v):
        v = np.asarray(v, dtype=float)
        at = np.interp(v, values, np.arange(len(values), dtype=float))
        low, high = v < values[0], v > values[-1]
        at[low] = (v[low] - values[0]) / (values[1] - values[0])
        at[high] = len(values) - 1 + (v[high] - values[-1]) / (values[-1] - values[-2])
        return at
    return place


def draw_boundaries(ax, boundaries, place_x, place_y):
    """The boundary curves, dashed with markers; returns their lines (for a legend)."""
    from matplotlib import patheffects

    colours = ("k", "#e377c2", "#17becf", "#bcbd22", "0.5")  # none of the classes' colours
    outline = [patheffects.withStroke(linewidth=3.2, foreground="white")]
    lines = []
    for n, (label, x, y) in enumerate(boundaries):
        line, = ax.plot(place_x(x), place_y(y), ls="--", marker="o", ms=3.5, lw=1.4,
                        color=colours[n % len(colours)], label=label, zorder=4,
                        path_effects=outline)
        lines.append(line)
    return lines


def draw_tip_insets(ax, boxes, tips):
    """In each data box (x0, x1, y0, y1) of a row with a tip path, the path scaled to fit it
    (equal aspect); returns how many were drawn. Call once the axis scales and limits are set."""
    to_axes = ax.transData - ax.transAxes
    drawn = 0
    for n, (x0, x1, y0, y1) in boxes.items():
        if n not in tips:
            continue
        (a0, b0), (a1, b1) = to_axes.transform([(x0, y0), (x1, y1)])
        margin_x, margin_y = 0.08 * (a1 - a0), 0.08 * (b1 - b0)
        inset = ax.inset_axes([a0 + margin_x, b0 + margin_y, a1 - a0 - 2 * margin_x,
                               b1 - b0 - 2 * margin_y])
        x, y = tips[n]
        single = np.isfinite(x).sum() == 1
        inset.plot(x, y, color="k", lw=0.6, marker="." if single else None, ms=1.5)
        inset.set_aspect("equal", adjustable="datalim")
        inset.margins(0.05)
        inset.axis("off")
        drawn += 1
    return drawn


def class_diagram(ax, sweep, keys, grid, tips, boundaries):
    """The phase diagram of the tip path classes on ax: a cell per member in its class's
    colour, over the grid of values (grid: xs, ys, ix, iy, ex, ey, scales), or squares at the
    members' values where they fill less than half of it; failed members hatched red. Then the
    boundaries, the tip path insets and a legend of what is present. Returns the insets drawn."""
    from matplotlib.collections import PatchCollection
    from matplotlib.colors import BoundaryNorm, ListedColormap
    from matplotlib.patches import Patch, Rectangle

    kx, ky = keys
    xs, ys, ix, iy, ex, ey, (sx, sy) = grid
    owner = {}  # cell -> the row shown in it (the last, as the heat maps)
    for n, cell in enumerate(zip(ix, iy)):
        owner[cell] = n
    code = np.array([CLASSES.index(k) if k else -1 for k in sweep.classes])
    regular = len(owner) >= 0.5 * len(xs) * len(ys)
    boxes = {}  # row -> (x0, x1, y0, y1) in data coordinates
    if regular:
        cells = np.full((len(ys), len(xs)), np.nan)
        for (i, j), n in owner.items():
            if code[n] >= 0:
                cells[j, i] = code[n]
            boxes[n] = (ex[i], ex[i + 1], ey[j], ey[j + 1])
        cmap = ListedColormap([CLASS_COLOURS[k] for k in CLASSES])
        thin = len(xs) <= 60 and len(ys) <= 60
        ax.set_facecolor(NO_VALUE)
        ax.pcolormesh(ex, ey, np.ma.masked_invalid(cells), cmap=cmap,
                      norm=BoundaryNorm(np.arange(len(CLASSES) + 1) - 0.5, cmap.N),
                      edgecolors="0.55" if thin else "face", linewidth=0.3 if thin else 0)
        set_scale(ax, "x", xs, sx)
        set_scale(ax, "y", ys, sy)
        ax.set_xlim(ex[0], ex[-1])
        ax.set_ylim(ey[0], ey[-1])
        place_x, place_y = placement(xs, sx), placement(ys, sy)
        shown = np.zeros(len(sweep), dtype=bool)
        shown[list(owner.values())] = True
    else:  # squares of one size in the axes' (log or linear) coordinates
        sx, sy = ("log" if scale_of(v) == "log" else "linear" for v in (xs, ys))
        forward = {"log": np.log10, "linear": lambda v: np.asarray(v, dtype=float)}
        inverse = {"log": lambda u: 10.0 ** u, "linear": lambda u: u}
        ux, uy = forward[sx](sweep.values[kx]), forward[sy](sweep.values[ky])
        lo_x, span_x = ux.min(), np.ptp(ux) or 1.0
        lo_y, span_y = uy.min(), np.ptp(uy) or 1.0
        u, v = (ux - lo_x) / span_x, (uy - lo_y) / span_y
        if len(u) <= 2000:
            apart = np.maximum(np.abs(u[:, None] - u[None, :]), np.abs(v[:, None] - v[None, :]))
            np.fill_diagonal(apart, np.inf)
            nearest = apart.min(axis=1)
            half = 0.45 * np.median(nearest[np.isfinite(nearest) & (nearest > 0)]
                                    if (np.isfinite(nearest) & (nearest > 0)).any() else [0.1])
        else:
            half = 0.45 / math.sqrt(len(u))
        half = min(max(half, 0.005), 0.06)
        back_x = lambda t: inverse[sx](lo_x + t * span_x)
        back_y = lambda t: inverse[sy](lo_y + t * span_y)
        squares, colours = [], []
        for n in range(len(sweep)):
            x0, x1 = back_x(u[n] - half), back_x(u[n] + half)
            y0, y1 = back_y(v[n] - half), back_y(v[n] + half)
            boxes[n] = (x0, x1, y0, y1)
            squares.append(Rectangle((x0, y0), x1 - x0, y1 - y0))
            colours.append(CLASS_COLOURS[CLASSES[code[n]]] if code[n] >= 0 else NO_VALUE)
        ax.add_collection(PatchCollection(squares, facecolors=colours, edgecolors="0.4",
                                          linewidths=0.5))
        set_scale(ax, "x", xs, sx)
        set_scale(ax, "y", ys, sy)
        ax.set_xlim(back_x(-2 * half), back_x(1 + 2 * half))
        ax.set_ylim(back_y(-2 * half), back_y(1 + 2 * half))
        ax.grid(True, which="major", alpha=0.3)
        ax.set_axisbelow(True)
        place_x = place_y = placement(None, "linear")
        shown = np.ones(len(sweep), dtype=bool)
    for n in np.nonzero(sweep.failed & shown)[0]:
        x0, x1, y0, y1 = boxes[n]
        ax.add_patch(Rectangle((x0, y0), x1 - x0, y1 - y0, fill=False, hatch="xxx",
                               edgecolor="red", lw=0.8))
    lines = draw_boundaries(ax, boundaries, place_x, place_y)
    drawn = draw_tip_insets(ax, boxes, tips) if tips is not None else 0

    handles = []
    for kind in CLASSES:
        count = int(((sweep.classes == kind) & shown).sum())
        if count:
            handles.append(Patch(facecolor=CLASS_COLOURS[kind], edgecolor="0.4",
                                 label=f"{kind} ({count})"))
    failed = int((sweep.failed & shown).sum())
    if failed:
        handles.append(Patch(facecolor=NO_VALUE, edgecolor="red", hatch="xxx",
                             label=f"failed member ({failed})"))
    grey = []
    unclassified = int(((sweep.classes == "") & ~sweep.failed & shown).sum())
    if unclassified:
        grey.append(f"no class ({unclassified})")
    if regular and len(owner) < len(xs) * len(ys):
        grey.append("no member")
    if grey:
        handles.append(Patch(facecolor=NO_VALUE, edgecolor="0.6", label=" / ".join(grey)))
    ax.legend(handles=handles + lines, fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1),
              borderaxespad=0, frameon=False)
    ax.set_xlabel(kx)
    ax.set_ylabel(ky)
    ax.set_title(f"{describe('class')}: {sweep.class_counts()}", fontsize=9)
    return drawn


def plot_two_axes(plt, sweep, keys, columns, title, tips=None, boundaries=()):
    """Heat maps of the columns (class: the phase diagram, class_diagram) over the two axes,
    with the boundaries on every panel and, with tips (read_member_tips), the tip paths in
    the phase diagram's cells."""
    from matplotlib.colors import BoundaryNorm, ListedColormap
    from matplotlib.legend import Legend
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
    legend_room = 1.6 if "class" in columns else 0.0  # the class legend beside its panel
    fig, axes = plt.subplots(down, across, figsize=(6.6 * across + legend_room, 0.8 + 5.0 * down),
                             squeeze=False)
    axes = axes.ravel()
    for ax in axes[count:]:
        ax.set_visible(False)
    insets = 0
    for ax, column in zip(axes, columns):
        if column == "class":
            insets += class_diagram(ax, sweep, keys, (xs, ys, ix, iy, ex, ey, (sx, sy)), tips,
                                    boundaries)
            continue
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
                                 label=f"failed member ({failed.sum()})"))
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
        lines = draw_boundaries(ax, boundaries, placement(xs, sx), placement(ys, sy))
        if lines:  # a second legend, inside the panel (the first one's is below it)
            ax.add_artist(Legend(ax, lines, [line.get_label() for line in lines], fontsize=7,
                                 loc="best"))
    if tips is not None:
        print(f"--tips: {insets} tip path inset{'s' * (insets != 1)} drawn")
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
                        help="the measurements to plot, column names of the header, or class (default: "
                             "speed last_speed propagated apd@... with one axis, propagated with two; "
                             "of a sheet sweep class and period with one axis, class with two)")
    parser.add_argument("--where", action="append", default=[], metavar="KEY=VALUE",
                        help="keep only the rows with this axis value (repeatable); a sweep of more "
                             "than two axes needs all but two fixed")
    parser.add_argument("-o", "--output", help="PNG to write (default: the CSV's name with .png)")
    parser.add_argument("--title", help="the figure's title (default: the sweep's folder, the "
                                        "member count and the --where values)")
    parser.add_argument("--tips", action="store_true",
                        help="draw the principal tip's path (members/<m>/tips.csv, last half) in "
                             "each cell of the class phase diagram that has one")
    parser.add_argument("--boundaries", metavar="FILE.csv",
                        help="overlay boundary curves on the two-axis panels: a CSV with the header "
                             "boundary,<axis key 1>,<axis key 2>[,source] (see above)")
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
        elif sweep.classes is not None:
            columns = ["class"] + [c for c in ("period",) if len(keys) == 1 and c in sweep.measurements]
        elif len(keys) == 1:
            columns = [c for c in sweep.measurements
                       if c in ("speed", "last_speed", "propagated") or c.startswith("apd@")]
        else:
            columns = check_columns(sweep, ["propagated"])
        if not columns:
            raise SweepError(f"{sweep.path}: none of the default measurements; choose with --y "
                             f"from: {' '.join(sweep.plottable())}")
        if (args.tips or args.boundaries) and len(keys) != 2:
            raise SweepError(f"--{'tips' if args.tips else 'boundaries'} draws on the two-axis "
                             f"diagram; {sweep.path} has one axis left to plot ({keys[0]})")
        if args.tips and "class" not in columns:
            raise SweepError("--tips draws in the cells of the class phase diagram: "
                             + ("add class to --y" if sweep.classes is not None else
                                f"{sweep.path} has no class column (not a sheet sweep)"))
        boundaries = read_boundaries(args.boundaries, keys) if args.boundaries else []
        tips = read_member_tips(sweep) if args.tips else None
    except SweepError as error:
        sys.exit(f"{PROGRAM}: {error}")

    title = args.title if args.title is not None else default_title(sweep, fixed, total)
    report_failures(sweep, keys)
    if len(keys) == 1:
        fig = plot_one_axis(plt, sweep, keys[0], columns, title)
    else:
        fig = plot_two_axes(plt, sweep, keys, columns, title, tips, boundaries)
    output = args.output or os.path.splitext(args.csv)[0] + ".png"
    try:
        fig.savefig(output, dpi=120)
    except OSError as error:
        sys.exit(f"{PROGRAM}: cannot write {output}: {error.strerror}")
    print(output)


if __name__ == "__main__":
    main()
