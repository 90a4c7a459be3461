#!/usr/bin/env python3
"""Spiral-tip paths of a sheet run drawn over its last frame: every tip of tips.csv as a dot
coloured by its time, the tips of the last frame circled, on v (or w) of the last frame in grey.

    tools/plot_tips.py output/<name>/<name>.pvd [--tips FILE] [--zoom] [-o OUT.png]

Reads tips.csv (t,tip,x,y; default: beside the .pvd) and the last .vti frame of the collection
directly, without the vtk Python module (tools/lib/vtk_xml.py). The title gives the rotation
period and the tip path's class (rigid, meander, drift, ...) when summary.json beside the .pvd
has them.
"""
import argparse
import csv
import json
import sys
from pathlib import Path

from lib.vtk_xml import READ_ERRORS, VtiError, read_collection, read_image

try:
    import numpy as np
except ImportError:  # reported by main() after --help had its chance
    np = None


class TipsError(Exception):
    """tips.csv is not what fhn run writes."""


def read_tips(path):
    """(t, x, y) arrays of every row of a tips.csv."""
    with open(path, newline="") as file:
        rows = list(csv.reader(file))
    if not rows or rows[0] != ["t", "tip", "x", "y"]:
        raise TipsError(f"{path}: expected the header t,tip,x,y")
    try:
        values = np.array([[float(field) for field in row] for row in rows[1:] if row],
                          dtype=float).reshape(-1, 4)
    except ValueError as error:
        raise TipsError(f"{path}: {error}") from error
    return values[:, 0], values[:, 2], values[:, 3]


def rotation_note(summary):
    """What summary.json says about the tips, for the title ("" when it says nothing)."""
    try:
        tips = json.loads(summary.read_text())["tips"]
    except (OSError, ValueError, KeyError, TypeError):
        return ""
    period = tips.get("rotation_period")
    path = tips.get("path") if isinstance(tips.get("path"), dict) else {}
    kind = f"; tip path: {path['class']}" if "class" in path else ""
    if period is None:
        return f"{tips.get('count_at_end', '?')} tips at the end, no rotation period{kind}"
    return (f"{tips.get('count_at_end', '?')} tips at the end, rotation period {period:.4g} "
            f"({tips.get('rotations', '?')} turns){kind}")


def plot(pvd, tips_file, out, field, zoom):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    t_last, frame_path = read_collection(pvd)[-1]
    frame = read_image(frame_path, [field])
    values = frame.arrays[field]
    ny, nx = values.shape
    (ox, oy, _), (sx, sy, _) = frame.origin, frame.spacing
    extent = [ox - sx / 2, ox + (nx - 0.5) * sx, oy - sy / 2, oy + (ny - 0.5) * sy]
    t, x, y = read_tips(tips_file)

    aspect = (extent[3] - extent[2]) / (extent[1] - extent[0])
    fig, ax = plt.subplots(figsize=(8.5, min(12.0, 1.2 + 6.0 * aspect)), constrained_layout=True)
    background = ax.imshow(values, origin="lower", extent=extent, aspect="equal",
                           interpolation="nearest", cmap="gray", alpha=0.8)
    fig.colorbar(background, ax=ax, label=f"{field} at t = {t_last:g}", pad=0.01)
    if len(t):
        dots = ax.scatter(x, y, c=t, s=8, cmap="plasma", linewidths=0)
        fig.colorbar(dots, ax=ax, label="t of the tip", pad=0.01)
        at_end = np.isclose(t, t_last, rtol=0.0, atol=1e-9 * max(1.0, abs(t_last)))
        if at_end.any():
            ax.scatter(x[at_end], y[at_end], s=80, facecolors="none", edgecolors="red",
                       linewidths=1.5, label=f"tips at t = {t_last:g}")
            ax.legend(loc="upper right", fontsize=8)
    if zoom and len(t):  # the tips' bounding box with a margin of a tenth, 5 cells at least
        margin_x = max(0.1 * np.ptp(x), 5 * sx)
        margin_y = max(0.1 * np.ptp(y), 5 * sy)
        ax.set_xlim(max(extent[0], x.min() - margin_x), min(extent[1], x.max() + margin_x))
        ax.set_ylim(max(extent[2], y.min() - margin_y), min(extent[3], y.max() + margin_y))
    else:
        ax.set_xlim(extent[0], extent[1])
        ax.set_ylim(extent[2], extent[3])
    ax.set_xlabel("x (space units)")
    ax.set_ylabel("y (space units)")
    title = f"{Path(pvd).stem}: {len(t)} tip positions over {len(np.unique(t))} frames"
    note = rotation_note(Path(pvd).parent / "summary.json")
    ax.set_title(title + (f"\n{note}" if note else ""), fontsize=10)
    fig.savefig(out, dpi=150)
    plt.close(fig)


def main():
    parser = argparse.ArgumentParser(
        description="Draw the spiral-tip paths of an fhnsim sheet run (tips.csv) over its last "
                    "frame, to PNG.")
    parser.add_argument("pvd", type=Path, help="the run's collection, output/<name>/<name>.pvd")
    parser.add_argument("--tips", type=Path, help="tips.csv (default: beside the .pvd)")
    parser.add_argument("--field", choices=["v", "w"], default="v",
                        help="the array of the last frame drawn under the tips (v)")
    parser.add_argument("--zoom", action="store_true",
                        help="show only the part of the sheet around the tips")
    parser.add_argument("-o", "--output", type=Path,
                        help="PNG to write (default: <name>_tips.png beside the .pvd)")
    args = parser.parse_args()
    if np is None:
        sys.exit("plot_tips: needs numpy and matplotlib (Debian: apt install python3-numpy "
                 "python3-matplotlib, then run with that python3, e.g. /usr/bin/python3)")
    tips = args.tips or args.pvd.parent / "tips.csv"
    out = args.output or args.pvd.with_name(args.pvd.stem + "_tips.png")
    try:
        plot(args.pvd, tips, out, args.field, args.zoom)
    except (TipsError, VtiError, *READ_ERRORS) as error:
        sys.exit(f"plot_tips: {error}")
    print(out)


if __name__ == "__main__":
    main()
