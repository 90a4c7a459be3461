#!/usr/bin/env python3
"""Plot the kymograph (x-by-t image of v) that fhnsim writes to spacetime.vti.

Reads the VTK XML ImageData file directly, without the vtk Python module (tools/lib/vtk_xml.py:
the XML header is parsed with ElementTree and the arrays are decoded from the appended raw
binary block, zlib/lzma compressed or uncompressed, UInt32 or UInt64 block headers, or from
inline ASCII). x runs along the image's first axis, t along the second.
"""
import argparse
import sys
from pathlib import Path

from lib.vtk_xml import READ_ERRORS, VtiError, read_image

try:
    import numpy as np
except ImportError:  # reported by main() after --help had its chance
    np = None


def read_kymograph(path):
    """(v as an array [t, x], origin, spacing) of an ImageData file with a point array "v"."""
    image = read_image(path, ["v"])
    return image.arrays["v"], image.origin, image.spacing


def plot(path, out):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    v, origin, spacing = read_kymograph(path)
    ny, nx = v.shape
    # Pixel centres sit on the grid points.
    extent = [origin[0] - spacing[0] / 2, origin[0] + (nx - 0.5) * spacing[0],
              origin[1] - spacing[1] / 2, origin[1] + (ny - 0.5) * spacing[1]]
    fig, ax = plt.subplots(figsize=(8, 6), constrained_layout=True)
    image = ax.imshow(v, origin="lower", extent=extent, aspect="auto", interpolation="nearest",
                      cmap="viridis")
    ax.set_xlabel("x (space units)")
    ax.set_ylabel("t (time units)")
    path = Path(path)
    ax.set_title(f"{path.parent.name}/{path.name}" if path.parent.name else path.name)
    fig.colorbar(image, ax=ax, label="v")
    fig.savefig(out, dpi=150)
    plt.close(fig)


def main():
    parser = argparse.ArgumentParser(
        description="Plot an fhnsim spacetime .vti (x horizontal, t vertical, colour = v) to PNG.")
    parser.add_argument("vti", type=Path, help="spacetime image written by fhn run (spacetime.vti)")
    parser.add_argument("-o", "--output", type=Path,
                        help="PNG to write (default: the input path with .png)")
    args = parser.parse_args()
    if np is None:
        sys.exit("plot_kymograph: needs numpy and matplotlib (Debian: apt install python3-numpy "
                 "python3-matplotlib, then run with that python3, e.g. /usr/bin/python3)")
    out = args.output or args.vti.with_suffix(".png")
    try:
        plot(args.vti, out)
    except (VtiError, *READ_ERRORS) as error:
        sys.exit(f"plot_kymograph: {args.vti}: {error}")
    print(out)


if __name__ == "__main__":
    main()
