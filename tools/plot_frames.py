#!/usr/bin/env python3
"""Images of a sheet run's frames: v or w over the sheet at chosen times, as PNGs or an animation;
of a box run's frames, a plane of the box (--slice, default the middle plane along z).

    tools/plot_frames.py output/<name>/<name>.pvd                       # the last frame
    tools/plot_frames.py output/<name>/<name>.pvd --frames 0 10 -1 --field w
    tools/plot_frames.py output/<name>/<name>.pvd --times 50 100
    tools/plot_frames.py output/<name>/<name>.pvd --animate             # every frame, MP4 or GIF
    tools/plot_frames.py output/scroll_3d/scroll_3d.pvd --slice y=15    # a box: the plane y = 15

Reads the run's .pvd collection and its .vti frames directly, without the vtk Python module
(tools/lib/vtk_xml.py). PNGs are <name>_frame_NNNNNN.png (NNNNNN: the frame's position in the
collection; <name>_frame_NNNNNN_w.png for w) in --output or beside the .pvd; an animation is <name>_<field>.mp4 when ffmpeg is
installed, else <name>_<field>.gif through Pillow. All images of one call share the colour
range: by default the smallest and largest value the writer recorded in the frames' headers.
"""
import argparse
import importlib.util
import math
import shutil
import sys
from pathlib import Path

from lib.vtk_xml import READ_ERRORS, VtiError, header_range, read_collection, read_image

try:
    import numpy as np
except ImportError:  # reported by main() after --help had its chance
    np = None

# Frames larger than this many points along an axis are drawn from every k-th point (the
# figure has fewer pixels than that anyway).
MAX_PIXELS = 2048


def select(frames, indices, times):
    """[(position in the collection, t, path)] of the frames asked for, in the order asked."""
    if times is not None:
        frame_times = np.array([t for t, _ in frames])
        indices = [int(np.abs(frame_times - t).argmin()) for t in times]
    chosen = []
    for index in indices:
        if not -len(frames) <= index < len(frames):
            raise VtiError(f"no frame {index}: the collection has {len(frames)} "
                           f"(0 to {len(frames) - 1}, or -1 for the last)")
        position = index % len(frames)
        chosen.append((position, *frames[position]))
    return chosen


def colour_range(chosen, field, vmin, vmax, cut=None):
    """The colour limits: the given ones, else the extremes of the headers' ranges (or of the
    values where a header records none)."""
    if vmin is not None and vmax is not None:
        return vmin, vmax
    lows, highs = [], []
    for _, _, path in chosen:
        bounds = header_range(path, field)
        if bounds is None:
            values = read_image(path, [field], cut).arrays[field]
            bounds = float(values.min()), float(values.max())
        lows.append(bounds[0])
        highs.append(bounds[1])
    return (min(lows) if vmin is None else vmin), (max(highs) if vmax is None else vmax)


