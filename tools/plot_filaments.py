#!/usr/bin/env python3
"""Scroll-wave filaments of a box run against time, from its filaments.csv: the filaments'
total length, a ring's radius or radius squared, or how many filaments there are.

    tools/plot_filaments.py output/<name>/filaments.csv [-o OUT.png]
                            [--quantity length|radius|radius2|count]

Reads the filaments.csv written by `fhn run` on a box (output.filaments; header
t,filament,closed,points,length,radius, one row per filament per frame, radius empty for an
open filament) and draws against t:

  length   each frame's total filament length, and the number of filaments (steps, right axis)
  radius   the ring's radius in the frames whose only filament is closed (the ring frames of
           summary.json)
  radius2  the ring's radius squared in those frames and the least-squares line through them,
           its slope d(R^2)/dt in the legend (negative: the ring shrinks; the legend also says
           when the line reaches 0); summary.json's filaments.ring_radius2_rate in the title
  count    the number of filaments in each frame

The default is radius when any row is closed, else length. A frame without a filament writes
no row, so the frames are only known from the rows: a frame counts 0 filaments (length 0)
only between the first and last t seen, where the t seen leave a gap of whole frames (the
frame spacing being the smallest gap between two t seen); frames before the first filament or
after the last one are not drawn. Where a restarted run wrote a frame again, its last rows
count. Writes OUT.png (default: filaments.png beside the CSV) and prints its name.
"""
import argparse
import csv
import json
import math
import sys
from pathlib import Path

HEADER = ["t", "filament", "closed", "points", "length", "radius"]
QUANTITIES = ["length", "radius", "radius2", "count"]


class FilamentsError(Exception):
    """filaments.csv is not what fhn run writes, or holds nothing to draw."""


def read_frames(path):
    """The frames of a filaments.csv in order of t: a list of (t, [(closed, length, radius)])
    with radius None for an open filament. Only frames with at least one row are there."""
    try:
        with open(path, newline="") as file:
            reader = csv.reader(file)
            header = next(reader, None)
            if header is None:
                raise FilamentsError(f"{path}: empty file, expected the header {','.join(HEADER)}")
            if header != HEADER:
                raise FilamentsError(f"{path}: expected the header {','.join(HEADER)}, "
                                     f"found {','.join(header)}")
            blocks = []  # (t, rows) per run of rows of one frame, as written
            for row in reader:
                if not row:
                    continue
                line = f"{path}:{reader.line_num}"
                if len(row) != len(HEADER):
                    raise FilamentsError(f"{line}: {len(row)} fields, expected {len(HEADER)}")
                values = {}
                for name, kind, field in zip(HEADER, (float, int, str, int, float, float), row):
                    try:
                        values[name] = kind(field) if field or name != "radius" else None
                    except ValueError:
                        raise FilamentsError(f"{line}: {name} is '{field}', expected "
                                             f"{'an integer' if kind is int else 'a number'}") from None
                t, index, points, length, radius = (values[name] for name in
                                                    ("t", "filament", "points", "length", "radius"))
                if row[2] not in ("0", "1"):
                    raise FilamentsError(f"{line}: closed is '{row[2]}', expected 0 or 1")
                closed = row[2] == "1"
                if not math.isfinite(t) or not math.isfinite(length) or length < 0:
                    raise FilamentsError(f"{line}: t and length must be finite (length >= 0)")
                if index < 0 or points < 0:
                    raise FilamentsError(f"{line}: filament and points must be >= 0")
                if closed and (radius is None or not math.isfinite(radius)):
                    raise FilamentsError(f"{line}: a closed filament without a radius")
                # A new frame begins where t changes or the numbering starts again (a restarted
                # run writing a frame it had written before).
                if not blocks or blocks[-1][0] != t or index == 0:
                    blocks.append((t, []))
                blocks[-1][1].append((closed, length, radius if closed else None))
    except OSError as error:
        raise FilamentsError(f"{path}: {error.strerror or error}") from error
    if not blocks:
        raise FilamentsError(f"{path}: no filament rows (no frame held a filament)")
    frames = {}
    for t, rows in blocks:  # the last rows written for a t count
        frames[t] = rows
    return sorted(frames.items())


def with_empty_frames(times):
    """The t seen with the frames between them that wrote no row (at the spacing of the
    closest two), and for each whether it was seen."""
    if len(times) < 2:
        return list(times), [True] * len(times)
    spacing = min(b - a for a, b in zip(times, times[1:]))
    out, seen = [times[0]], [True]
    for a, b in zip(times, times[1:]):
        missing = int(round((b - a) / spacing)) - 1
        for k in range(1, missing + 1):
            out.append(a + k * (b - a) / (missing + 1))
            seen.append(False)
        out.append(b)
        seen.append(True)
    return out, seen


def summary_note(path):
    """What summary.json beside the CSV says about the filaments ("" when it says nothing),
    and its ring_radius2_rate (None when absent or null)."""
    try:
        filaments = json.loads((Path(path).parent / "summary.json").read_text())["filaments"]
        rate = filaments.get("ring_radius2_rate")
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return "", None
    note = (f"summary.json: {filaments.get('count_at_end', '?')} filaments at the end, "
            f"{filaments.get('ring_frames', '?')} ring frames")
    if isinstance(rate, (int, float)):
        note += f", d(R\u00b2)/dt = {rate:.4g}"
    else:
        rate = None
    return note, rate


