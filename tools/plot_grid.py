#!/usr/bin/env python3
"""Plot the moving grid of an adaptive_explicit run: node positions over time (the reference
blog's Fig. 8) and v on the nodes at a few times, optionally over a uniform run's v.

Reads the run's .pvd collection and the point coordinates and "v" of every .vtu frame directly,
without the vtk Python module (tools/lib/vtk_xml.py parses the XML and the appended raw
binary). Works for any fhnsim run; on a uniform grid every row of dots is the same.
"""
import argparse
import sys
from pathlib import Path

from lib.vtk_xml import READ_ERRORS, VtiError, VtkXmlFile, read_collection

try:
    import numpy as np
except ImportError:  # reported by main() after --help had its chance
    np = None


def read_frame(path):
    """(x, v) of one .vtu frame: the points' first coordinate and the point array "v"."""
    vtu = VtkXmlFile(path)
    piece = vtu.root.find("UnstructuredGrid/Piece")
    if piece is None:
        raise VtiError(f"{path}: not an UnstructuredGrid file")
    points = piece.find("Points/DataArray")
    v = piece.find("PointData/DataArray[@Name='v']")
    if points is None or v is None:
        raise VtiError(f"{path}: no points or no point array 'v'")
    return vtu.array(points).reshape(-1, 3)[:, 0], vtu.array(v)


def nearest_frames(frames, times):
    """The frames whose times are closest to each of `times`."""
    frame_times = np.array([t for t, _ in frames])
    return [frames[int(np.abs(frame_times - t).argmin())] for t in times]


def plot(pvd, out, times, reference):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    frames = read_collection(pvd)
    if times is None:  # six frames spread over the run, the blog's choice of panels
        last = frames[-1][0]
        times = [last * k / 6 for k in range(1, 7)]
    shown = nearest_frames(frames, times)
    reference_frames = read_collection(reference) if reference else None

    fig = plt.figure(figsize=(11, 8.5), constrained_layout=True)
    grid = fig.add_gridspec(2, len(shown), height_ratios=[2.2, 1])

    # 1. Node positions: one row of dots per frame.
    ax = fig.add_subplot(grid[0, :])
    counts = []
    for t, path in frames:
        x, _ = read_frame(path)
        counts.append(len(x))
        ax.plot(x, np.full(len(x), t), ".", color="tab:green", markersize=1.2)
    for t, _ in shown:
        ax.axhline(t, color="0.6", linewidth=0.6, linestyle=":")
    ax.set_xlabel("x (space units)")
    ax.set_ylabel("t (time units)")
    ax.set_title(f"{Path(pvd).name}: node positions over time "
                 f"({min(counts)} to {max(counts)} nodes per frame, mean {np.mean(counts):.0f})")

    # 2. v on the nodes at the chosen times (dots), over the reference run (line).
    for k, (t, path) in enumerate(shown):
        axv = fig.add_subplot(grid[1, k])
        if reference_frames:
            (t_ref, ref_path), = nearest_frames(reference_frames, [t])
            x_ref, v_ref = read_frame(ref_path)
            axv.plot(x_ref, v_ref, color="tab:red", linewidth=0.8,
                     label=f"{Path(reference).stem} at t = {t_ref:g}")
        x, v = read_frame(path)
        axv.plot(x, v, ".", color="tab:green", markersize=2.5, label=Path(pvd).stem)
        axv.set_title(f"t = {t:g}: {len(x)} nodes", fontsize=9)
        axv.set_xlabel("x", fontsize=8)
        axv.tick_params(labelsize=7)
        if k == 0:
            axv.set_ylabel("v")
            axv.legend(fontsize=6, loc="upper left")
    fig.savefig(out, dpi=150)
    plt.close(fig)


def main():
    parser = argparse.ArgumentParser(
        description="Plot the node positions over time of an fhnsim run (adaptive grid) to PNG.")
    parser.add_argument("pvd", type=Path, help="the run's collection, output/<name>/<name>.pvd")
    parser.add_argument("-o", "--output", type=Path,
                        help="PNG to write (default: <name>_grid.png beside the .pvd)")
    parser.add_argument("--times", type=float, nargs="+",
                        help="times of the v(x) panels (default: six spread over the run)")
    parser.add_argument("--reference", type=Path,
                        help="a uniform run's .pvd whose v is drawn as lines under the nodes")
    args = parser.parse_args()
    if np is None:
        sys.exit("plot_grid: needs numpy and matplotlib (Debian: apt install python3-numpy "
                 "python3-matplotlib, then run with that python3, e.g. /usr/bin/python3)")
    out = args.output or args.pvd.with_name(args.pvd.stem + "_grid.png")
    try:
        plot(args.pvd, out, args.times, args.reference)
    except (VtiError, *READ_ERRORS) as error:
        sys.exit(f"plot_grid: {error}")
    print(out)


if __name__ == "__main__":
    main()