class FramePlot:
    """A figure showing one frame at a time (an image, its colour bar, the time in the title)."""

    def __init__(self, name, field, limits, cut=None):
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        self.plt = plt
        self.name = name
        self.field = field
        self.limits = limits
        self.cut = cut
        self.fig = self.ax = self.image = None

    def show(self, t, path):
        frame = read_image(path, [self.field], self.cut)
        values = frame.arrays[self.field]
        ny, nx = values.shape
        step = max(1, math.ceil(max(nx, ny) / MAX_PIXELS))
        shown = values[::step, ::step]
        (ox, oy, _), (sx, sy, _) = frame.origin, frame.spacing
        # Pixel centres on the points drawn, (0, 0) to the last multiple of step on each axis.
        last_x, last_y = ((nx - 1) // step) * step, ((ny - 1) // step) * step
        extent = [ox - step * sx / 2, ox + (last_x + step / 2) * sx,
                  oy - step * sy / 2, oy + (last_y + step / 2) * sy]
        if self.image is None:
            # A figure of the sheet's aspect, so that the colour bar is as tall as the image.
            aspect = (extent[3] - extent[2]) / (extent[1] - extent[0])
            self.fig, self.ax = self.plt.subplots(figsize=(7.5, min(12.0, 1.2 + 6.0 * aspect)),
                                                  constrained_layout=True)
            self.image = self.ax.imshow(shown, origin="lower", extent=extent, aspect="equal",
                                        interpolation="nearest", cmap="viridis",
                                        vmin=self.limits[0], vmax=self.limits[1])
            self.fig.colorbar(self.image, ax=self.ax, label=self.field)
            self.ax.set_xlabel(f"{'xyz'[frame.axes[0]]} (space units)")
            self.ax.set_ylabel(f"{'xyz'[frame.axes[1]]} (space units)")
        else:
            self.image.set_data(shown)
            self.image.set_extent(extent)
        every = f", 1 in {step} drawn along each axis" if step > 1 else ""
        plane = "" if frame.at is None else f", {'xyz'[3 - sum(frame.axes)]} = {frame.at:g}"
        self.ax.set_title(f"{self.name}: {self.field} at t = {t:g}{plane} ({nx} x {ny} points{every})")

    def save(self, out):
        self.fig.savefig(out, dpi=150)

    def close(self):
        self.plt.close(self.fig)


def animation_writer(fps):
    """(matplotlib writer, file suffix) for an animation, or exit saying what is missing."""
    from matplotlib import animation

    if shutil.which("ffmpeg"):
        return animation.FFMpegWriter(fps=fps), ".mp4"
    if importlib.util.find_spec("PIL") is None:  # PillowWriter needs Pillow
        sys.exit("plot_frames: --animate needs ffmpeg (for an MP4; Debian: apt install ffmpeg) or "
                 "Pillow (for a GIF; Debian: apt install python3-pil); neither was found")
    return animation.PillowWriter(fps=fps), ".gif"


def main():
    parser = argparse.ArgumentParser(
        description="Draw frames of an fhnsim sheet run (.pvd of .vti) as PNG images or an "
                    "animation (MP4 with ffmpeg, else GIF with Pillow).")
    parser.add_argument("pvd", type=Path, help="the run's collection, output/<name>/<name>.pvd")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--frames", type=int, nargs="+", metavar="I",
                       help="positions in the collection, from 0; negative count from the end "
                            "(default: -1, the last frame; with --animate: every frame)")
    which.add_argument("--times", type=float, nargs="+", metavar="T",
                       help="the frames nearest to these times")
    parser.add_argument("--field", choices=["v", "w"], default="v", help="the array drawn (v)")
    parser.add_argument("--output", type=Path, metavar="DIR",
                        help="folder for the images (default: beside the .pvd)")
    parser.add_argument("--animate", action="store_true",
                        help="one animation of the frames instead of PNGs")
    parser.add_argument("--fps", type=float, default=10.0, help="animation frames per second (10)")
    parser.add_argument("--slice", metavar="AXIS=VALUE",
                        help="a box: the plane drawn, e.g. z=2.5 or y=15 (the nearest plane of "
                             "points; default the middle plane along z)")
    parser.add_argument("--vmin", type=float, help="lower end of the colour scale")
    parser.add_argument("--vmax", type=float, help="upper end of the colour scale")
    args = parser.parse_args()
    if np is None:
        sys.exit("plot_frames: needs numpy and matplotlib (Debian: apt install python3-numpy "
                 "python3-matplotlib, then run with that python3, e.g. /usr/bin/python3)")
    cut = None
    if args.slice is not None:
        axis, _, value = args.slice.partition("=")
        try:
            cut = ("xyz".index(axis.strip()), float(value))
        except ValueError:
            sys.exit(f"plot_frames: --slice {args.slice}: expected AXIS=VALUE with AXIS x, y or z")
    out_dir = args.output or args.pvd.parent
    name = args.pvd.stem
    try:
        frames = read_collection(args.pvd)
        if args.frames is None and args.times is None:
            indices = range(len(frames)) if args.animate else [-1]
        else:
            indices = args.frames
        chosen = select(frames, indices, args.times)
        limits = colour_range(chosen, args.field, args.vmin, args.vmax, cut)
        out_dir.mkdir(parents=True, exist_ok=True)
        plot = FramePlot(name, args.field, limits, cut)
        if args.animate:
            writer, suffix = animation_writer(args.fps)
            out = out_dir / f"{name}_{args.field}{suffix}"
            plot.show(*chosen[0][1:])  # the first frame sizes the figure the writer records
            with writer.saving(plot.fig, str(out), dpi=100):
                writer.grab_frame()
                for _, t, path in chosen[1:]:
                    plot.show(t, path)
                    writer.grab_frame()
            print(out)
        else:
            for position, t, path in chosen:
                plot.show(t, path)
                suffix = "" if args.field == "v" else f"_{args.field}"
                out = out_dir / f"{name}_frame_{position:06d}{suffix}.png"
                plot.save(out)
                print(out)
        plot.close()
    except (VtiError, *READ_ERRORS) as error:
        sys.exit(f"plot_frames: {args.pvd}: {error}")


if __name__ == "__main__":
    main()