def plot(path, out, quantity, np, plt):
    frames = read_frames(path)
    if quantity is None:
        closed_any = any(closed for _, rows in frames for closed, _, _ in rows)
        quantity = "radius" if closed_any else "length"
    by_t = dict(frames)
    times, seen = with_empty_frames([t for t, _ in frames])
    t = np.array(times)
    count = np.array([len(by_t[x]) if s else 0 for x, s in zip(times, seen)])
    # The ring's radius where a frame's only filament is closed, NaN elsewhere (breaks the line).
    ring = np.array([by_t[x][0][2] if s and len(by_t[x]) == 1 and by_t[x][0][0] else np.nan
                     for x, s in zip(times, seen)], dtype=float)
    is_ring = np.isfinite(ring)
    if quantity in ("radius", "radius2") and not is_ring.any():
        raise FilamentsError(f"{path}: no frame whose only filament is closed (a ring), "
                             f"nothing to draw for --quantity {quantity}")

    run = Path(path).resolve().parent.name
    note, rate = summary_note(path)
    fig, ax = plt.subplots(figsize=(7.5, 4.8))
    if quantity == "length":
        total = np.array([sum(length for _, length, _ in by_t[x]) if s else 0.0
                          for x, s in zip(times, seen)])
        ax.plot(t, total, "o-", ms=3, color="C0", label="total length")
        ax.set_ylabel("total filament length (space units)", color="C0")
        ax.set_ylim(bottom=0)
        counts = ax.twinx()
        counts.step(t, count, where="mid", color="C1", alpha=0.8, label="filaments")
        counts.set_ylabel("filaments", color="C1")
        counts.set_ylim(0, max(1, count.max()) + 0.5)
        counts.yaxis.get_major_locator().set_params(integer=True)
        lines = ax.get_legend_handles_labels()
        more = counts.get_legend_handles_labels()
        ax.legend(lines[0] + more[0], lines[1] + more[1], fontsize=8, loc="best")
        title = f"{run}: filament length, {len(frames)} frames with filaments"
    elif quantity == "count":
        ax.step(t, count, where="mid", color="C1")
        ax.plot(t[np.array(seen)], count[np.array(seen)], "o", ms=3, color="C1")
        ax.set_ylabel("filaments")
        ax.set_ylim(0, max(1, count.max()) + 0.5)
        ax.yaxis.get_major_locator().set_params(integer=True)
        title = f"{run}: filaments per frame (0 only between the first and last t with one)"
    elif quantity == "radius":
        ax.plot(t, ring, "o-", ms=3, label="ring radius (mean distance from the centroid)")
        ax.set_ylabel("ring radius R (space units)")
        ax.set_ylim(bottom=0)
        ax.legend(fontsize=8)
        title = f"{run}: ring radius, {is_ring.sum()} ring frames"
    else:  # radius2
        r2 = ring ** 2
        ax.plot(t, r2, "o-", ms=3, label="R\u00b2 of the ring")
        if is_ring.sum() >= 2:
            slope, intercept = np.polyfit(t[is_ring], r2[is_ring], 1)
            fit_t = np.array([t[is_ring].min(), t[is_ring].max()])
            label = f"least squares: d(R\u00b2)/dt = {slope:.4g}"
            if slope < 0:
                label += f" (R\u00b2 = 0 at t \u2248 {-intercept / slope:.4g})"
            ax.plot(fit_t, slope * fit_t + intercept, "--", color="C3", label=label)
        else:
            ax.plot([], [], " ", label="one ring frame: no line")
        ax.set_ylabel("R\u00b2 (space units\u00b2)")
        ax.set_ylim(bottom=0)
        ax.legend(fontsize=8)
        title = f"{run}: ring radius squared, {is_ring.sum()} ring frames"
        if rate is not None:
            title += f", summary.json d(R\u00b2)/dt = {rate:.4g}"
            note = note.replace(f", d(R\u00b2)/dt = {rate:.4g}", "")
    ax.set_xlabel("t (time units)")
    ax.grid(True, alpha=0.3)
    ax.set_title(title + (f"\n{note}" if note else ""), fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=150)
    plt.close(fig)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("csv", type=Path, help="filaments.csv of a box run, output/<name>/filaments.csv")
    parser.add_argument("-o", "--output", type=Path,
                        help="PNG to write (default: filaments.png beside the CSV)")
    parser.add_argument("--quantity", choices=QUANTITIES,
                        help="what to draw against t (default: radius when any filament is "
                             "closed, else length)")
    args = parser.parse_args()
    try:
        import numpy as np
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("plot_filaments.py needs numpy and matplotlib (Debian: apt install "
                 "python3-numpy python3-matplotlib, then run with that python3, e.g. "
                 "/usr/bin/python3)")
    out = args.output or args.csv.parent / "filaments.png"
    try:
        plot(args.csv, out, args.quantity, np, plt)
    except FilamentsError as error:
        sys.exit(str(error))
    except OSError as error:  # the PNG could not be written
        sys.exit(f"{out}: {error.strerror or error}")
    print(out)


if __name__ == "__main__":
    main()
