#!/usr/bin/env python3
"""Plot the kymograph (x-by-t image of v) that fhnsim writes to spacetime.vti.

Reads the VTK XML ImageData file directly, without the vtk Python module: the XML header is
parsed with ElementTree and the arrays are decoded from the appended raw binary block
(zlib/lzma compressed or uncompressed, UInt32 or UInt64 block headers) or from inline ASCII.
x runs along the image's first axis, t along the second.
"""
import argparse
import lzma
import sys
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path

try:
    import numpy as np
except ImportError:  # reported by main() after --help had its chance
    np = None

VTK_TYPES = {
    "Int8": "i1", "UInt8": "u1", "Int16": "i2", "UInt16": "u2", "Int32": "i4", "UInt32": "u4",
    "Int64": "i8", "UInt64": "u8", "Float32": "f4", "Float64": "f8",
}
DECOMPRESSORS = {"vtkZLibDataCompressor": zlib.decompress, "vtkLZMADataCompressor": lzma.decompress}


class VtiError(Exception):
    """The file is not an ImageData file this tool can decode."""


def split_appended(data):
    """(XML header, start of the appended raw bytes or None) of a VTK XML file's bytes."""
    tag = data.find(b"<AppendedData")
    if tag < 0:
        return data, None
    opening_end = data.index(b">", tag)
    if b'encoding="raw"' not in data[tag:opening_end]:
        raise VtiError("only raw appended data is supported (the writer used base64 encoding)")
    # The binary block starts right after the first "_" that follows the opening tag.
    underscore = data.index(b"_", opening_end)
    return data[:tag] + b"</VTKFile>", underscore + 1


class VtkXmlFile:
    """The header of a VTK XML file and a decoder for its data arrays."""

    def __init__(self, path):
        data = Path(path).read_bytes()
        header, self.appended_start = split_appended(data)
        self.data = data
        self.root = ET.fromstring(header)
        if self.root.tag != "VTKFile":
            raise VtiError("not a VTK XML file")
        endian = "<" if self.root.get("byte_order", "LittleEndian") == "LittleEndian" else ">"
        self.endian = endian
        # Block headers are UInt32 unless declared otherwise (files of version 0.1 have no attribute).
        header_type = "u8" if self.root.get("header_type") == "UInt64" else "u4"
        self.header_dtype = np.dtype(endian + header_type)
        compressor = self.root.get("compressor")
        if compressor is not None and compressor not in DECOMPRESSORS:
            raise VtiError(f"unsupported compressor {compressor}")
        self.decompress = DECOMPRESSORS.get(compressor)

    def array(self, element):
        """The values of a <DataArray> element as a flat numpy array."""
        value_type = VTK_TYPES[element.get("type")]
        fmt = element.get("format")
        if fmt == "ascii":
            return np.array(element.text.split(), dtype=value_type)
        if fmt != "appended" or self.appended_start is None:
            raise VtiError(f"unsupported DataArray format '{fmt}' (only appended raw and ascii)")
        raw = self._appended_bytes(self.appended_start + int(element.get("offset")))
        return np.frombuffer(raw, dtype=np.dtype(self.endian + value_type))

    def _appended_bytes(self, position):
        """The decoded bytes of the array that starts at position in the file."""
        size = self.header_dtype.itemsize

        def header_values(count):
            nonlocal position
            values = np.frombuffer(self.data, dtype=self.header_dtype, count=count, offset=position)
            position += count * size
            return [int(value) for value in values]

        if self.decompress is None:  # [nbytes] data
            (nbytes,) = header_values(1)
            return self.data[position:position + nbytes]
        # [nblocks, block size, last block size (0: a full block), compressed size of each block]
        nblocks, _, _ = header_values(3)
        compressed_sizes = header_values(nblocks)
        blocks = []
        for compressed in compressed_sizes:
            blocks.append(self.decompress(self.data[position:position + compressed]))
            position += compressed
        return b"".join(blocks)


def read_kymograph(path):
    """(v as an array [t, x], origin, spacing) of an ImageData file with a point array "v"."""
    vti = VtkXmlFile(path)
    if vti.root.get("type") != "ImageData":
        raise VtiError(f"expected an ImageData file, got type '{vti.root.get('type')}'")
    image = vti.root.find("ImageData")
    extent = [int(value) for value in image.get("WholeExtent").split()]
    nx, ny, nz = (extent[1] - extent[0] + 1, extent[3] - extent[2] + 1, extent[5] - extent[4] + 1)
    if nz != 1:
        raise VtiError(f"expected a 2-D image, got {nz} slices")
    origin = [float(value) for value in image.get("Origin").split()]
    spacing = [float(value) for value in image.get("Spacing").split()]
    point_data = image.find("Piece/PointData")
    element = point_data.find("DataArray[@Name='v']") if point_data is not None else None
    if element is None:
        raise VtiError("no point array 'v'")
    values = vti.array(element)
    if values.size != nx * ny:
        raise VtiError(f"array 'v' has {values.size} values, expected {nx} x {ny}")
    return values.reshape(ny, nx), origin, spacing


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
    except (OSError, VtiError, ET.ParseError, zlib.error, lzma.LZMAError) as error:
        sys.exit(f"plot_kymograph: {args.vti}: {error}")
    print(out)


if __name__ == "__main__":
    main()
